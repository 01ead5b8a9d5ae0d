/* SPDX-License-Identifier: ISC */
/*
 * login_env.h - the environment the target's login shell starts with, as
 * sudo -i gives it, though sudo ran the helper without -i.
 *
 * sudo -u and sudo -i build the same environment from an empty one (the
 * library starts sudo with none): HOME, SHELL, USER, LOGNAME and MAIL of
 * the target, TERM, PATH (secure_path), SUDO_USER, SUDO_UID, SUDO_GID,
 * and PAM's variables. They differ in SUDO_COMMAND only, which names what
 * sudo ran: here the helper; under -i, the login shell and its -c string
 * (`/bin/bash -c claude --print fix\ the\ tests`). So the helper sets it
 * as -i would have, for the agent's argv, and the login files and the
 * agent see exactly what `sudo -i` gives them. The pam backend's
 * environment is ruas-session's (runuser's), which has no SUDO_COMMAND.
 */
#ifndef RUAS_LOGIN_ENV_H
#define RUAS_LOGIN_ENV_H

#include <stddef.h>

/*
 * SUDO_COMMAND as sudo -i sets it for argv run through shell: the shell,
 * "-c", and the arguments joined by spaces, each white-space byte behind a
 * backslash (sudo escapes every other byte too, and sudoers unescapes
 * them again). Cut to max bytes. 0 with a malloc'd *out, or -1.
 */
int sudo_command_of(const char *shell, char *const *argv, size_t max, char **out);

/*
 * This process's environment made the login shell's: SUDO_COMMAND as
 * above when sudo set one. 0, or -1 after a complaint.
 */
int login_env_prepare(const char *shell, char *const *argv);

#endif
