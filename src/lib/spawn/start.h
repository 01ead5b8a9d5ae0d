/* SPDX-License-Identifier: ISC */
/* start.h - the three ways ruas_spawn() starts an agent, and what they share. */
#ifndef RUAS_SPAWN_START_H
#define RUAS_SPAWN_START_H

#include <spawn.h>
#include <sys/types.h>

#include "config/config_int.h"
#include "error.h"
#include "payload.h"
#include "people/deny_files.h"
#include "spawn/values.h"

/* One start: what it runs, and the spawn attributes set up for it (spawn_attr.h). */
struct start {
	const struct ruas_config *cfg;
	const struct ruas_project *p;
	const char *const *args; /* the caller's, after the command */
	const char *const *env;  /* the supervisor's environment, or the caller's */
	const struct spawn_values *v; /* the caller's set_env and work_dir, checked */
	const struct deny_files *x;
	const char *run_id; /* the audit's, for RUAS_RUN_ID */
	uid_t target_uid;   /* run_as_user's, as looked up for this spawn (stall_end()) */
	unsigned int helper_facility; /* payload.h audit_facility */
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int stdio[3]; /* what the agent gets as 0, 1, 2 */
	/* The first of the caller's stdio that is a terminal, its name, for PAM_TTY; "" for none. */
	char tty[256];
	/*
	 * The started program's end of the channel (channel.h), and the
	 * descriptor it gets it as: 0 (sudo's stdin) or 3 (ruas-session's).
	 */
	int chan_child;
	int chan_fd;
	/* out: the channel to the helper, and the started program's pidfd; -1 when none */
	int chan;
	int pidfd;
	/*
	 * sudo's or ruas-session's own stdout and stderr: a memfd (never full,
	 * never a SIGPIPE), so that a refusal's words reach the spawn's error
	 * (start_wait.h) whatever the agent's stderr is; -1: none. The helper
	 * puts the agent's stderr on its own once its payload has come.
	 */
	int capture;
	/*
	 * The run's credential server (cred/serve.h), NULL: none; and the
	 * helper's end of its gate, sent with the payload, -1: none.
	 */
	struct cred_serve *cred;
	int cred_fd;
	ruas_credential_callback cred_cb; /* the spawn option's, NULL: none */
	void *cred_payload;
	int greeted; /* out: the helper's HELLO came, and it took its messages */
	/*
	 * The master of the agent's pty (spawn/pty.h), -1: none. With one,
	 * sudo or ruas-session starts in a session of its own, without the
	 * caller's terminal as its controlling one.
	 */
	int master;
	/*
	 * With the library's relay (spawn/relay.h): the caller's descriptors
	 * that the pty took the place of, for the relay to copy from and to;
	 * -1: none.
	 */
	int term_in, term_out;
	/*
	 * The run's own cgroup (limit_cgroup.h), NULL: none. With one, sudo or
	 * ruas-session starts inside it (clone_into.h), not by posix_spawn.
	 */
	struct limit_cgroup *cg;
};

/*
 * Each returns 0 with *pid set, or a ruas_code with *err set. The fa and
 * attr are the caller's to tear down either way.
 */

/* Without run_as_user: the command itself, as the supervisor, in work_dir (direct.c). */
int start_direct(struct start *s, pid_t *pid, ruas_error **err);
/* sudo -n -u USER -- ruas-exec --channel-fd 0, then pl over the channel (sudo.c). */
int start_sudo(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err);
/* ruas-session --channel-fd 3, which runs ruas-exec as USER in a PAM session (pam.c). */
int start_pam(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err);

/*
 * What the sudo and the pam start share once they have built their call
 * (r: the build's result, argv: the call): the program is started with an
 * empty environment, the channel as s->chan_fd (stdin from /dev/null when
 * that is not 0), and its stdout and stderr on s->capture when there is
 * one, else on the agent's stderr (sudo's own errors never go to a stream
 * the supervisor parses), and a failure is worded for the project's backend.
 */
int start_target(struct start *s, int r, const char *const *argv, pid_t *pid,
		 ruas_error **err);
/*
 * Once started: the messages (the pam backend's SESSION first, when
 * session is not NULL; then the payload, with the agent's stdio) go to the
 * helper (handover.h), and s->chan holds the channel. A helper that never
 * took them because sudo or ruas-session ended first is no error (their
 * exit status and stderr say why); one that did not take them in time is:
 * the started program is then killed and reaped.
 */
int start_hand_over(struct start *s, pid_t pid, const struct buf *session,
		    const struct buf *payload, ruas_error **err);
/*
 * Both together, around a socketpair of their own: the program gets one
 * end as chan_fd (0 or 3), then the messages go over the other, which
 * s->chan keeps. r, argv, *pid and *err as for start_target().
 */
int start_with_channel(struct start *s, int r, const char *const *argv, int chan_fd,
		       const struct buf *session, const struct buf *payload, pid_t *pid,
		       ruas_error **err);

#endif
