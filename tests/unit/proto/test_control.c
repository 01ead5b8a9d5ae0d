/* SPDX-License-Identifier: ISC */
/*
 * test_control.c - the run's control messages (src/proto/control.h):
 * SIGNAL, TERMINATE, KILL from the library, EXIT, STOPPED, CONTINUED from
 * the helper. Each round trip; each value out of range refused by the
 * encoder (which then writes nothing) and by the decoder (which then
 * leaves its output alone); every body of another length refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <string.h>

#include "buf.h"
#include "control.h"

/* Every length but the right one, up to 16, is refused by dec (0 or -1). */
static void assert_only_length(size_t right, int (*dec)(const void *, size_t, void *), void *out)
{
	unsigned char zero[32];
	memset(zero, 1, sizeof zero);
	for (size_t n = 0; n <= 16; n++)
		if (n != right && dec(zero, n, out) == 0)
			fail_msg("a body of %zu bytes was accepted (only %zu is)", n, right);
}

static int dec_signal(const void *b, size_t n, void *out)
{
	return msg_signal_decode(b, n, out);
}

static int dec_stopped(const void *b, size_t n, void *out)
{
	return msg_stopped_decode(b, n, out);
}

static int dec_kill(const void *b, size_t n, void *out)
{
	return msg_kill_decode(b, n, out);
}

static int dec_exit(const void *b, size_t n, void *out)
{
	return msg_exit_decode(b, n, out);
}

static int dec_terminate(const void *b, size_t n, void *out)
{
	(void)out;
	return msg_terminate_decode(b, n);
}

static int dec_continued(const void *b, size_t n, void *out)
{
	(void)out;
	return msg_continued_decode(b, n);
}

/* SIGNAL and STOPPED: a signal number 1..64 as 4 bytes; 0, 65 and the rest refused. */
static void test_signal_and_stopped(void **state)
{
	(void)state;
	for (int kind = 0; kind < 2; kind++) {
		int (*enc)(struct buf *, int) = kind ? msg_stopped_encode : msg_signal_encode;
		int (*dec)(const void *, size_t, int *) = kind ? msg_stopped_decode
							       : msg_signal_decode;
		for (int sig = 1; sig <= MSG_SIGNAL_MAX; sig++) {
			struct buf b = BUF_INIT;
			int got = 0;
			assert_int_equal(enc(&b, sig), 0);
			assert_int_equal(b.len, 4);
			unsigned char want[4] = {0, 0, 0, (unsigned char)sig};
			assert_memory_equal(b.data, want, 4);
			assert_int_equal(dec(b.data, b.len, &got), 0);
			assert_int_equal(got, sig);
			buf_free(&b);
		}
		static const int bad[] = {0, MSG_SIGNAL_MAX + 1, -1, INT_MIN, INT_MAX, 256};
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			struct buf b = BUF_INIT;
			assert_int_equal(enc(&b, bad[i]), -1);
			assert_int_equal(b.len, 0);
			buf_free(&b);
		}
		static const unsigned char zero[4] = {0, 0, 0, 0}, high[4] = {0, 0, 0, 65},
					   ones[4] = {0xff, 0xff, 0xff, 0xff},
					   hi_ok[4] = {1, 0, 0, 9};
		int got = 42;
		assert_int_equal(dec(zero, 4, &got), -1);
		assert_int_equal(dec(high, 4, &got), -1);
		assert_int_equal(dec(ones, 4, &got), -1);
		assert_int_equal(dec(hi_ok, 4, &got), -1); /* 0x01000009 */
		assert_int_equal(got, 42);
	}
	int sig;
	assert_only_length(4, dec_signal, &sig);
	assert_only_length(4, dec_stopped, &sig);
}

/* TERMINATE and CONTINUED: no body, and no body only. */
static void test_terminate_and_continued(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	assert_int_equal(msg_terminate_encode(&b), 0);
	assert_int_equal(msg_continued_encode(&b), 0);
	assert_int_equal(b.len, 0);
	assert_int_equal(msg_terminate_decode("", 0), 0);
	assert_int_equal(msg_continued_decode("", 0), 0);
	assert_int_equal(msg_terminate_decode(NULL, 0), 0);
	assert_only_length(0, dec_terminate, NULL);
	assert_only_length(0, dec_continued, NULL);
	buf_free(&b);
}

