/* SPDX-License-Identifier: ISC */
/*
 * targetpw.h - sudo rules that ask for the runas user's password
 * (Defaults targetpw) where that password is empty.
 *
 * With targetpw, `T ALL=(U) ALL` asks T for U's password, not its own; if
 * U has none, pam_unix's nullok (Debian's common-auth) takes the empty
 * answer and T runs anything as U. Only root can read /etc/shadow, so this
 * is judged by root's check and ruas-setup, on root's listing of T's rules
 * (`sudo -l -U T`, which shows the Defaults in force for T): the global
 * setting, then `Defaults>RUNAS targetpw` / `!targetpw` bound to runas
 * users (the last that names U wins), and a `Defaults!CMND targetpw` or a
 * binding to an alias the listing cannot expand turning it on, never off.
 * A non-root check says it could not read shadow (host_notes.h).
 */
#ifndef RUAS_CHECK_TARGETPW_H
#define RUAS_CHECK_TARGETPW_H

#include "check/sudo_list.h"

/*
 * The accounts of shadow (NULL: /etc/shadow) whose password field is
 * empty: a NULL-terminated list (strv_free), or NULL when shadow cannot be
 * read or memory ran out.
 */
char **targetpw_empty_accounts(const char *shadow);

/*
 * For each rule of l that asks a password for a command (no NOPASSWD) while
 * targetpw is in force, each runas user in empty (not user itself) that the
 * rule may run as: calls found(ctx, runas user, rule line). The number found.
 */
size_t targetpw_ways(const struct sudo_listing *l, const char *user, char *const *empty,
		     void (*found)(void *ctx, const char *runas, const char *line), void *ctx);

#endif
