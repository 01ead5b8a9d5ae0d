/* SPDX-License-Identifier: ISC */
/*
 * control.h - the run's control messages, after the PAYLOAD (channel.h for
 * the framing), each with its typed encoder and decoder:
 *
 *   library -> helper
 *     SIGNAL     a signal number (1..64), for the agent's process group
 *     TERMINATE  end the whole tree: SIGTERM, the grace, SIGKILL; no body
 *     KILL       end the whole tree at once; one byte: 1 when the library
 *                records the run's end itself (ruas_child_free()), so that
 *                the helper does not, should it outlive the supervisor
 *   helper -> library
 *     EXIT       how the run ended (struct msg_exit), the helper's last word
 *     STOPPED    (an agent on a pty of its own only) it has stopped itself:
 *                the stopping signal
 *     CONTINUED  (the same) it runs again; no body
 *
 * Each encoder appends the body to out (0, or -1 when out of memory or the
 * value may not be sent); each decoder takes exactly the body (0, or -1
 * for any other length or value).
 */
#ifndef RUAS_PROTO_CONTROL_H
#define RUAS_PROTO_CONTROL_H

#include <stddef.h>

#include "buf.h"

/* The highest signal number a SIGNAL or STOPPED may carry (Linux's _NSIG - 1). */
#define MSG_SIGNAL_MAX 64

int msg_signal_encode(struct buf *out, int sig);
int msg_signal_decode(const void *body, size_t len, int *sig);

int msg_terminate_encode(struct buf *out);
int msg_terminate_decode(const void *body, size_t len);

int msg_kill_encode(struct buf *out, int library_records_end);
int msg_kill_decode(const void *body, size_t len, int *library_records_end);

/* How a run ended, as the helper saw it. */
enum msg_exit_how {
	EXIT_HOW_EXITED = 1,   /* the agent exited: value is its code */
	/*
	 * a signal killed the agent, or (started = 0) the run before the agent
	 * started (its login shell, on the tree's SIGTERM): value is its number
	 */
	EXIT_HOW_SIGNALED = 2,
	EXIT_HOW_HELPER = 3,   /* the helper ended the run: value is its exit code (125) */
};
/* survivors when the helper has no count (the agent never ran). */
#define MSG_EXIT_SURVIVORS_UNKNOWN (-1L)
struct msg_exit {
	int how;            /* enum msg_exit_how */
	unsigned int value; /* EXITED: 0..255; SIGNALED: 1..MSG_SIGNAL_MAX; HELPER: 0..255 */
	/* processes of the run left when the agent ended, and killed with it; or _UNKNOWN */
	long survivors;
	/*
	 * 1 when the agent's own program started (its exec succeeded), 0 when
	 * the run ended before that: the helper, the login shell or the exec
	 * failed. A run that did not start has no exit status of the agent's.
	 */
	int started;
};
int msg_exit_encode(struct buf *out, const struct msg_exit *e);
int msg_exit_decode(const void *body, size_t len, struct msg_exit *e);

int msg_stopped_encode(struct buf *out, int sig);
int msg_stopped_decode(const void *body, size_t len, int *sig);

int msg_continued_encode(struct buf *out);
int msg_continued_decode(const void *body, size_t len);

#endif
