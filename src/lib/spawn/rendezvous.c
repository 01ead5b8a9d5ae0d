/*
 * rendezvous.c - the library's end of the spawn channel (channel.h): wait
 * for the helper that the started sudo runs, know it is that helper, and
 * hand it the payload and the agent's stdio.
 */
#include "spawn/rendezvous.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel.h"
#include "proc.h"

/* How long the login shell may take before the helper connects. */
#define RENDEZVOUS_MS 60000
/* sudo -> (sudo's monitor) -> login shell -> ruas-exec, with room to spare. */
#define MAX_HOPS 8

/*
 * Whether the connected peer is the target's process below `parent`: its
 * uid (as the kernel recorded it at connect()), and a parent chain that
 * reaches the process we started. Any other local user may connect to an
 * abstract name; only this one gets the payload.
 */
static int peer_is_ours(int fd, pid_t parent, uid_t uid)
{
	pid_t pid;
	uid_t u;
	gid_t g;
	if (channel_peer(fd, &pid, &u, &g) < 0 || u != uid || pid <= 0)
		return 0;
	for (int hop = 0; hop < MAX_HOPS && pid > 1; hop++) {
		pid = process_parent(pid);
		if (pid == parent)
			return 1;
	}
	return 0;
}

int rendezvous_accept(int lfd, pid_t parent, int parent_fd, uid_t uid, int *chan)
{
	long long deadline = monotonic_ms() + RENDEZVOUS_MS;
	*chan = -1;
	for (;;) {
		long long left = deadline - monotonic_ms();
		if (left <= 0)
			return RENDEZVOUS_TIMEOUT;
		struct pollfd pf[2] = {{lfd, POLLIN, 0}, {parent_fd, POLLIN, 0}};
		/* Without a pidfd (Linux < 5.3, valgrind), look at the child every 50 ms. */
		int slice = parent_fd >= 0 ? 1000 : 50;
		int n = poll(pf, parent_fd >= 0 ? 2 : 1, left > slice ? slice : (int)left);
		if (n < 0 && errno != EINTR)
			return RENDEZVOUS_ERROR;
		if (n > 0 && (pf[0].revents & POLLIN)) {
			struct sockaddr_un sa;
			socklen_t salen = sizeof sa;
			int c = accept4(lfd, (struct sockaddr *)&sa, &salen, SOCK_CLOEXEC);
			if (c >= 0 && peer_is_ours(c, parent, uid)) {
				*chan = c;
				return RENDEZVOUS_OK;
			}
			if (c >= 0)
				close(c);
			continue;
		}
		/* sudo ended without a helper: its own failure, reported by its status. */
		if (n > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
			return RENDEZVOUS_GONE;
		if (parent_fd < 0 && child_has_ended(parent) == 1)
			return RENDEZVOUS_GONE;
	}
}

int rendezvous_deliver(int chan, int session_type, const struct buf *session,
		       const struct buf *payload, const int *fds, size_t nfds)
{
	if (session && channel_send(chan, session_type, session->data, session->len, NULL, 0) < 0)
		return -1;
	return channel_send(chan, CHANNEL_PAYLOAD, payload->data, payload->len, fds, nfds);
}
