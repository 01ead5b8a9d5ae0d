/* handover.c - see handover.h. */
#include "spawn/handover.h"

#include <errno.h>
#include <poll.h>

#include "proc.h"

int handover(int chan, pid_t pid, int pidfd, struct channel_out *out)
{
	long long deadline = monotonic_ms() + HANDOVER_MS;
	for (;;) {
		int r = channel_out_flush(out, chan);
		if (r == 1)
			return HANDOVER_OK;
		if (r < 0)
			return HANDOVER_GONE; /* EPIPE, ECONNRESET: the helper, or sudo, has gone */
		long long left = deadline - monotonic_ms();
		if (left <= 0)
			return HANDOVER_TIMEOUT;
		struct pollfd pf[2] = {{chan, POLLOUT, 0}, {pidfd, POLLIN, 0}};
		/* Without a pidfd (Linux < 5.3, valgrind), look at the child every 50 ms. */
		int slice = pidfd >= 0 ? 1000 : 50;
		int n = poll(pf, pidfd >= 0 ? 2 : 1, left > slice ? slice : (int)left);
		if (n < 0 && errno != EINTR)
			return HANDOVER_ERROR;
		if (n > 0 && (pf[0].revents & (POLLERR | POLLHUP)) && !(pf[0].revents & POLLOUT))
			return HANDOVER_GONE;
		if (n > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
			return HANDOVER_GONE;
		if (pidfd < 0 && child_has_ended(pid) == 1)
			return HANDOVER_GONE;
	}
}
