/* SPDX-License-Identifier: ISC */
/*
 * fuzz_channel - the channel's framing (src/proto/channel.h) on arbitrary
 * bytes: channel_next() splits them into messages, and channel_recv()
 * reads the same bytes from a socket. Properties:
 *
 *   - channel_next() never crashes or reads out of bounds; each message it
 *     gives lies inside the input right after its 5-byte header, and it
 *     stops (-1) only where what is left is not a whole message;
 *   - the framing is canonical: channel_out_add() of every message it gave
 *     writes back exactly the bytes they were split from;
 *   - channel_recv() on a stream of the same bytes (then end of file)
 *     returns the same messages, then 0 where channel_next() ended, or -1
 *     with EPROTO where it stopped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#include "channel.h"
#include "fuzz_check.h"

#define HEAD 5

static size_t get32(const uint8_t *p)
{
	return (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
}

/* The input's messages, re-framed: the very bytes they came from. */
static void split(const uint8_t *data, size_t size)
{
	struct channel_out o;
	size_t off = 0, prev = 0, blen = 0;
	const char *body = NULL;
	int type = -1, r;
	channel_out_init(&o);
	while ((r = channel_next((const char *)data, size, &off, &type, &body, &blen)) == 1) {
		CHECK(type >= 0 && type <= 255 && type == data[prev + 4]);
		CHECK(blen <= CHANNEL_MAX_BODY && blen == get32(data + prev));
		CHECK(body == (const char *)data + prev + HEAD && off == prev + HEAD + blen);
		CHECK(off <= size);
		CHECK(channel_out_add(&o, type, body, blen, NULL, 0) == 0);
		prev = off;
	}
	CHECK(off == prev);
	if (r == 0) {
		CHECK(off == size);
	} else {
		CHECK(r == -1 && off < size);
		CHECK(size - off < HEAD || get32(data + off) > size - off - HEAD ||
		      get32(data + off) > CHANNEL_MAX_BODY);
	}
	same_bytes(&o.bytes, data, off);
	channel_out_free(&o);
}

/* The same bytes through a socket: channel_recv() agrees with channel_next(). */
static void stream(const uint8_t *data, size_t size)
{
	int sv[2];
	if (size > 65536 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return; /* more than a socket's buffer would block the write */
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(sv[0], data + done, size - done);
		CHECK(n > 0);
		done += (size_t)n;
	}
	CHECK(shutdown(sv[0], SHUT_WR) == 0);
	struct buf got = BUF_INIT;
	size_t off = 0, blen = 0;
	const char *body = NULL;
	int type = -1, rtype = -1, r;
	do {
		r = channel_next((const char *)data, size, &off, &type, &body, &blen);
		buf_reset(&got);
		errno = 0;
		CHECK(channel_recv(sv[1], &rtype, &got, NULL, NULL) == r);
		if (r == 1) {
			CHECK(rtype == type);
			same_bytes(&got, body, blen);
		}
	} while (r == 1);
	CHECK(r == 0 || errno == EPROTO);
	buf_free(&got);
	close(sv[0]);
	close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	split(data, size);
	stream(data, size);
	return 0;
}
