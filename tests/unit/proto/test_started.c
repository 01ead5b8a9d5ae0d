/* SPDX-License-Identifier: ISC */
/*
 * test_started.c - STARTED (src/proto/started.h), the helper's word on
 * whether the agent's exec succeeded: each kind round trips; a success
 * with a stage, an errno or a reason, a failure without a stage or with
 * an agent's pid, a stage, lifetime, pid or namespace depth out of range, an errno over 4095, a reason with a newline or
 * over STARTED_REASON_MAX bytes, a cut body and trailing bytes are refused
 * by the encoder (which then writes nothing) and by the decoder.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "payload.h"
#include "started.h"

static void round_trip(struct msg_started m)
{
	struct buf b = BUF_INIT;
	struct msg_started back;
	assert_int_equal(msg_started_encode(&b, &m), 0);
	assert_int_equal(msg_started_decode(b.data, b.len, &back), 0);
	assert_int_equal(back.ok, m.ok);
	assert_int_equal(back.stage, m.stage);
	assert_int_equal(back.errnum, m.errnum);
	assert_int_equal(back.lifetime, m.lifetime);
	assert_int_equal(back.agent_pid, m.agent_pid);
	assert_int_equal(back.pid_level, m.pid_level);
	assert_string_equal(back.reason, m.reason);
	free(back.reason);
	/* Every cut of it, and one byte more, is refused. */
	for (size_t n = 0; n < b.len; n++)
		assert_int_equal(msg_started_decode(b.data, n, &back), -1);
	buf_add(&b, "", 1);
	assert_int_equal(msg_started_decode(b.data, b.len, &back), -1);
	buf_free(&b);
}

static void refused(struct msg_started m)
{
	struct buf b = BUF_INIT;
	if (msg_started_encode(&b, &m) == 0)
		fail_msg("ok %d stage %d errno %d lifetime %d reason \"%s\" was encoded", m.ok,
			 m.stage, m.errnum, m.lifetime, m.reason ? m.reason : "(null)");
	assert_int_equal(b.len, 0);
	buf_free(&b);
}

/* The bytes of m as the encoder would write them, without its checks. */
static void raw(struct buf *b, int ok, int stage, uint32_t errnum, int lifetime, const char *reason)
{
	/* agent_pid 0 and pid_level 0 after the lifetime */
	unsigned char h[] = {(unsigned char)ok, (unsigned char)stage, (unsigned char)(errnum >> 24),
			     (unsigned char)(errnum >> 16), (unsigned char)(errnum >> 8),
			     (unsigned char)errnum, (unsigned char)lifetime, 0, 0, 0, 0, 0};
	size_t n = strlen(reason);
	unsigned char len[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
				(unsigned char)(n >> 8), (unsigned char)n};
	buf_add(b, h, sizeof h);
	buf_add(b, len, sizeof len);
	buf_add(b, reason, n);
}

static void decode_refused(int ok, int stage, uint32_t errnum, int lifetime, const char *reason)
{
	struct buf b = BUF_INIT;
	struct msg_started m = {7, 7, 7, 7, 7, 7, NULL};
	raw(&b, ok, stage, errnum, lifetime, reason);
	if (msg_started_decode(b.data, b.len, &m) == 0)
		fail_msg("decoded ok %d stage %d errno %u lifetime %d reason \"%s\"", ok, stage,
			 errnum, lifetime, reason);
	assert_null(m.reason);
	buf_free(&b);
}

static void test_round_trips(void **state)
{
	(void)state;
	round_trip((struct msg_started){1, 0, 0, LIFETIME_PIDNS, 0, 0, ""});
	round_trip((struct msg_started){1, 0, 0, LIFETIME_SUBREAPER, 0, 0, ""});
	round_trip((struct msg_started){1, 0, 0, LIFETIME_PIDNS, 4242, 1, ""});
	round_trip((struct msg_started){1, 0, 0, LIFETIME_PIDNS, 0x3fffffff, 32, ""});
	round_trip((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0,
					"cannot run \"claude\": No such file or directory"});
	round_trip((struct msg_started){0, STARTED_STAGE_WORK_DIR, EACCES, LIFETIME_SUBREAPER, 0, 0,
					"cannot enter work_dir"});
	round_trip((struct msg_started){0, STARTED_STAGE_LOGIN, 0, LIFETIME_PIDNS, 0, 0, ""});
	round_trip((struct msg_started){0, STARTED_STAGE_HELPER, 4095, LIFETIME_PIDNS, 0, 0, "x"});
	round_trip((struct msg_started){0, STARTED_STAGE_SUDO, 0, LIFETIME_PIDNS, 0, 0, "sudo"});
	round_trip((struct msg_started){0, STARTED_STAGE_WORK_DIR, ENOENT, LIFETIME_PIDNS, 0, 0,
					"cannot enter work_dir \"/srv/caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80\""});
	char longest[STARTED_REASON_MAX + 1];
	memset(longest, 'a', STARTED_REASON_MAX);
	longest[STARTED_REASON_MAX] = '\0';
	round_trip((struct msg_started){0, STARTED_STAGE_EXEC, E2BIG, LIFETIME_PIDNS, 0, 0, longest});
}

