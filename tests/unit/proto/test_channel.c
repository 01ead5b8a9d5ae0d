/* SPDX-License-Identifier: ISC */
/*
 * test_channel.c - the spawn channel's framing (src/proto/channel.h) over
 * real socketpairs: messages and their descriptors both ways, blocking
 * (channel_send, channel_recv) and not (channel_out, flushed across
 * EAGAIN with the descriptors going with exactly the first byte of their
 * message; channel_read_some, which keeps at most what it may and closes
 * every descriptor that comes); and channel_next, which splits what was
 * read into whole messages and refuses anything else.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"

/* How many descriptors this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	int n = 0;
	const struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own */
}

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
}

/* A pipe whose write end is all another process (here: the test) holds of it but w. */
static void pipe_pair(int p[2])
{
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
}

/* Whether every copy of a pipe's write end is closed: its read end is at end of file. */
static int write_end_gone(int r)
{
	int fl = fcntl(r, F_GETFL);
	fcntl(r, F_SETFL, fl | O_NONBLOCK);
	char c;
	ssize_t n = read(r, &c, 1);
	fcntl(r, F_SETFL, fl);
	return n == 0;
}

/* One header as channel.h frames it. */
static void head(unsigned char h[5], uint32_t len, int type)
{
	h[0] = (unsigned char)(len >> 24);
	h[1] = (unsigned char)(len >> 16);
	h[2] = (unsigned char)(len >> 8);
	h[3] = (unsigned char)len;
	h[4] = (unsigned char)type;
}

/* ------------------------------------------------------------ blocking */

/* A message and its three descriptors, as a spawn's PAYLOAD goes: the same files, close-on-exec. */
static void test_send_recv_with_descriptors(void **state)
{
	(void)state;
	int sv[2], p[3][2];
	pair(sv);
	int fds[3];
	for (int i = 0; i < 3; i++) {
		pipe_pair(p[i]);
		fds[i] = p[i][1];
	}
	static const char body[] = "RUAS\x0a\x01 the body, with a NUL\0inside";
	assert_int_equal(channel_send(sv[0], CHANNEL_PAYLOAD, body, sizeof body, fds, 3), 0);
	struct buf got = BUF_INIT;
	int type = 0, in[CHANNEL_MAX_FDS] = {-1, -1, -1, -1, -1};
	size_t nfds = CHANNEL_MAX_FDS;
	assert_int_equal(channel_recv(sv[1], &type, &got, in, &nfds), 1);
	assert_int_equal(type, CHANNEL_PAYLOAD);
	assert_int_equal(got.len, sizeof body);
	assert_memory_equal(got.data, body, sizeof body);
	assert_int_equal(nfds, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(fcntl(in[i], F_GETFD) & FD_CLOEXEC);
		/* The same pipe: what goes in through the received copy comes out of ours. */
		char c = (char)('a' + i), back = 0;
		assert_int_equal(write(in[i], &c, 1), 1);
		assert_int_equal(read(p[i][0], &back, 1), 1);
		assert_int_equal(back, c);
		close(in[i]);
		close(p[i][1]);
		assert_true(write_end_gone(p[i][0]));
		close(p[i][0]);
	}
	buf_free(&got);

	/* The other way, and a message with no body: its body is empty, no descriptor came. */
	assert_int_equal(channel_send(sv[1], CHANNEL_TERMINATE, NULL, 0, NULL, 0), 0);
	got = (struct buf)BUF_INIT;
	nfds = 3;
	assert_int_equal(channel_recv(sv[0], &type, &got, in, &nfds), 1);
	assert_int_equal(type, CHANNEL_TERMINATE);
	assert_int_equal(got.len, 0);
	assert_int_equal(nfds, 0);
	/* Without room for descriptors, and none sent: fine. */
	assert_int_equal(channel_send(sv[1], CHANNEL_EXIT, "0123456789", 10, NULL, 0), 0);
	assert_int_equal(channel_recv(sv[0], &type, &got, NULL, NULL), 1);
	assert_int_equal(type, CHANNEL_EXIT);
	assert_int_equal(got.len, 10); /* appended to what the body held */
	buf_free(&got);

	/* The peer's credentials: here, this process. */
	pid_t pid;
	uid_t uid;
	gid_t gid;
	assert_int_equal(channel_peer(sv[0], &pid, &uid, &gid), 0);
	assert_int_equal(pid, getpid());
	assert_int_equal(uid, geteuid());
	assert_int_equal(gid, getegid());

	/* End of file before any byte: 0. */
	close(sv[0]);
	assert_int_equal(channel_recv(sv[1], &type, &got, NULL, NULL), 0);
	close(sv[1]);
	buf_free(&got);
}

