/* sudo_call.h - the one shape of sudo command line that libruas uses. */
#ifndef RUAS_SUDO_CALL_H
#define RUAS_SUDO_CALL_H

#include "buf.h"

/*
 * sudo -n -iu USER -- exec HELPER --channel TOKEN
 *
 * -n: never prompt; -i: the target's login shell and environment; nothing
 * that forwards the supervisor's environment. sudo itself is started with
 * an empty environment, so only what the payload carries crosses.
 * `exec` (letters only, so sudo passes it unescaped) makes the login shell
 * replace itself: a login bash does not exec its last command on its own,
 * and a signal relayed by sudo would then kill the shell and orphan the
 * agent.
 */
struct sudo_call {
	const char *argv[15];
	struct buf hex; /* the token */
};

extern const char *const sudo_call_envp[];

/*
 * The call of a spawn and of a check: sudo -n -iu USER -- exec HELPER
 * --channel TOKEN. The payload goes over the channel (channel.h), never on
 * the command line. 0 or RUAS_ERR_NOMEM.
 */
int sudo_call_build(struct sudo_call *c, const char *sudo, const char *user, const char *helper,
		    const char *token);
/*
 * The same, run as user `via` first: sudo -n -u VIA -- sudo -n -iu USER ...
 * Only root can do this without a password; ruas-setup uses it to check,
 * as the supervisor, that the supervisor's rule works. via NULL: as above.
 */
int sudo_call_build_via(struct sudo_call *c, const char *sudo, const char *via, const char *user,
			const char *helper, const char *token);
void sudo_call_free(struct sudo_call *c);

#endif