static void test_refused(void **state)
{
	(void)state;
	char over[STARTED_REASON_MAX + 2];
	memset(over, 'a', STARTED_REASON_MAX + 1);
	over[STARTED_REASON_MAX + 1] = '\0';
	refused((struct msg_started){1, STARTED_STAGE_EXEC, 0, LIFETIME_PIDNS, 0, 0, ""});
	refused((struct msg_started){1, 0, 0, LIFETIME_PIDNS, 0x40000000, 0, ""});
	refused((struct msg_started){1, 0, 0, LIFETIME_PIDNS, 1, 33, ""});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 1, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 1, "x"});
	refused((struct msg_started){1, 0, ENOENT, LIFETIME_PIDNS, 0, 0, ""});
	refused((struct msg_started){1, 0, 0, LIFETIME_PIDNS, 0, 0, "why"});
	refused((struct msg_started){2, 0, 0, LIFETIME_PIDNS, 0, 0, ""});
	refused((struct msg_started){0, 0, ENOENT, LIFETIME_PIDNS, 0, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_MAX + 1, ENOENT, LIFETIME_PIDNS, 0, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, 4096, LIFETIME_PIDNS, 0, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, -1, LIFETIME_PIDNS, 0, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_AUTO, 0, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, 9, 0, 0, "x"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\nb"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "\x1b[2J"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, over});
	/* What a terminal or a log viewer would act on or reorder: C1 (CSI), bidi, bad UTF-8. */
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\xc2\x9b" "2J"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\xe2\x80\xae" "b"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\xff" "b"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\xc3"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "\xc0\xaf"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\xe2\x80\xa8" "b"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "a\xe2\x80\x8b" "b"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, "\xef\xbb\xbf" "b"});
	refused((struct msg_started){0, STARTED_STAGE_EXEC, ENOENT, LIFETIME_PIDNS, 0, 0, NULL});
	decode_refused(1, 1, 0, LIFETIME_PIDNS, "");
	decode_refused(0, 0, 2, LIFETIME_PIDNS, "x");
	decode_refused(0, 6, 2, LIFETIME_PIDNS, "x");
	decode_refused(0, 3, 4096, LIFETIME_PIDNS, "x");
	decode_refused(0, 3, 0x80000002u, LIFETIME_PIDNS, "x");
	decode_refused(0, 3, 2, LIFETIME_AUTO, "x");
	decode_refused(0, 3, 2, LIFETIME_PIDNS, "a\rb");
	decode_refused(0, 3, 2, LIFETIME_PIDNS, over);
	decode_refused(255, 3, 2, LIFETIME_PIDNS, "x");
}

/* started_reason_fit: one printable line, cut, without trailing spaces. */
static void test_fit(void **state)
{
	(void)state;
	char out[STARTED_REASON_MAX + 64];
	started_reason_fit(out, sizeof out, "sudo: a password is required\n");
	assert_string_equal(out, "sudo: a password is required");
	started_reason_fit(out, sizeof out, "a\nb\x1b[2J\x7f");
	assert_string_equal(out, "a b [2J");
	started_reason_fit(out, sizeof out, "caf\xc3\xa9 \xc2\x9b" "2J \xe2\x80\xae" "x \xff");
	assert_string_equal(out, "caf\xc3\xa9 ??2J ???x ?");
	/* A character is never cut in two at the end. */
	started_reason_fit(out, 5, "abc\xc3\xa9");
	assert_string_equal(out, "abc");
	started_reason_fit(out, 4, "abcdef");
	assert_string_equal(out, "abc");
	started_reason_fit(out, sizeof out, NULL);
	assert_string_equal(out, "");
	char big[STARTED_REASON_MAX * 2];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	started_reason_fit(out, sizeof out, big);
	assert_int_equal(strlen(out), STARTED_REASON_MAX);
	struct buf b = BUF_INIT;
	assert_int_equal(msg_started_encode(&b, &(struct msg_started){0, STARTED_STAGE_EXEC, E2BIG,
								       LIFETIME_PIDNS, 0, 0, out}),
			 0);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