/* More descriptors than asked for (or any, when none is asked): refused, all of them closed. */
static void test_recv_too_many_descriptors(void **state)
{
	(void)state;
	int before = open_fds();
	for (int room = 0; room < 3; room++) {
		int sv[2], p[2];
		pair(sv);
		pipe_pair(p);
		int fds[3] = {p[1], p[1], p[1]};
		assert_int_equal(channel_send(sv[0], CHANNEL_PAYLOAD, "x", 1, fds, 3), 0);
		close(p[1]);
		struct buf got = BUF_INIT;
		int type, in[3] = {-1, -1, -1};
		size_t nfds = (size_t)room;
		errno = 0;
		assert_int_equal(channel_recv(sv[1], &type, &got, room ? in : NULL,
					      room ? &nfds : NULL),
				 -1);
		assert_int_equal(errno, EPROTO);
		assert_int_equal(nfds, room ? 0 : (size_t)room);
		/* Every copy that came was closed: the pipe's write end is gone. */
		assert_true(write_end_gone(p[0]));
		close(p[0]);
		close(sv[0]);
		close(sv[1]);
		buf_free(&got);
	}
	assert_int_equal(open_fds(), before);

	/* Sending more than CHANNEL_MAX_FDS, or a body over CHANNEL_MAX_BODY: refused, nothing sent. */
	int sv[2];
	pair(sv);
	int six[CHANNEL_MAX_FDS + 1] = {0, 0, 0, 0, 0, 0};
	errno = 0;
	assert_int_equal(channel_send(sv[0], CHANNEL_PAYLOAD, "x", 1, six, CHANNEL_MAX_FDS + 1), -1);
	assert_int_equal(errno, EMSGSIZE);
	errno = 0;
	assert_int_equal(channel_send(sv[0], CHANNEL_PAYLOAD, "x", CHANNEL_MAX_BODY + 1, NULL, 0),
			 -1);
	assert_int_equal(errno, EMSGSIZE);
	/* A buf that ran out of memory is not sent. */
	struct buf oom = BUF_INIT;
	buf_adds(&oom, "half");
	oom.oom = 1;
	errno = 0;
	assert_int_equal(channel_send_buf(sv[0], CHANNEL_REPORT, &oom), -1);
	assert_int_equal(errno, ENOMEM);
	errno = 0;
	assert_int_equal(channel_send_control(sv[0], CHANNEL_SIGNAL, &oom), -1);
	assert_int_equal(errno, EMSGSIZE);
	oom.oom = 0;
	buf_free(&oom);
	shutdown(sv[0], SHUT_WR);
	struct buf got = BUF_INIT;
	int type;
	assert_int_equal(channel_recv(sv[1], &type, &got, NULL, NULL), 0);
	buf_free(&got);
	close(sv[0]);
	close(sv[1]);
}

