/* SPDX-License-Identifier: ISC */
/*
 * agent.h - the two messages between ruas-exec's halves, on a channel of
 * their own (a SOCK_SEQPACKET socketpair, one message a packet, framed as
 * channel.h's):
 *
 *   AGENT  outer helper -> inner helper: what the agent's exec needs, with
 *          descriptors attached: the body in a sealed memfd (so that any
 *          size fits a packet), and the agent's stdin, stdout and stderr.
 *          Not the work_dir: a descriptor opened before the run's mount
 *          namespace (pidns: its own /proc; bubblewrap: its masks) leads
 *          back into the outer tree, so the inner helper opens it again,
 *          inside, by the names this carries (src/helper/exec/work_dir.h)
 *   START  inner helper -> outer helper: the agent's exec is next
 *          (START_EXEC, with one descriptor: the read end of a pipe
 *          whose write end, close-on-exec, only the inner helper holds,
 *          so that its end of file is the exec done), or it failed
 *          (START_FAILED with the exec's errno), or the work_dir could not
 *          be entered (START_NO_WORK_DIR with its errno)
 *
 * The outer helper is the first program of the run as the target: it
 * takes the supervisor's payload, enters the run's confinement and only
 * then runs the target's login shell there, which runs the inner helper
 * (`ruas-exec --agent-fd 3`). The inner helper runs after the target's
 * login files, inside the run: it is the agent's last step, so it sets
 * what the login files must not decide (the allowlisted values, the
 * work_dir, the stdio) and execs the agent's argv exactly.
 *
 * A login file may take, close or fake either message: it is the
 * target's own code, inside the run, as the agent is. The outer helper
 * therefore trusts START only to tell apart "the agent never started"
 * from an exit status, never for anything the supervisor relies on.
 */
#ifndef RUAS_PROTO_AGENT_H
#define RUAS_PROTO_AGENT_H

#include <stddef.h>

#include "buf.h"

/* AGENT's descriptors, in order. */
enum { AGENT_FD_BODY, AGENT_FD_STDIN, AGENT_FD_STDOUT, AGENT_FD_STDERR, AGENT_NFDS };

struct agent_start {
	char **argv; /* NULL-terminated, argc >= 1 */
	size_t argc;
	/* set over the login environment, in order (a later one wins) */
	char **env_names;
	char **env_values;
	size_t nenv;
	char *work_dir; /* the agent's PWD and cwd */
	char *root;     /* "" or the project's work_dir, which a per-spawn work_dir lies beneath */
	char *scope;    /* "" or the person's scope, which both resolve inside */
};

/* Appends the body of a to out. 0, or -1. */
int agent_encode(const struct agent_start *a, struct buf *out);
/* Decodes len bytes into *out (zeroed first). 0, or -1 with *why a static reason. */
int agent_decode(const void *data, size_t len, struct agent_start *out, const char **why);
void agent_free(struct agent_start *a);

enum start_state { START_EXEC = 1, START_FAILED = 2, START_NO_WORK_DIR = 3 };
int msg_start_encode(struct buf *out, int state, int errnum);
int msg_start_decode(const void *body, size_t len, int *state, int *errnum);

#endif
