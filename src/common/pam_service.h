/* SPDX-License-Identifier: ISC */
/*
 * pam_service.h - is a PAM service the one the pam backend means to run?
 *
 * Linux-PAM reads /etc/pam.d/SERVICE and, when there is no such file, runs
 * /etc/pam.d/other in its place without a word: a pam_service that names
 * nothing (a typo, or ruas's own file removed) would give the agent's
 * session whatever "other" says. ruas's own service, "ruas", must also be
 * the file that ruas installed (pam/ruas, which names itself in its first
 * lines); a site may add lines to it, or name a service of its own in
 * pam_service, which then only has to exist.
 */
#ifndef RUAS_PAM_SERVICE_H
#define RUAS_PAM_SERVICE_H

#include <stddef.h>

#define PAM_SERVICE_DIR "/etc/pam.d"
#define PAM_SERVICE_RUAS "ruas"
/* What pam/ruas says of itself, in its first lines. */
#define PAM_SERVICE_MARK "PAM service of ruas's pam backend"

/*
 * 0 when dir/service (dir NULL: PAM_SERVICE_DIR) is a regular file PAM will
 * read as the service (and, for "ruas", ruas's own); else -1 with why, a
 * sentence without its end, naming the file ("/etc/pam.d/x does not exist,
 * so PAM would run /etc/pam.d/other in its place"). PAM_SERVICE_NO_FD, with
 * errno EMFILE or ENFILE and why "cannot open PATH: ...", when no
 * descriptor was free to open it: the caller's limit, which says nothing of
 * the service file.
 */
#define PAM_SERVICE_NO_FD (-2)
int pam_service_problem(const char *dir, const char *service, char *why, size_t n);
/* The fix for such a service, a sentence without its end: one text for the check and the spawn. */
const char *pam_service_fix(const char *service);

#endif