/* A message cut short by the peer's end, or over the limit: -1 EPROTO, never a message. */
static void test_recv_short_and_oversize(void **state)
{
	(void)state;
	unsigned char h[5];
	head(h, 10, CHANNEL_REPORT);
	struct {
		size_t head_bytes, body_bytes;
	} cuts[] = {{1, 0}, {4, 0}, {5, 0}, {5, 9}};
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		int sv[2];
		pair(sv);
		assert_int_equal(write(sv[0], h, cuts[i].head_bytes), (ssize_t)cuts[i].head_bytes);
		if (cuts[i].body_bytes)
			assert_int_equal(write(sv[0], "012345678", cuts[i].body_bytes),
					 (ssize_t)cuts[i].body_bytes);
		close(sv[0]);
		struct buf got = BUF_INIT;
		int type;
		errno = 0;
		assert_int_equal(channel_recv(sv[1], &type, &got, NULL, NULL), -1);
		assert_int_equal(errno, EPROTO);
		close(sv[1]);
		buf_free(&got);
	}
	/* A header claiming more than CHANNEL_MAX_BODY, with the descriptors it carried closed. */
	int sv[2], p[2];
	pair(sv);
	pipe_pair(p);
	head(h, CHANNEL_MAX_BODY + 1, CHANNEL_REPORT);
	struct iovec iov = {h, 5};
	union {
		struct cmsghdr c;
		char b[CMSG_SPACE(sizeof(int))];
	} cm;
	memset(&cm, 0, sizeof cm);
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.b,
			   .msg_controllen = sizeof cm.b};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &p[1], sizeof(int));
	assert_int_equal(sendmsg(sv[0], &m, 0), 5);
	close(p[1]);
	struct buf got = BUF_INIT;
	int type, in[1] = {-1};
	size_t nfds = 1;
	errno = 0;
	assert_int_equal(channel_recv(sv[1], &type, &got, in, &nfds), -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(nfds, 0);
	assert_true(write_end_gone(p[0]));
	assert_int_equal(got.len, 0);
	close(p[0]);
	close(sv[0]);
	close(sv[1]);
	buf_free(&got);
}

/* A control message never blocks: a peer that stopped reading gets EAGAIN, nothing half-sent. */
static void test_send_control(void **state)
{
	(void)state;
	int sv[2];
	pair(sv);
	int small = 4096;
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
	struct buf body = BUF_INIT;
	buf_add(&body, "\0\0\0\x0f", 4);
	size_t sent = 0;
	int r;
	while ((r = channel_send_control(sv[0], CHANNEL_SIGNAL, &body)) == 0)
		sent++;
	assert_int_equal(errno, EAGAIN);
	assert_true(sent > 0);
	/* Everything that went is whole messages, each one SIGNAL 15. */
	int fl = fcntl(sv[1], F_GETFL);
	fcntl(sv[1], F_SETFL, fl | O_NONBLOCK);
	struct buf in = BUF_INIT;
	int dropped = 0;
	while (channel_read_some(sv[1], &in, (size_t)1 << 24, &dropped) == 1)
		;
	assert_int_equal(in.len, sent * 9);
	size_t off = 0, blen, n = 0;
	int type;
	const char *b;
	while (channel_next(in.data, in.len, &off, &type, &b, &blen) == 1) {
		assert_int_equal(type, CHANNEL_SIGNAL);
		assert_int_equal(blen, 4);
		assert_memory_equal(b, body.data, 4);
		n++;
	}
	assert_int_equal(n, sent);
	/* No body at all; a body of CHANNEL_CONTROL_MAX bytes whole; one byte more refused. */
	assert_int_equal(channel_send_control(sv[0], CHANNEL_TERMINATE, NULL), 0);
	struct buf big = BUF_INIT;
	for (size_t i = 0; i < CHANNEL_CONTROL_MAX; i++)
		buf_addc(&big, (char)('a' + i % 26));
	assert_int_equal(channel_send_control(sv[0], CHANNEL_STARTED, &big), 0);
	struct buf got = BUF_INIT;
	int t = 0;
	assert_int_equal(channel_recv(sv[1], &t, &got, NULL, NULL), 1);
	assert_int_equal(t, CHANNEL_TERMINATE);
	assert_int_equal(channel_recv(sv[1], &t, &got, NULL, NULL), 1);
	assert_int_equal(t, CHANNEL_STARTED);
	assert_int_equal(got.len, CHANNEL_CONTROL_MAX);
	assert_memory_equal(got.data, big.data, CHANNEL_CONTROL_MAX);
	buf_free(&got);
	buf_addc(&big, 'x');
	errno = 0;
	assert_int_equal(channel_send_control(sv[0], CHANNEL_SIGNAL, &big), -1);
	assert_int_equal(errno, EMSGSIZE);
	/* A peer that has gone: EPIPE, no SIGPIPE. */
	close(sv[1]);
	errno = 0;
	assert_int_equal(channel_send_control(sv[0], CHANNEL_SIGNAL, &body), -1);
	assert_true(errno == EPIPE || errno == ECONNRESET);
	close(sv[0]);
	buf_free(&body);
	buf_free(&big);
	buf_free(&in);
}

/* ------------------------------------------------------------ queued */

