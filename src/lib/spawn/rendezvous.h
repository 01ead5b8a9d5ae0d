/* rendezvous.h - the library's end of the spawn channel (channel.h). */
#ifndef RUAS_SPAWN_RENDEZVOUS_H
#define RUAS_SPAWN_RENDEZVOUS_H

#include <sys/types.h>

#include "buf.h"

enum {
	RENDEZVOUS_OK = 0,
	RENDEZVOUS_GONE = 1,     /* the started process ended before a helper came */
	RENDEZVOUS_TIMEOUT = 2,  /* no helper within the time allowed */
	RENDEZVOUS_ERROR = -1,   /* poll() failed; errno says why */
};

/*
 * Accepts on the listener lfd the first connection whose peer has uid
 * `uid` and descends from `parent` (watched through parent_fd, its pidfd,
 * or -1), and refuses every other. *chan gets the connection.
 */
int rendezvous_accept(int lfd, pid_t parent, int parent_fd, uid_t uid, int *chan);

/*
 * Sends the helper its messages: session (ruas-session's payload, when not
 * NULL) as a message of session_type, then the payload with nfds
 * descriptors attached (a spawn's: the agent's stdin, stdout and stderr; a
 * check's: none). 0, or -1 with errno.
 */
int rendezvous_deliver(int chan, int session_type, const struct buf *session,
		       const struct buf *payload, const int *fds, size_t nfds);

#endif