/* KILL: one byte, 1 when the library records the end itself, else 0; nothing else. */
static void test_kill(void **state)
{
	(void)state;
	static const struct {
		int in, byte;
	} cases[] = {{0, 0}, {1, 1}, {2, 1}, {-1, 1}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf b = BUF_INIT;
		int got = -1;
		assert_int_equal(msg_kill_encode(&b, cases[i].in), 0);
		assert_int_equal(b.len, 1);
		assert_int_equal((unsigned char)b.data[0], cases[i].byte);
		assert_int_equal(msg_kill_decode(b.data, b.len, &got), 0);
		assert_int_equal(got, cases[i].byte);
		buf_free(&b);
	}
	for (int v = 2; v < 256; v++) {
		unsigned char c = (unsigned char)v;
		int got = 7;
		assert_int_equal(msg_kill_decode(&c, 1, &got), -1);
		assert_int_equal(got, 7);
	}
	int got;
	assert_only_length(1, dec_kill, &got);
}

static void exit_round_trip(int how, unsigned int value, long survivors, int started)
{
	struct msg_exit in = {how, value, survivors, started}, out;
	struct buf b = BUF_INIT;
	if (msg_exit_encode(&b, &in) != 0)
		fail_msg("EXIT how %d value %u survivors %ld started %d refused", how, value,
			 survivors, started);
	/* u8 how, u32 value, u32 survivors (0xffffffff: unknown), u8 started. */
	assert_int_equal(b.len, 10);
	uint32_t sv = survivors < 0 ? UINT32_MAX : (uint32_t)survivors;
	unsigned char want[10] = {(unsigned char)how,
				  (unsigned char)(value >> 24),
				  (unsigned char)(value >> 16),
				  (unsigned char)(value >> 8),
				  (unsigned char)value,
				  (unsigned char)(sv >> 24),
				  (unsigned char)(sv >> 16),
				  (unsigned char)(sv >> 8),
				  (unsigned char)sv,
				  (unsigned char)started};
	assert_memory_equal(b.data, want, 10);
	memset(&out, 0, sizeof out);
	assert_int_equal(msg_exit_decode(b.data, b.len, &out), 0);
	assert_int_equal(out.how, how);
	assert_int_equal(out.value, value);
	assert_int_equal(out.survivors, survivors);
	assert_int_equal(out.started, started);
	buf_free(&b);
}

/* What the encoder refuses, and the decoder too when those bytes come. */
static void exit_refused(int how, unsigned int value, long survivors, int started)
{
	struct msg_exit in = {how, value, survivors, started};
	struct buf b = BUF_INIT;
	if (msg_exit_encode(&b, &in) != -1)
		fail_msg("EXIT how %d value %u survivors %ld started %d accepted", how, value,
			 survivors, started);
	assert_int_equal(b.len, 0);
	buf_free(&b);
}

static void exit_bytes_refused(unsigned int how, uint32_t value, uint32_t survivors,
			       unsigned int started)
{
	unsigned char m[10] = {(unsigned char)how,
			       (unsigned char)(value >> 24),
			       (unsigned char)(value >> 16),
			       (unsigned char)(value >> 8),
			       (unsigned char)value,
			       (unsigned char)(survivors >> 24),
			       (unsigned char)(survivors >> 16),
			       (unsigned char)(survivors >> 8),
			       (unsigned char)survivors,
			       (unsigned char)started};
	struct msg_exit out = {9, 9, 9, 9};
	if (msg_exit_decode(m, sizeof m, &out) != -1)
		fail_msg("EXIT bytes how %u value %u survivors %u started %u accepted", how, value,
			 survivors, started);
	/* Untouched. */
	assert_int_equal(out.how, 9);
	assert_int_equal(out.value, 9);
	assert_int_equal(out.survivors, 9);
	assert_int_equal(out.started, 9);
}

/*
 * EXIT: EXITED 0..255 (started or not: an exec that failed is 126 or 127
 * said for it), SIGNALED 1..64 (started or not: a run ended by a signal
 * before its agent started, its login shell killed by the tree's SIGTERM),
 * HELPER 0..255 only of one that did not start; survivors a count up to
 * 0xfffffffe, or unknown (-1), which is 0xffffffff on the wire.
 */
