/* SPDX-License-Identifier: ISC */
/*
 * runner.h - running a command and capturing its output.
 *
 * Preflight talks to sudo only through a runner, so unit tests can inject a
 * fake one and see the exact argv and environment of every sudo call.
 */
#ifndef RUAS_RUNNER_H
#define RUAS_RUNNER_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "channel.h"

/*
 * The spawn channel of a helper call (channel.h): one end of a socketpair
 * that the started program gets as descriptor fd_no, over which the runner
 * hands the helper its messages as fast as it takes them (the payload
 * only after the helper's HELLO, payload.h), and collects what comes back
 * (the REPORTs), while it drains stdout and stderr: no payload is ever on
 * a command line or in sudo's I/O log, and nothing the helper or sudo
 * writes can stall the call.
 */
struct run_channel {
	int fd_no;                 /* 0: sudo's stdin; 3: ruas-session's descriptor 3 */
	const struct buf *session; /* pam: ruas-session's SESSION, else NULL */
	const struct buf *payload; /* the helper's PAYLOAD body */
};

struct run_request {
	const char *path;         /* absolute path executed */
	const char *const *argv;  /* NULL-terminated */
	const char *const *envp;  /* NULL-terminated */
	size_t max_output;        /* bytes kept of stdout and of stderr each */
	unsigned int timeout_ms;  /* then SIGTERM, and SIGKILL 2 s later */
	int pty;                  /* on a terminal of its own: out gets stdout and stderr */
	const struct run_channel *channel; /* NULL: none (pty calls never have one) */
};

struct run_result {
	int spawn_errno; /* non-zero: the command never started */
	int wait_status; /* as from waitpid() */
	int timed_out;
	struct buf out;
	struct buf err;
	/*
	 * With a channel: the bytes that came back over it, whole messages
	 * (channel_next()), less the helper's HELLO, which the runner answers.
	 */
	struct buf chan;
	int chan_cut; /* more came than RUN_CHANNEL_MAX: what is kept is not to be trusted */
	/* The payload version the helper's HELLO named; 0: none came (no payload was sent). */
	unsigned int hello_version;
};

/* What the runner keeps of the channel: the largest report and a margin. */
#define RUN_CHANNEL_MAX (CHANNEL_MAX_BODY + 4096u)

typedef int (*run_fn)(void *ctx, const struct run_request *req,
		      struct run_result *res);

struct runner {
	run_fn run;
	void *ctx;
	/*
	 * The caller is root: preflight then also reads each target's sudo
	 * rules with `sudo -l -U`, which no listpw setting hides from root.
	 */
	int root;
	/*
	 * The tree the checks that read files look in (the lifetime check):
	 * NULL for "/", a fake one in the tests.
	 */
	const char *fs_root;
};

/*
 * The real runner: posix_spawn with stdin from /dev/null (or the channel,
 * as its fd_no says), stdout and stderr captured (or a new session on a
 * pty, for req->pty), descriptors above 2 (or the channel's) closed,
 * signals reset. Returns 0 when the
 * result is filled in (even when the command failed), -1 on a local error.
 */
int run_capture(void *ctx, const struct run_request *req, struct run_result *res);
void run_result_free(struct run_result *res);

/*
 * RUNNER_NOFILE_MIN descriptors at least, or the checks are not run: below
 * that sudo, its PAM stack and ruas's helper (which keeps its channel at 10
 * and above) cannot open their own, and what they would say then (a user
 * "unknown" to sudo, a rule "not configured") would be no answer.
 * RUAS_ERR_SYSTEM (EMFILE) naming fn and the limit, else 0.
 */
#define RUNNER_NOFILE_MIN 16
struct ruas_error;
int runner_nofile_floor(const char *fn, struct ruas_error **err);

#endif
