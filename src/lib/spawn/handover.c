/* SPDX-License-Identifier: ISC */
/* handover.c - see handover.h. */
#include "spawn/handover.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>

#include "payload.h"
#include "proc.h"

/* HELLO's bytes so far, never more: what follows it is the child's reader's. */
struct hello {
	char bytes[PAYLOAD_HELLO_FRAME];
	size_t got;
};

/* One non-blocking read toward HELLO: 1 when it is whole and right, 0 for more, or -1 with *code. */
static int read_hello(int chan, struct hello *h, unsigned int *version, int *code)
{
	ssize_t n = recv(chan, h->bytes + h->got, sizeof h->bytes - h->got, MSG_DONTWAIT);
	*code = HANDOVER_GONE; /* the helper refused the channel, or never ran: its stderr says */
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	h->got += (size_t)n;
	if (h->got < sizeof h->bytes)
		return 0;
	size_t off = 0, blen;
	int type;
	const char *body;
	*code = HANDOVER_BAD;
	if (channel_next(h->bytes, h->got, &off, &type, &body, &blen) != 1 || off != h->got ||
	    type != CHANNEL_HELLO || payload_hello_decode(body, blen, version) < 0)
		return -1;
	*code = HANDOVER_VERSION;
	return *version == PAYLOAD_VERSION ? 1 : -1;
}

int handover(int chan, pid_t pid, int pidfd, struct channel_out *first,
	     struct channel_out *then, unsigned int *version)
{
	long long deadline = monotonic_ms() + HANDOVER_MS;
	struct hello h = {.got = 0};
	int greeted = 0;
	*version = 0;
	for (;;) {
		short want = POLLOUT;
		if (!greeted) {
			if (channel_out_flush(first, chan) < 0)
				return HANDOVER_GONE; /* EPIPE, ECONNRESET: the helper, or sudo, has gone */
			int code, r = read_hello(chan, &h, version, &code);
			if (r < 0)
				return code;
			greeted = r == 1;
			want = (short)(first->sent < first->bytes.len ? POLLIN | POLLOUT : POLLIN);
		}
		if (greeted) {
			int r = channel_out_flush(then, chan);
			if (r == 1)
				return HANDOVER_OK;
			if (r < 0)
				return HANDOVER_GONE;
		}
		long long left = deadline - monotonic_ms();
		if (left <= 0)
			return HANDOVER_TIMEOUT;
		short events = want;
		if (greeted)
			events = POLLOUT;
		struct pollfd pf[2] = {{chan, events, 0}, {pidfd, POLLIN, 0}};
		/* Without a pidfd (Linux < 5.3, valgrind), look at the child every 50 ms. */
		int slice = pidfd >= 0 ? 1000 : 50;
		int n = poll(pf, pidfd >= 0 ? 2 : 1, left > slice ? slice : (int)left);
		if (n < 0 && errno != EINTR)
			return HANDOVER_ERROR;
		/* Before HELLO, end of file is read (and told) as such; after it, a hang-up is the end. */
		if (greeted && n > 0 && (pf[0].revents & (POLLERR | POLLHUP)) &&
		    !(pf[0].revents & POLLOUT))
			return HANDOVER_GONE;
		if (n > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
			return HANDOVER_GONE;
		if (pidfd < 0 && child_has_ended(pid) == 1)
			return HANDOVER_GONE;
	}
}