/*
 * Three messages queued, the second with three descriptors, through a
 * small send buffer: the flush stops at EAGAIN and goes on as the reader
 * takes, every byte arrives once and in order, and the descriptors arrive
 * with the first byte of their message, not one byte before or after.
 */
static void test_out_flush_across_eagain(void **state)
{
	(void)state;
	int sv[2], p[3][2];
	pair(sv);
	int small = 4096;
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small), 0);
	int fds[3];
	for (int i = 0; i < 3; i++) {
		pipe_pair(p[i]);
		fds[i] = p[i][1];
	}
	const size_t l1 = 40000, l2 = 70000;
	char *b1 = malloc(l1), *b2 = malloc(l2);
	assert_non_null(b1);
	assert_non_null(b2);
	for (size_t i = 0; i < l1; i++)
		b1[i] = (char)(i * 7);
	for (size_t i = 0; i < l2; i++)
		b2[i] = (char)(i * 13 + 1);
	struct channel_out out;
	channel_out_init(&out);
	assert_int_equal(out.fds_at, (size_t)-1);
	assert_int_equal(channel_out_add(&out, CHANNEL_REPORT, b1, l1, NULL, 0), 0);
	assert_int_equal(channel_out_add(&out, CHANNEL_PAYLOAD, b2, l2, fds, 3), 0);
	assert_int_equal(channel_out_add(&out, CHANNEL_SIGNAL, "\0\0\0\x09", 4, NULL, 0), 0);
	/* A second message with descriptors, or too many, or too long: refused, the queue unchanged. */
	size_t queued = out.bytes.len;
	errno = 0;
	assert_int_equal(channel_out_add(&out, CHANNEL_PAYLOAD, "x", 1, fds, 1), -1);
	assert_int_equal(errno, EMSGSIZE);
	assert_int_equal(channel_out_add(&out, CHANNEL_PAYLOAD, "x", 1, fds, CHANNEL_MAX_FDS + 1),
			 -1);
	assert_int_equal(channel_out_add(&out, CHANNEL_PAYLOAD, "x", CHANNEL_MAX_BODY + 1, NULL, 0),
			 -1);
	assert_int_equal(out.bytes.len, queued);
	const size_t total = 5 + l1 + 5 + l2 + 5 + 4, at = 5 + l1;
	assert_int_equal(queued, total);
	assert_int_equal(out.fds_at, at);

	/* The reader takes one byte a time, so that it sees which byte the descriptors come with. */
	char *got = malloc(total);
	assert_non_null(got);
	size_t have = 0, fds_byte = (size_t)-1;
	int in[3] = {-1, -1, -1}, waits = 0, r;
	while ((r = channel_out_flush(&out, sv[0])) != 1) {
		assert_int_equal(r, 0);
		waits++;
		for (int k = 0; k < 8192 && have < total; k++) {
			union {
				struct cmsghdr c;
				char b[CMSG_SPACE(8 * sizeof(int))];
			} cm;
			struct iovec iov = {got + have, 1};
			struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.b,
					   .msg_controllen = sizeof cm.b};
			ssize_t n = recvmsg(sv[1], &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
			if (n < 0 && errno == EAGAIN)
				break;
			assert_int_equal(n, 1);
			struct cmsghdr *c = CMSG_FIRSTHDR(&m);
			if (c) {
				assert_int_equal(c->cmsg_type, SCM_RIGHTS);
				assert_int_equal(c->cmsg_len, CMSG_LEN(3 * sizeof(int)));
				assert_int_equal(fds_byte, (size_t)-1);
				fds_byte = have;
				memcpy(in, CMSG_DATA(c), sizeof in);
			}
			have++;
		}
	}
	assert_true(waits > 0); /* the send buffer did fill: EAGAIN was met */
	/* The rest, once all is queued in the socket. */
	while (have < total) {
		union {
			struct cmsghdr c;
			char b[CMSG_SPACE(8 * sizeof(int))];
		} cm;
		struct iovec iov = {got + have, 1};
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.b,
				   .msg_controllen = sizeof cm.b};
		ssize_t n = recvmsg(sv[1], &m, MSG_CMSG_CLOEXEC);
		assert_int_equal(n, 1);
		if (CMSG_FIRSTHDR(&m)) {
			assert_int_equal(fds_byte, (size_t)-1);
			fds_byte = have;
			memcpy(in, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof in);
		}
		have++;
	}
	assert_int_equal(fds_byte, at);
	assert_memory_equal(got, out.bytes.data, total);
	/* Once sent, a flush has nothing more to do. */
	assert_int_equal(channel_out_flush(&out, sv[0]), 1);
	/* Split back: the three messages, whole. */
	size_t off = 0, blen;
	int type;
	const char *body;
	assert_int_equal(channel_next(got, total, &off, &type, &body, &blen), 1);
	assert_int_equal(type, CHANNEL_REPORT);
	assert_int_equal(blen, l1);
	assert_memory_equal(body, b1, l1);
	assert_int_equal(channel_next(got, total, &off, &type, &body, &blen), 1);
	assert_int_equal(type, CHANNEL_PAYLOAD);
	assert_int_equal(blen, l2);
	assert_memory_equal(body, b2, l2);
	assert_int_equal(channel_next(got, total, &off, &type, &body, &blen), 1);
	assert_int_equal(type, CHANNEL_SIGNAL);
	assert_int_equal(channel_next(got, total, &off, &type, &body, &blen), 0);
	/* The descriptors that came are the queue's. */
	for (int i = 0; i < 3; i++) {
		char c = 'z', back = 0;
		assert_int_equal(write(in[i], &c, 1), 1);
		assert_int_equal(read(p[i][0], &back, 1), 1);
		assert_int_equal(back, 'z');
		close(in[i]);
		close(p[i][0]);
		close(p[i][1]);
	}
	channel_out_free(&out);
	assert_int_equal(out.bytes.len, 0);
	assert_int_equal(out.sent, 0);
	assert_int_equal(out.nfds, 0);
	assert_int_equal(out.fds_at, (size_t)-1);

	/* A peer that has gone: the flush says so (-1), it does not wait. */
	channel_out_init(&out);
	assert_int_equal(channel_out_add(&out, CHANNEL_PAYLOAD, b2, l2, NULL, 0), 0);
	close(sv[1]);
	errno = 0;
	assert_int_equal(channel_out_flush(&out, sv[0]), -1);
	assert_true(errno == EPIPE || errno == ECONNRESET);
	channel_out_free(&out);
	close(sv[0]);
	free(got);
	free(b1);
	free(b2);
}

