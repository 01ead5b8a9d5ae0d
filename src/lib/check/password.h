/* SPDX-License-Identifier: ISC */
/*
 * password.h - does the target have an empty password? From what the
 * system's own `passwd -S` said, run by the helper as the target (a user may
 * ask about itself; the helper reads no password database): "USER STATUS
 * DATE ...", where STATUS NP is no password at all, L or LK locked, P or PS
 * a usable one. An empty password is taken by PAM's nullok (Debian's
 * common-auth sets it), so every sudo rule that asks the target for a
 * password asks for nothing, and su lets anyone become it.
 */
#ifndef RUAS_CHECK_PASSWORD_H
#define RUAS_CHECK_PASSWORD_H

#include "helper_report.h"

enum password_verdict {
	PASSWORD_NOT_ASKED = 0, /* no PASSWD record: nothing to judge */
	PASSWORD_SET,           /* locked, or a usable password */
	PASSWORD_EMPTY,         /* NP */
	PASSWORD_UNJUDGED       /* passwd -S failed, or said something else */
};

enum password_verdict password_verdict(const struct helper_report *hr, const char *user);

/*
 * Has root no password? Its passwd entry's field is empty, or its shadow
 * entry's hash is (which only root can read: for anyone else, an unreadable
 * shadow is no verdict). Then su makes any local user root. 1 or 0.
 */
int root_password_empty(void);

#endif
