/* sudo_call.h - the one shape of sudo command line that libruas uses. */
#ifndef RUAS_SUDO_CALL_H
#define RUAS_SUDO_CALL_H

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

#endif
