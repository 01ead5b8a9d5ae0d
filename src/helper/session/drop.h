/* SPDX-License-Identifier: ISC */
/* drop.h - becoming the target user for good, and its login environment. */
#ifndef RUAS_DROP_H
#define RUAS_DROP_H

#include <pwd.h>

/*
 * setresgid, setresuid, then verifies with getresuid and getresgid that
 * every id is the target's and that root cannot be regained. The
 * supplementary groups are kept: the caller set them with initgroups before
 * pam_setcred, as util-linux su does, so that groups a PAM module grants
 * (pam_group) survive. 0, or -1 after printing why: the caller must then
 * exit, never continue.
 */
int drop_to(const struct passwd *pw);

/*
 * The login environment, as runuser -l builds it: HOME, SHELL, USER,
 * LOGNAME, PATH (ENV_PATH of /etc/login.defs), then PAM's variables.
 * NULL-terminated, malloc'd; NULL on OOM.
 */
char **login_env(const struct passwd *pw, char **pam_env);

#endif
