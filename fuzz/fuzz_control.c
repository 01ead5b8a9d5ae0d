/* SPDX-License-Identifier: ISC */
/*
 * fuzz_control - one control message's decoder (src/proto/control.h) on
 * arbitrary bytes; built once per message, as its own target, with one of
 * -DCONTROL_SIGNAL, _TERMINATE, _KILL, _EXIT, _STOPPED or _CONTINUED
 * (fuzz/run.sh: fuzz_signal, fuzz_terminate, ...). Properties:
 *
 *   - the decoder never crashes or reads out of bounds, and what it
 *     accepts is in the message's range (a signal 1..MSG_SIGNAL_MAX, a
 *     KILL flag 0 or 1, an EXIT as control.h describes);
 *   - it is canonical: the encoder writes the accepted bytes back exactly,
 *     and those decode again to the same value;
 *   - the other way, a value made of the input's first bytes: what the
 *     encoder takes decodes to itself, and what it refuses leaves its
 *     buffer untouched (and, for a signal, is refused by the decoder too).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "control.h"
#include "fuzz_check.h"

/* The first sizeof *v bytes of data, or 0 when there are fewer. */
static inline int take(const uint8_t *data, size_t size, void *v, size_t n)
{
	if (size < n)
		return 0;
	memcpy(v, data, n);
	return 1;
}

#if defined(CONTROL_SIGNAL) || defined(CONTROL_STOPPED)
#ifdef CONTROL_SIGNAL
#define sig_encode msg_signal_encode
#define sig_decode msg_signal_decode
#else
#define sig_encode msg_stopped_encode
#define sig_decode msg_stopped_decode
#endif
static void fuzz(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	int sig = 0, again = 0;
	if (sig_decode(data, size, &sig) == 0) {
		CHECK(sig >= 1 && sig <= MSG_SIGNAL_MAX);
		CHECK(sig_encode(&b, sig) == 0);
		same_bytes(&b, data, size);
		CHECK(sig_decode(b.data, b.len, &again) == 0 && again == sig);
	} else {
		CHECK(size != 4 || (data[0] | data[1] | data[2]) != 0 || data[3] < 1 ||
		      data[3] > MSG_SIGNAL_MAX);
	}
	buf_free(&b);
	int32_t v;
	if (!take(data, size, &v, sizeof v))
		return;
	if (sig_encode(&b, v) == 0) {
		CHECK(v >= 1 && v <= MSG_SIGNAL_MAX);
		CHECK(sig_decode(b.data, b.len, &again) == 0 && again == v);
	} else {
		uint32_t u = (uint32_t)v;
		unsigned char be[4] = {(unsigned char)(u >> 24), (unsigned char)(u >> 16),
				       (unsigned char)(u >> 8), (unsigned char)u};
		CHECK(b.len == 0 && sig_decode(be, sizeof be, &again) < 0);
	}
	buf_free(&b);
}

#elif defined(CONTROL_TERMINATE) || defined(CONTROL_CONTINUED)
#ifdef CONTROL_TERMINATE
#define empty_encode msg_terminate_encode
#define empty_decode msg_terminate_decode
#else
#define empty_encode msg_continued_encode
#define empty_decode msg_continued_decode
#endif
static void fuzz(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	/* No body: exactly the empty one is accepted, and it is what the encoder writes. */
	CHECK((empty_decode(data, size) == 0) == (size == 0));
	CHECK(empty_encode(&b) == 0);
	same_bytes(&b, "", 0);
	CHECK(empty_decode(b.data, b.len) == 0);
	buf_free(&b);
}

#elif defined(CONTROL_KILL)
static void fuzz(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	int flag = -1, again = -1;
	if (msg_kill_decode(data, size, &flag) == 0) {
		CHECK(flag == 0 || flag == 1);
		CHECK(msg_kill_encode(&b, flag) == 0);
		same_bytes(&b, data, size);
		CHECK(msg_kill_decode(b.data, b.len, &again) == 0 && again == flag);
	} else {
		CHECK(size != 1 || data[0] > 1);
	}
	buf_free(&b);
	int32_t v;
	if (!take(data, size, &v, sizeof v))
		return;
	CHECK(msg_kill_encode(&b, v) == 0);
	CHECK(msg_kill_decode(b.data, b.len, &again) == 0 && again == (v != 0));
	buf_free(&b);
}

#elif defined(CONTROL_EXIT)
/* What control.h says an EXIT may carry. */
static void exit_valid(const struct msg_exit *e)
{
	CHECK(e->started == 0 || e->started == 1);
	CHECK(e->survivors >= MSG_EXIT_SURVIVORS_UNKNOWN && e->survivors < (long)UINT32_MAX);
	switch (e->how) {
	case EXIT_HOW_EXITED:
		CHECK(e->value <= 255);
		break;
	case EXIT_HOW_SIGNALED:
		CHECK(e->value >= 1 && e->value <= MSG_SIGNAL_MAX);
		break;
	case EXIT_HOW_HELPER:
		CHECK(e->value <= 255 && !e->started);
		break;
	default:
		__builtin_trap();
	}
}

static void same_exit(const struct msg_exit *a, const struct msg_exit *b)
{
	CHECK(a->how == b->how && a->value == b->value && a->survivors == b->survivors &&
	      a->started == b->started);
}

static void fuzz(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	struct msg_exit e, again;
	if (msg_exit_decode(data, size, &e) == 0) {
		exit_valid(&e);
		CHECK(msg_exit_encode(&b, &e) == 0);
		same_bytes(&b, data, size);
		CHECK(msg_exit_decode(b.data, b.len, &again) == 0);
		same_exit(&e, &again);
	}
	buf_free(&b);
	/* how, value, survivors, started from the input's first 20 bytes */
	int32_t how, started;
	uint32_t value;
	int64_t survivors;
	if (!take(data, size, &how, 4) || !take(data + 4, size - 4, &value, 4) ||
	    !take(data + 8, size - 8, &survivors, 8) || !take(data + 16, size - 16, &started, 4))
		return;
	e = (struct msg_exit){how, value, (long)survivors, started};
	if (msg_exit_encode(&b, &e) == 0) {
		exit_valid(&e);
		CHECK(b.len == 10 && msg_exit_decode(b.data, b.len, &again) == 0);
		same_exit(&e, &again);
	} else {
		CHECK(b.len == 0);
	}
	buf_free(&b);
}

#else
#error "fuzz_control.c: build with one of -DCONTROL_SIGNAL, _TERMINATE, _KILL, _EXIT, _STOPPED, _CONTINUED"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz(data, size);
	return 0;
}
