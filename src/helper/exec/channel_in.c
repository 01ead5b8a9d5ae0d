/* SPDX-License-Identifier: ISC */
/* channel_in.c - see channel_in.h. */
#include "channel_in.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"
#include "proc.h"

static int refuse(const char *what, const char *why)
{
	fprintf(stderr, "ruas-exec: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	return -1;
}

/*
 * Is the socket's peer the supervisor? sudo puts the invoking user's uid
 * in SUDO_UID; ruas-session and a root supervisor are root, which may do
 * anything a channel could. The peer of a socketpair is its maker, so
 * this is the process that started sudo (or ruas-session), whoever holds
 * the other end now.
 */
static int peer_is_supervisor(int fd)
{
	const char *s = getenv("SUDO_UID");
	pid_t pid;
	uid_t uid;
	gid_t gid;
	if (channel_peer(fd, &pid, &uid, &gid) < 0)
		return refuse("cannot identify the supervisor", strerror(errno));
	if (uid == 0)
		return 0;
	char *end;
	errno = 0;
	unsigned long want = s && *s ? strtoul(s, &end, 10) : 0;
	if (!s || !*s || errno || *end || (unsigned long)(uid_t)want != want)
		return refuse("refusing the channel", "its peer is not root, and SUDO_UID is not set "
						      "(not started by sudo?)");
	if (uid != (uid_t)want)
		return refuse("refusing the channel", "its peer is not the user who ran sudo");
	return 0;
}

/* A descriptor that is a connected unix stream socket: 0, or -1 after naming what it is. */
static int is_channel(const char *opt, long fd)
{
	struct stat st;
	int type = 0, domain = 0;
	socklen_t len = sizeof type, dlen = sizeof domain;
	if (fstat((int)fd, &st) < 0) {
		fprintf(stderr, "ruas-exec: %s %ld is not open\n", opt, fd);
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		fprintf(stderr,
			"ruas-exec: %s %ld is a %s, not the supervisor's channel (a socket)%s\n", opt,
			fd, S_ISFIFO(st.st_mode) ? "pipe" : S_ISCHR(st.st_mode) ? "device" : "file",
			fd == 0 && S_ISFIFO(st.st_mode)
				? ": sudo's I/O logging (log_input, log_output) puts a pipe there; "
				  "exempt the helper, e.g. Defaults!/usr/libexec/ruas/ruas-exec "
				  "!log_input, !log_output"
				: "");
		return -1;
	}
	if (getsockopt((int)fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 ||
	    getsockopt((int)fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) < 0 || type != SOCK_STREAM ||
	    domain != AF_UNIX) {
		fprintf(stderr, "ruas-exec: %s %ld is not a unix stream socket\n", opt, fd);
		return -1;
	}
	return 0;
}

/* The descriptor named by arg (for opt), moved above 2 and close-on-exec: 0, or -1. */
static int take_fd(const char *opt, const char *arg, int min, int *out)
{
	char *end;
	errno = 0;
	long fd = strtol(arg, &end, 10);
	if (errno || end == arg || *end || fd < min || fd > 1024) {
		fprintf(stderr, "ruas-exec: %s does not name a descriptor: %s\n", opt, arg);
		return -1;
	}
	if (is_channel(opt, fd) < 0)
		return -1;
	/* Nothing the helper starts may inherit it; off the stdio numbers, which the agent's take. */
	int high = fcntl((int)fd, F_DUPFD_CLOEXEC, 10);
	if (high < 0) {
		say_dup_high_failed("ruas-exec: cannot keep the channel private", errno);
		return -1;
	}
	close((int)fd);
	if (fd == 0) {
		int null = open("/dev/null", O_RDONLY); /* lands on 0, the lowest free */
		if (null != 0) {
			if (null >= 0)
				close(null);
			close(high);
			return refuse("cannot open /dev/null as stdin", strerror(errno));
		}
	}
	/* Blocking: sudo may have handed the library's description as it was made. */
	int fl = fcntl(high, F_GETFL);
	if (fl >= 0 && (fl & O_NONBLOCK))
		fcntl(high, F_SETFL, fl & ~O_NONBLOCK);
	*out = high;
	return 0;
}

int channel_in_open(int argc, char **argv, int *chan, int *init_fd)
{
	*chan = *init_fd = -1;
	int with_init = argc == 5 && strcmp(argv[3], "--init-fd") == 0;
	if ((argc != 3 && !with_init) || strcmp(argv[1], "--channel-fd") != 0)
		return 0;
	if (with_init && strcmp(argv[2], argv[4]) == 0)
		return refuse("--channel-fd and --init-fd name one descriptor", NULL);
	/* The init's first: the channel's move may take its number otherwise. */
	if (with_init && take_fd("--init-fd", argv[4], 3, init_fd) < 0)
		return -1;
	if (take_fd("--channel-fd", argv[2], 0, chan) < 0 || peer_is_supervisor(*chan) < 0) {
		if (*init_fd >= 0)
			close(*init_fd);
		if (*chan >= 0)
			close(*chan);
		*chan = *init_fd = -1;
		return -1;
	}
	return 1;
}

int channel_in_hello(int chan)
{
	struct buf body = BUF_INIT;
	int r = payload_hello_encode(&body) == 0 ? channel_send_buf(chan, CHANNEL_HELLO, &body) : -1;
	buf_free(&body);
	return r == 0 ? 0 : refuse("cannot greet the supervisor", strerror(errno));
}

/* fds[i] onto i, each exactly once, whatever their numbers. */
static int take_stdio(int fds[3])
{
	int high[3];
	for (int i = 0; i < 3; i++)
		if ((high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			return -1;
	for (int i = 0; i < 3; i++) {
		close(fds[i]);
		if (dup2(high[i], i) < 0)
			return -1;
		close(high[i]);
	}
	return 0;
}

int channel_in_payload(int chan, struct payload *p, int *gate)
{
	struct buf body = BUF_INIT;
	int fds[4] = {-1, -1, -1, -1}, type = 0;
	size_t nfds = 4;
	const char *why = NULL;
	*gate = -1;
	int r = channel_recv(chan, &type, &body, fds, &nfds);
	if (r <= 0 || type != CHANNEL_PAYLOAD || (nfds != 4 && nfds != 3 && nfds != 0)) {
		for (size_t i = 0; i < nfds; i++)
			close(fds[i]);
		buf_free(&body);
		return refuse("no payload from the supervisor",
			      r < 0 ? strerror(errno) : r == 0 ? "it closed the channel" : "bad message");
	}
	r = payload_decode(body.data, body.len, p, &why);
	buf_free(&body);
	/*
	 * A spawn's payload comes with the agent's stdio, and the credential
	 * gate's descriptor when it names a gate; a check's with none.
	 */
	size_t want = p->kind != PAYLOAD_EXEC ? 0 : p->credentials && *p->credentials ? 4 : 3;
	if (r == 0 && nfds != want) {
		payload_free(p);
		why = "the agent's stdin, stdout and stderr (and the credential gate's descriptor "
		      "when the payload names one) come with an exec payload only";
		r = -1;
	}
	if (r < 0) {
		for (size_t i = 0; i < nfds; i++)
			close(fds[i]);
		return refuse("bad payload", why ? why : "out of memory");
	}
	if (nfds >= 3 && take_stdio(fds) < 0) {
		payload_free(p);
		if (nfds == 4)
			close(fds[3]);
		return refuse("cannot take the agent's stdio", strerror(errno));
	}
	if (nfds == 4)
		*gate = fds[3];
	return 0;
}

int channel_in_exit(int chan, const struct msg_exit *e)
{
	struct buf body = BUF_INIT;
	int r = chan >= 0 && msg_exit_encode(&body, e) == 0 &&
			channel_send_buf(chan, CHANNEL_EXIT, &body) == 0
		? 0
		: -1;
	buf_free(&body);
	return r;
}
