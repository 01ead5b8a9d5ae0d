/* SPDX-License-Identifier: ISC */
/*
 * handover.h - the library's end of a start: the started program's helper
 * gets its messages (channel.h) as fast as it takes them, the payload only
 * once the helper itself has said HELLO (payload.h), and the library never
 * waits on it past a deadline, nor once the program has ended.
 */
#ifndef RUAS_SPAWN_HANDOVER_H
#define RUAS_SPAWN_HANDOVER_H

#include <sys/types.h>

#include "channel.h"

/* How long sudo (or ruas-session) and its PAM session may take before the helper reads. */
#define HANDOVER_MS 60000

enum {
	HANDOVER_OK = 0,
	HANDOVER_GONE = 1,    /* the started program ended (or closed the channel) first */
	HANDOVER_TIMEOUT = 2, /* nothing took the messages in time */
	HANDOVER_VERSION = 3, /* the helper's HELLO names another payload version */
	HANDOVER_BAD = 4,     /* something else than HELLO came first */
	HANDOVER_ERROR = -1,  /* poll() failed; errno says why */
};

/*
 * Sends first (ruas-session's SESSION; may be empty), waits for the
 * helper's HELLO, which is all it reads, then sends then (PAYLOAD),
 * watching the started program (pid, and its pidfd or -1: then it is
 * looked at every 50 ms) until all is sent, it has ended, or HANDOVER_MS
 * have passed. *version: the HELLO's version, 0 before one came.
 */
int handover(int chan, pid_t pid, int pidfd, struct channel_out *first,
	     struct channel_out *then, unsigned int *version);

#endif
