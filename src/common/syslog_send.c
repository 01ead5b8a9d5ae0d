/* syslog_send.c - see syslog_send.h. */
#include "syslog_send.h"
#include "buf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int send_on(int type, const struct sockaddr_un *sa, const char *data, size_t len)
{
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int r = -1;
	if (connect(fd, (const struct sockaddr *)sa, sizeof *sa) == 0) {
		/* A stream syslogd reads up to a NUL; a datagram is one message. */
		ssize_t n = send(fd, data, len + (type == SOCK_STREAM), MSG_NOSIGNAL);
		r = n == (ssize_t)(len + (type == SOCK_STREAM)) ? 0 : -1;
		if (n >= 0 && r < 0)
			errno = EMSGSIZE;
	}
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
	int r = send_on(SOCK_DGRAM, &sa, b.data, b.len);
	if (r < 0 && errno == EPROTOTYPE)
		r = send_on(SOCK_STREAM, &sa, b.data, b.len);
	int e = errno;
	buf_free(&b);
	errno = e;
	return r;
}