/* ------------------------------------------------------------ reading */

/*
 * channel_read_some(): what is there, up to max kept (the rest read and
 * dropped, so that a peer cannot stall its reader, and said so), every
 * descriptor that comes closed; 0 at end of file, EAGAIN when nothing yet.
 */
static void test_read_some(void **state)
{
	(void)state;
	int sv[2];
	pair(sv);
	struct buf in = BUF_INIT;
	int dropped = 0;
	errno = 0;
	assert_int_equal(channel_read_some(sv[1], &in, 100, &dropped), -1);
	assert_int_equal(errno, EAGAIN);

	assert_int_equal(write(sv[0], "0123456789", 10), 10);
	assert_int_equal(channel_read_some(sv[1], &in, 100, &dropped), 1);
	assert_int_equal(in.len, 10);
	assert_int_equal(dropped, 0);
	/* 10 kept already, max 16: 6 more kept, the other 4 read and dropped. */
	assert_int_equal(write(sv[0], "abcdefghij", 10), 10);
	assert_int_equal(channel_read_some(sv[1], &in, 16, &dropped), 1);
	assert_int_equal(in.len, 16);
	assert_memory_equal(in.data, "0123456789abcdef", 16);
	assert_int_equal(dropped, 1);
	/* Full: everything is dropped, and nothing is left waiting. */
	assert_int_equal(write(sv[0], "klmn", 4), 4);
	assert_int_equal(channel_read_some(sv[1], &in, 16, NULL), 1);
	assert_int_equal(in.len, 16);
	errno = 0;
	assert_int_equal(channel_read_some(sv[1], &in, 16, &dropped), -1);
	assert_int_equal(errno, EAGAIN);

	/* Descriptors, a few or more than it has room for: all closed, no byte lost. */
	for (int n = 1; n <= 20; n += 19) {
		int p[2];
		pipe_pair(p);
		int before = open_fds();
		int many[20];
		for (int i = 0; i < 20; i++)
			many[i] = p[1];
		char data = 'D';
		struct iovec iov = {&data, 1};
		union {
			struct cmsghdr c;
			char b[CMSG_SPACE(20 * sizeof(int))];
		} cm;
		memset(&cm, 0, sizeof cm);
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.b,
				   .msg_controllen = CMSG_SPACE((size_t)n * sizeof(int))};
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
		memcpy(CMSG_DATA(c), many, (size_t)n * sizeof(int));
		assert_int_equal(sendmsg(sv[0], &m, 0), 1);
		close(p[1]);
		struct buf b = BUF_INIT;
		assert_int_equal(channel_read_some(sv[1], &b, 100, NULL), 1);
		assert_int_equal(b.len, 1);
		assert_int_equal(b.data[0], 'D');
		assert_int_equal(open_fds(), before - 1); /* ours closed, none of those that came open */
		assert_true(write_end_gone(p[0]));
		close(p[0]);
		buf_free(&b);
	}

	/* End of file. */
	close(sv[0]);
	assert_int_equal(channel_read_some(sv[1], &in, 100, &dropped), 0);
	close(sv[1]);
	buf_free(&in);
}

