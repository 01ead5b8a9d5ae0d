/*
 * handover.h - the library's end of a start: the started program's helper
 * gets its messages (channel.h) as fast as it takes them, and the library
 * never waits on it past a deadline, nor once the program has ended.
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
	HANDOVER_ERROR = -1,  /* poll() failed; errno says why */
};

/*
 * Sends what out holds over chan, watching the started program (pid, and
 * its pidfd or -1: then it is looked at every 50 ms) until all is sent,
 * it has ended, or HANDOVER_MS have passed.
 */
int handover(int chan, pid_t pid, int pidfd, struct channel_out *out);

#endif
