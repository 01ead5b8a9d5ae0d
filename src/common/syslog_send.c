/* SPDX-License-Identifier: ISC */
/* syslog_send.c - see syslog_send.h. */
#include "syslog_send.h"
#include "buf.h"
#include "proc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Until deadline (monotonic ms): 1 when fd may be written, 0 when the time is up. */
static int writable_by(int fd, long long deadline)
{
	for (;;) {
		long long left = deadline - monotonic_ms();
		if (left <= 0)
			return 0;
		struct pollfd pf = {fd, POLLOUT, 0};
		int n = poll(&pf, 1, (int)left);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return 0;
	}
}

/*
 * One connection and one message, never blocking past deadline: a syslogd
 * that stops reading (a full datagram queue, a stream socket that never
 * accepts) costs SYSLOG_SEND_MS at most, then -1 with ETIMEDOUT, so that
 * neither the run nor the signals relayed meanwhile wait on it.
 */
static int send_on(int type, const struct sockaddr_un *sa, const char *data, size_t len,
		   long long deadline)
{
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	int r = -1;
	/* A unix stream socket's full backlog is EAGAIN, not "in progress": try again. */
	while (connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0) {
		if (errno != EAGAIN && errno != EINTR)
			goto out;
		if (monotonic_ms() >= deadline) {
			errno = ETIMEDOUT;
			goto out;
		}
		(void)poll(NULL, 0, 5);
	}
	/* A stream syslogd reads up to a NUL; a datagram is one message. */
	size_t want = len + (type == SOCK_STREAM), done = 0;
	while (done < want) {
		ssize_t n = send(fd, data + done, want - done, MSG_NOSIGNAL);
		if (n > 0 && type == SOCK_DGRAM && (size_t)n != want) {
			errno = EMSGSIZE;
			goto out;
		}
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			goto out;
		if (!writable_by(fd, deadline)) {
			errno = ETIMEDOUT;
			goto out;
		}
	}
	r = 0;
out:;
	int e = errno;
	close(fd);
	errno = e;
	return r;
}

int syslog_send(const char *path, int facility, int severity, const char *tag, const char *msg)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (!path)
		path = SYSLOG_SEND_PATH;
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);

	char stamp[64];
	time_t now = time(NULL);
	struct tm tm;
	/* RFC 3164's timestamp is local time, in the C locale's month names. */
	static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	if (!localtime_r(&now, &tm))
		memset(&tm, 0, sizeof tm);
	snprintf(stamp, sizeof stamp, "%s %2d %02d:%02d:%02d", months[tm.tm_mon % 12], tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec);

	struct buf b = BUF_INIT;
	buf_printf(&b, "<%d>%s %s[%d]: ", (facility & ~7) | (severity & 7), stamp, tag,
		   (int)getpid());
	buf_adds(&b, msg);
	if (b.data && b.len > SYSLOG_SEND_MAX) {
		b.len = SYSLOG_SEND_MAX;
		b.data[b.len] = '\0';
	}
	if (!b.data || b.oom) {
		buf_free(&b);
		errno = ENOMEM;
		return -1;
	}
	long long deadline = monotonic_ms() + SYSLOG_SEND_MS;
	int r = send_on(SOCK_DGRAM, &sa, b.data, b.len, deadline);
	if (r < 0 && errno == EPROTOTYPE)
		r = send_on(SOCK_STREAM, &sa, b.data, b.len, deadline);
	int e = errno;
	buf_free(&b);
	errno = e;
	return r;
}