/* channel_next(): whole messages only; what is left that is not one is refused, off unmoved. */
static void test_next(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	unsigned char h[5];
	head(h, 3, CHANNEL_REPORT);
	buf_add(&b, h, 5);
	buf_add(&b, "abc", 3);
	head(h, 0, CHANNEL_TERMINATE);
	buf_add(&b, h, 5);
	size_t off = 0, blen = 99;
	int type = 0;
	const char *body = NULL;
	assert_int_equal(channel_next(b.data, b.len, &off, &type, &body, &blen), 1);
	assert_int_equal(type, CHANNEL_REPORT);
	assert_int_equal(blen, 3);
	assert_memory_equal(body, "abc", 3);
	assert_int_equal(off, 8);
	assert_int_equal(channel_next(b.data, b.len, &off, &type, &body, &blen), 1);
	assert_int_equal(type, CHANNEL_TERMINATE);
	assert_int_equal(blen, 0);
	assert_int_equal(off, 13);
	assert_int_equal(channel_next(b.data, b.len, &off, &type, &body, &blen), 0);
	assert_int_equal(channel_next(NULL, 0, &(size_t){0}, &type, &body, &blen), 0);

	/* Every cut inside either message: -1, nothing taken. */
	for (size_t len = 1; len < b.len; len++) {
		if (len == 8)
			continue; /* between the two: the first is whole */
		off = len < 8 ? 0 : 8;
		size_t was = off;
		assert_int_equal(channel_next(b.data, len, &off, &type, &body, &blen), -1);
		assert_int_equal(off, was);
	}
	buf_free(&b);

	/* A length over CHANNEL_MAX_BODY is refused even when that many bytes follow. */
	size_t big = CHANNEL_MAX_BODY + 1;
	char *huge = calloc(5 + big, 1);
	assert_non_null(huge);
	head((unsigned char *)huge, (uint32_t)big, CHANNEL_REPORT);
	off = 0;
	assert_int_equal(channel_next(huge, 5 + big, &off, &type, &body, &blen), -1);
	assert_int_equal(off, 0);
	/* CHANNEL_MAX_BODY itself is a message. */
	head((unsigned char *)huge, CHANNEL_MAX_BODY, CHANNEL_REPORT);
	assert_int_equal(channel_next(huge, 5 + CHANNEL_MAX_BODY, &off, &type, &body, &blen), 1);
	assert_int_equal(blen, CHANNEL_MAX_BODY);
	assert_int_equal(off, 5 + CHANNEL_MAX_BODY);
	/* A length of 0xffffffff. */
	memset(huge, 0xff, 4);
	off = 0;
	assert_int_equal(channel_next(huge, 5 + big, &off, &type, &body, &blen), -1);
	free(huge);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send_recv_with_descriptors),
		cmocka_unit_test(test_recv_too_many_descriptors),
		cmocka_unit_test(test_recv_short_and_oversize),
		cmocka_unit_test(test_send_control),
		cmocka_unit_test(test_out_flush_across_eagain),
		cmocka_unit_test(test_read_some),
		cmocka_unit_test(test_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
