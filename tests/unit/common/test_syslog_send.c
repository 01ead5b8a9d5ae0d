/* SPDX-License-Identifier: ISC */
/*
 * test_syslog_send.c - src/common/syslog_send.c against sockets of the
 * test's own: the RFC 3164 framing on a datagram socket, the stream
 * fallback with its NUL, a message too long for one datagram, which must
 * still arrive (cut) rather than vanish, and a receiver that never reads,
 * which must not hold the sender.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "syslog_send.h"

static char dir[64], sock[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/ruas-syslog-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(sock, sizeof sock, "%s/log", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	(void)unlink(sock);
	return rmdir(dir);
}

static int listener(int type)
{
	(void)unlink(sock);
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	assert_true(strlen(sock) < sizeof sa.sun_path);
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	if (type == SOCK_STREAM)
		assert_int_equal(listen(fd, 4), 0);
	int big = 4 << 20;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
	return fd;
}

static void assert_framed(const char *got, const char *msg)
{
	char want[256];
	snprintf(want, sizeof want,
		 "^<86>(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 123][0-9] "
		 "[0-2][0-9]:[0-5][0-9]:[0-6][0-9] ruas\\[%d\\]: %s$",
		 (int)getpid(), msg);
	regex_t re;
	assert_int_equal(regcomp(&re, want, REG_EXTENDED | REG_NOSUB), 0);
	int m = regexec(&re, got, 0, NULL, 0);
	regfree(&re);
	if (m != 0)
		fail_msg("not framed as RFC 3164: \"%s\"", got);
}

static void test_datagram(void **state)
{
	(void)state;
	int fd = listener(SOCK_DGRAM);
	assert_int_equal(syslog_send(sock, LOG_AUTHPRIV, LOG_INFO, "ruas", "end run=x exit=0"), 0);
	char got[512];
	ssize_t n = recv(fd, got, sizeof got - 1, 0);
	assert_true(n > 0);
	got[n] = '\0';
	assert_framed(got, "end run=x exit=0");
	close(fd);
}

/* A stream /dev/log (some syslogds): the message, then a NUL, as glibc sends it. */
static void test_stream_fallback(void **state)
{
	(void)state;
	int fd = listener(SOCK_STREAM);
	assert_int_equal(syslog_send(sock, LOG_AUTHPRIV, LOG_INFO, "ruas", "check result=ok"), 0);
	struct sockaddr_un peer;
	socklen_t peerlen = sizeof peer;
	int c = accept4(fd, (struct sockaddr *)&peer, &peerlen, SOCK_CLOEXEC);
	assert_true(c >= 0);
	char got[512];
	size_t len = 0;
	ssize_t n;
	while ((n = read(c, got + len, sizeof got - 1 - len)) > 0)
		len += (size_t)n;
	assert_true(len > 0);
	assert_int_equal(got[len - 1], '\0');
	assert_framed(got, "check result=ok");
	close(c);
	close(fd);
}

/*
 * A start record longer than the socket's send buffer (audit_argv = full
 * and a large prompt; or many arguments of non-ASCII bytes, each byte of
 * which becomes four, \xHH) must not be dropped without a trace: the
 * receiver gets a record, cut to what one datagram holds.
 */
static void test_too_long_for_a_datagram(void **state)
{
	(void)state;
	int fd = listener(SOCK_DGRAM);
	size_t len = 400000;
	char *msg = malloc(len + 1);
	assert_non_null(msg);
	memcpy(msg, "start run=x argv=[", 18);
	memset(msg + 18, 'A', len - 18);
	msg[len] = '\0';
	int r = syslog_send(sock, LOG_AUTHPRIV, LOG_INFO, "ruas", msg);
	int e = errno;
	free(msg);
	if (r != 0)
		fail_msg("a %zu-byte record was not sent at all: %s", len, strerror(e));
	char *got = malloc(len + 256);
	assert_non_null(got);
	ssize_t n = recv(fd, got, len + 255, MSG_DONTWAIT);
	assert_true(n > 0);
	got[n] = '\0';
	assert_non_null(strstr(got, " ruas["));
	free(got);
	close(fd);
}

/* A client socket of type, connected to sock without waiting; -1 when it would wait. */
static int client(int type)
{
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	assert_true(fd >= 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		assert_true(errno == EAGAIN);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A syslogd that stops reading: its datagram queue full, or its stream
 * socket's backlog full because it never accepts. The send gives up
 * (ETIMEDOUT) instead of blocking; SIGALRM fails the test if it ever hung.
 */
static void test_receiver_that_never_reads(void **state)
{
	(void)state;
	alarm(60);
	int fd = listener(SOCK_DGRAM);
	int small = 1;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
	int c = client(SOCK_DGRAM);
	assert_true(c >= 0);
	char junk[256] = {0};
	while (send(c, junk, sizeof junk, MSG_DONTWAIT) > 0)
		;
	assert_true(errno == EAGAIN);
	errno = 0;
	assert_int_equal(syslog_send(sock, LOG_AUTHPRIV, LOG_INFO, "ruas", "end run=x"), -1);
	assert_int_equal(errno, ETIMEDOUT);
	close(c);
	close(fd);

	/* A stream socket that never accepts: its backlog filled first. */
	(void)unlink(sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(listen(fd, 0), 0);
	int held[64], nheld = 0;
	while (nheld < 64 && (held[nheld] = client(SOCK_STREAM)) >= 0)
		nheld++;
	assert_true(nheld < 64);
	errno = 0;
	assert_int_equal(syslog_send(sock, LOG_AUTHPRIV, LOG_INFO, "ruas", "end run=x"), -1);
	assert_int_equal(errno, ETIMEDOUT);
	for (int i = 0; i < nheld; i++)
		close(held[i]);
	close(fd);
	alarm(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_receiver_that_never_reads),
		cmocka_unit_test(test_datagram),
		cmocka_unit_test(test_stream_fallback),
		cmocka_unit_test(test_too_long_for_a_datagram),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
