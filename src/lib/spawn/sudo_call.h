/* SPDX-License-Identifier: ISC */
/* sudo_call.h - the one shape of sudo command line that libruas uses. */
#ifndef RUAS_SUDO_CALL_H
#define RUAS_SUDO_CALL_H

#include <stddef.h>

/*
 * sudo -n -u USER -- HELPER --channel-fd 0
 *
 * -n: never prompt. No -i: sudo runs the helper itself, so that nothing of
 * the target's (its login shell and the login files it sources, which the
 * target may write) runs before the helper; the helper runs the login
 * shell later, inside the run's confinement (agent.h). Nothing forwards
 * the supervisor's environment: sudo is started with an empty one. The
 * spawn channel (channel.h) is sudo's standard input, which sudo hands to
 * the helper; no payload, token or name is on the command line.
 */
struct sudo_call {
	const char *argv[14];
};

extern const char *const sudo_call_envp[];

/* The call of a spawn and of a check. */
void sudo_call_build(struct sudo_call *c, const char *sudo, const char *user, const char *helper);
/*
 * The same, run as user `via` first: sudo -n -u VIA -- sudo -n -u USER ...
 * Only root can do this without a password; ruas-setup uses it to check,
 * as the supervisor, that the supervisor's rule works. via NULL: as above.
 */
void sudo_call_build_via(struct sudo_call *c, const char *sudo, const char *via, const char *user,
			 const char *helper);

/*
 * Whether what sudo said (its stderr) shows a failure of sudo's own rather
 * than a refusal by its rules: out of descriptors or memory, a PAM stack
 * or a plugin that could not be loaded, a user database it could not read
 * (seen here at RLIMIT_NOFILE 4 to 8, where sudo also goes on to say "a
 * password is required", or "unknown user" of user, which this process
 * finds). 0: none seen; else the errno it names (EMFILE,
 * ENFILE, ENOMEM), or -1 for one without an errno.
 */
int sudo_failed_itself(const char *said, const char *user);

/*
 * Words for a failure that sudo_failed_itself() sees (said), each its own,
 * naming a limit of this process's (which sudo and its PAM modules
 * inherit) only where that limit can be the cause: into buf (SUDO_WORDS_MAX
 * holds any), which it returns.
 */
#define SUDO_WORDS_MAX 512
const char *sudo_failure_words(const char *said, char *buf, size_t size);

#endif