static void test_exit(void **state)
{
	(void)state;
	for (unsigned int v = 0; v <= 255; v++) {
		exit_round_trip(EXIT_HOW_EXITED, v, 0, 1);
		exit_round_trip(EXIT_HOW_EXITED, v, 3, 0);
		exit_round_trip(EXIT_HOW_HELPER, v, MSG_EXIT_SURVIVORS_UNKNOWN, 0);
	}
	for (unsigned int s = 1; s <= MSG_SIGNAL_MAX; s++) {
		exit_round_trip(EXIT_HOW_SIGNALED, s, 2, 1);
		exit_round_trip(EXIT_HOW_SIGNALED, s, MSG_EXIT_SURVIVORS_UNKNOWN, 0);
	}
	exit_round_trip(EXIT_HOW_EXITED, 0, MSG_EXIT_SURVIVORS_UNKNOWN, 1);
	/* The largest count a long holds, up to 0xfffffffe (32-bit longs: LONG_MAX). */
#if LONG_MAX > UINT32_MAX
	exit_round_trip(EXIT_HOW_EXITED, 0, (long)UINT32_MAX - 1, 1);
#else
	exit_round_trip(EXIT_HOW_EXITED, 0, LONG_MAX, 1);
#endif
	exit_round_trip(EXIT_HOW_EXITED, 0, 0, 1);
	exit_round_trip(EXIT_HOW_SIGNALED, 15, 1, 1);

	/* how unknown */
	exit_refused(0, 0, 0, 1);
	exit_refused(4, 0, 0, 1);
	exit_refused(-1, 0, 0, 1);
	exit_bytes_refused(0, 0, 0, 1);
	exit_bytes_refused(4, 0, 0, 1);
	exit_bytes_refused(255, 0, 0, 1);
	/* values out of range */
	exit_refused(EXIT_HOW_EXITED, 256, 0, 1);
	exit_refused(EXIT_HOW_HELPER, 256, 0, 0);
	exit_refused(EXIT_HOW_SIGNALED, 0, 0, 1);
	exit_refused(EXIT_HOW_SIGNALED, MSG_SIGNAL_MAX + 1, 0, 1);
	exit_refused(EXIT_HOW_EXITED, UINT_MAX, 0, 1);
	exit_bytes_refused(EXIT_HOW_EXITED, 256, 0, 1);
	exit_bytes_refused(EXIT_HOW_EXITED, 0x01000000u, 0, 1);
	exit_bytes_refused(EXIT_HOW_HELPER, 256, 0, 0);
	exit_bytes_refused(EXIT_HOW_SIGNALED, 0, 0, 1);
	exit_bytes_refused(EXIT_HOW_SIGNALED, 65, 0, 1);
	/* the helper ends only a run whose agent had not started */
	exit_refused(EXIT_HOW_HELPER, 125, 0, 1);
	exit_bytes_refused(EXIT_HOW_HELPER, 125, 0, 1);
	/* started is 0 or 1 */
	exit_refused(EXIT_HOW_EXITED, 0, 0, 2);
	exit_refused(EXIT_HOW_EXITED, 0, 0, -1);
	exit_bytes_refused(EXIT_HOW_EXITED, 0, 0, 2);
	exit_bytes_refused(EXIT_HOW_EXITED, 0, 0, 255);
	/* survivors: -1 is the unknown; below it, and 0xffffffff as a count, are not counts */
	exit_refused(EXIT_HOW_EXITED, 0, -2, 1);
	exit_refused(EXIT_HOW_EXITED, 0, LONG_MIN, 1);
#if LONG_MAX > UINT32_MAX
	exit_refused(EXIT_HOW_EXITED, 0, (long)UINT32_MAX, 1);
	exit_refused(EXIT_HOW_EXITED, 0, LONG_MAX, 1);
#endif
	/* ... and on the wire 0xffffffff is the unknown, never a count. */
	struct msg_exit out;
	unsigned char unknown[10] = {EXIT_HOW_EXITED, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 1};
	assert_int_equal(msg_exit_decode(unknown, sizeof unknown, &out), 0);
	assert_int_equal(out.survivors, MSG_EXIT_SURVIVORS_UNKNOWN);
	unknown[8] = 0xfe;
#if LONG_MAX > UINT32_MAX
	assert_int_equal(msg_exit_decode(unknown, sizeof unknown, &out), 0);
	assert_int_equal(out.survivors, (long)UINT32_MAX - 1);
#else
	assert_int_equal(msg_exit_decode(unknown, sizeof unknown, &out), -1);
#endif

	assert_only_length(10, dec_exit, &out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_and_stopped),
		cmocka_unit_test(test_terminate_and_continued),
		cmocka_unit_test(test_kill),
		cmocka_unit_test(test_exit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
