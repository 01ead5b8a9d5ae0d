/* SPDX-License-Identifier: ISC */
/*
 * test_agent.c - AGENT and START, between ruas-exec's two halves
 * (src/proto/agent.h): AGENT's body (its descriptors are the channel's
 * business, test_channel.c) round trips byte for byte, and its decoder
 * refuses an empty command, a variable name setenv() would refuse or
 * misread (empty, or with '='), cut bodies, counts past the body, NULs
 * and trailing bytes; START says exec (errno 0), or failed or no work_dir
 * (errno 1..4095), nothing else.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "agent.h"
#include "buf.h"
#include "codec.h"

static void assert_zeroed(const struct agent_start *a)
{
	struct agent_start zero;
	memset(&zero, 0, sizeof zero);
	assert_memory_equal(a, &zero, sizeof zero);
}

static void assert_refused(const struct buf *raw, const char *reason_part)
{
	struct agent_start a;
	const char *why = NULL;
	if (agent_decode(raw->data, raw->len, &a, &why) == 0) {
		agent_free(&a);
		fail_msg("accepted, expected a refusal for \"%s\"", reason_part);
	}
	assert_non_null(why);
	assert_zeroed(&a);
	if (reason_part && !strstr(why, reason_part))
		fail_msg("refused for \"%s\", expected a reason containing \"%s\"", why, reason_part);
}

/* After the work_dir: the root and the scope. */
static void raw_tail(struct buf *b, const char *root, const char *scope)
{
	assert_int_equal(enc_str(b, root), 0);
	assert_int_equal(enc_str(b, scope), 0);
}

/* argv, then the variables, then the work_dir and the tail, as the raw layout of agent.h. */
static void raw_agent(struct buf *b, char *const *argv, size_t argc, const char *const *names,
		      const char *const *values, size_t nenv, const char *work_dir)
{
	assert_int_equal(enc_strv(b, argv, argc), 0);
	enc_u32(b, (uint32_t)nenv);
	for (size_t i = 0; i < nenv; i++) {
		assert_int_equal(enc_str(b, names[i]), 0);
		assert_int_equal(enc_str(b, values[i]), 0);
	}
	assert_int_equal(enc_str(b, work_dir), 0);
	raw_tail(b, "", "");
}

static void test_round_trip(void **state)
{
	(void)state;
	char *argv[] = {"claude", "", "$HOME", "a\nb", "'\"", NULL};
	char *names[] = {"LANG", "ANTHROPIC_API_KEY", "RUAS_RUN_ID", "LANG"};
	char *values[] = {"C.UTF-8", "sk-x\ny $HOME '\"=", "", "later wins"};
	struct agent_start in = {argv, 5, names, values, 4, "/srv/x y/'q\"\n\\z", NULL, NULL}, out;
	struct buf body = BUF_INIT, raw = BUF_INIT, again = BUF_INIT;
	const char *why = NULL;
	assert_int_equal(agent_encode(&in, &body), 0);
	raw_agent(&raw, argv, 5, (const char *const *)names, (const char *const *)values, 4,
		  in.work_dir);
	assert_int_equal(body.len, raw.len);
	assert_memory_equal(body.data, raw.data, raw.len);
	assert_int_equal(agent_decode(body.data, body.len, &out, &why), 0);
	assert_int_equal(out.argc, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(out.argv[i], argv[i]);
	assert_null(out.argv[5]);
	assert_int_equal(out.nenv, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(out.env_names[i], names[i]);
		assert_string_equal(out.env_values[i], values[i]);
	}
	assert_string_equal(out.work_dir, in.work_dir);
	assert_int_equal(agent_encode(&out, &again), 0);
	assert_int_equal(again.len, body.len);
	assert_memory_equal(again.data, body.data, body.len);
	agent_free(&out);
	assert_zeroed(&out);

	/* Every proper prefix is refused. */
	for (size_t n = 0; n < body.len; n++) {
		if (agent_decode(body.data, n, &out, &why) == 0) {
			agent_free(&out);
			fail_msg("an AGENT cut to %zu of its %zu bytes was accepted", n, body.len);
		}
		assert_zeroed(&out);
	}
	/* And a byte more. */
	assert_int_equal(buf_addc(&body, 0), 0);
	assert_refused(&body, "trailing");
	buf_free(&body);
	buf_free(&raw);
	buf_free(&again);
}

/* A name setenv() would refuse or misread: empty, or with '=' anywhere in it. */
static void test_names_refused(void **state)
{
	(void)state;
	char *argv[] = {"claude", NULL};
	static const char *const bad[] = {"", "=", "A=B", "=A", "A=", "LD_PRELOAD=/x.so"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *names[] = {"LANG", bad[i]}, *values[] = {"C", "v"};
		struct buf raw = BUF_INIT;
		raw_agent(&raw, argv, 1, names, values, 2, "/w");
		assert_refused(&raw, "names a variable that cannot be set");
		buf_free(&raw);
	}
	/* '=' in a value is the value's. */
	const char *names[] = {"A"}, *values[] = {"=b=c="};
	struct buf raw = BUF_INIT;
	raw_agent(&raw, argv, 1, names, values, 1, "/w");
	struct agent_start out;
	const char *why = NULL;
	assert_int_equal(agent_decode(raw.data, raw.len, &out, &why), 0);
	assert_string_equal(out.env_values[0], "=b=c=");
	agent_free(&out);
	buf_free(&raw);
}

static void test_command_and_strings_refused(void **state)
{
	(void)state;
	/* No command, or an empty one. */
	char *none[] = {NULL};
	char *empty[] = {"", "x", NULL};
	struct buf raw = BUF_INIT;
	raw_agent(&raw, none, 0, NULL, NULL, 0, "/w");
	assert_refused(&raw, "empty command");
	buf_free(&raw);
	raw = (struct buf)BUF_INIT;
	raw_agent(&raw, empty, 2, NULL, NULL, 0, "/w");
	assert_refused(&raw, "empty command");
	buf_free(&raw);

	/* Counts past the body. */
	raw = (struct buf)BUF_INIT;
	enc_u32(&raw, 0x7fffffffu);
	assert_int_equal(enc_str(&raw, "claude"), 0);
	assert_refused(&raw, "count");
	buf_free(&raw);
	raw = (struct buf)BUF_INIT;
	char *argv[] = {"claude", NULL};
	assert_int_equal(enc_strv(&raw, argv, 1), 0);
	enc_u32(&raw, 1000);
	assert_int_equal(enc_str(&raw, "A"), 0);
	assert_refused(&raw, "count");
	buf_free(&raw);

	/* A NUL in argv, in a name, in a value, in the work_dir. */
	for (int where = 0; where < 4; where++) {
		raw = (struct buf)BUF_INIT;
		enc_u32(&raw, 1);
		if (where == 0) {
			enc_u32(&raw, 3);
			buf_add(&raw, "c\0d", 3);
		} else {
			assert_int_equal(enc_str(&raw, "cmd"), 0);
		}
		enc_u32(&raw, 1);
		if (where == 1) {
			enc_u32(&raw, 3);
			buf_add(&raw, "A\0B", 3);
		} else {
			assert_int_equal(enc_str(&raw, "A"), 0);
		}
		if (where == 2) {
			enc_u32(&raw, 3);
			buf_add(&raw, "v\0w", 3);
		} else {
			assert_int_equal(enc_str(&raw, "v"), 0);
		}
		if (where == 3) {
			enc_u32(&raw, 7);
			buf_add(&raw, "/w\0/etc", 7);
		} else {
			assert_int_equal(enc_str(&raw, "/w"), 0);
		}
		raw_tail(&raw, "", "");
		assert_refused(&raw, "NUL");
		buf_free(&raw);
	}
}

/* The names the inner helper opens the work_dir by, inside the run: root and scope. */
static void test_root_and_scope(void **state)
{
	(void)state;
	char *argv[] = {"claude", NULL};
	struct agent_start in = {.argv = argv, .argc = 1, .work_dir = "/wt/alice/repo/run 1",
				 .root = "/wt/alice/repo", .scope = "/wt/alice"};
	struct agent_start out;
	struct buf body = BUF_INIT, raw = BUF_INIT;
	const char *why = NULL;
	assert_int_equal(agent_encode(&in, &body), 0);
	assert_int_equal(enc_strv(&raw, argv, 1), 0);
	enc_u32(&raw, 0);
	assert_int_equal(enc_str(&raw, in.work_dir), 0);
	raw_tail(&raw, in.root, in.scope);
	assert_int_equal(body.len, raw.len);
	assert_memory_equal(body.data, raw.data, raw.len);
	assert_int_equal(agent_decode(body.data, body.len, &out, &why), 0);
	assert_string_equal(out.work_dir, in.work_dir);
	assert_string_equal(out.root, in.root);
	assert_string_equal(out.scope, in.scope);
	agent_free(&out);
	buf_free(&body);

	/* NULL goes as "", and comes back as "". */
	in.root = in.scope = NULL;
	body = (struct buf)BUF_INIT;
	assert_int_equal(agent_encode(&in, &body), 0);
	assert_int_equal(agent_decode(body.data, body.len, &out, &why), 0);
	assert_string_equal(out.root, "");
	assert_string_equal(out.scope, "");
	agent_free(&out);
	buf_free(&body);

	/* A NUL inside the root or the scope is refused. */
	for (int where = 0; where < 2; where++) {
		struct buf r2 = BUF_INIT;
		assert_int_equal(enc_strv(&r2, argv, 1), 0);
		enc_u32(&r2, 0);
		assert_int_equal(enc_str(&r2, "/w"), 0);
		for (int i = 0; i < 2; i++) {
			if (i == where) {
				enc_u32(&r2, 3);
				buf_add(&r2, "/\0x", 3);
			} else {
				assert_int_equal(enc_str(&r2, "/w"), 0);
			}
		}
		assert_refused(&r2, "NUL");
		buf_free(&r2);
	}
	buf_free(&raw);
}

static void test_encode_refuses(void **state)
{
	(void)state;
	char *argv[] = {"claude", NULL};
	struct agent_start a = {argv, 0, NULL, NULL, 0, "/w", NULL, NULL};
	struct buf b = BUF_INIT;
	assert_int_equal(agent_encode(&a, &b), -1);
	a.argc = 1;
	a.work_dir = NULL;
	assert_int_equal(agent_encode(&a, &b), -1);
	buf_free(&b);
	b = (struct buf)BUF_INIT;
	a.work_dir = "/w";
	assert_int_equal(agent_encode(&a, &b), 0);
	buf_free(&b);
}

static void start_round_trip(int state_in, int errnum)
{
	struct buf b = BUF_INIT;
	int st = -1, e = -1;
	if (msg_start_encode(&b, state_in, errnum) != 0)
		fail_msg("START %d errno %d refused", state_in, errnum);
	/* u8 state, i32 errno */
	assert_int_equal(b.len, 5);
	assert_int_equal((unsigned char)b.data[0], state_in);
	assert_int_equal(msg_start_decode(b.data, b.len, &st, &e), 0);
	assert_int_equal(st, state_in);
	assert_int_equal(e, errnum);
	buf_free(&b);
}

static void start_refused(int state_in, int errnum)
{
	struct buf b = BUF_INIT;
	if (msg_start_encode(&b, state_in, errnum) != -1)
		fail_msg("START %d errno %d accepted", state_in, errnum);
	assert_int_equal(b.len, 0);
	buf_free(&b);
	/* And those bytes are refused by the decoder, which leaves its outputs alone. */
	unsigned char m[5] = {(unsigned char)state_in, (unsigned char)((unsigned int)errnum >> 24),
			      (unsigned char)((unsigned int)errnum >> 16),
			      (unsigned char)((unsigned int)errnum >> 8), (unsigned char)errnum};
	int st = 77, e = 77;
	assert_int_equal(msg_start_decode(m, 5, &st, &e), -1);
	assert_int_equal(st, 77);
	assert_int_equal(e, 77);
}

/*
 * START: EXEC with no errno; FAILED and NO_WORK_DIR with one, 1..4095;
 * nothing else, and 5 bytes only.
 */
static void test_start(void **state)
{
	(void)state;
	start_round_trip(START_EXEC, 0);
	start_round_trip(START_FAILED, ENOENT);
	start_round_trip(START_FAILED, EACCES);
	start_round_trip(START_FAILED, 1);
	start_round_trip(START_FAILED, 4095);
	start_round_trip(START_NO_WORK_DIR, EACCES);
	start_round_trip(START_NO_WORK_DIR, 4095);
	start_refused(START_NO_WORK_DIR, 0);
	start_refused(START_NO_WORK_DIR, 4096);
	start_refused(START_EXEC, ENOENT);
	start_refused(START_FAILED, 0);
	start_refused(START_FAILED, 4096);
	start_refused(START_FAILED, -1);
	start_refused(START_FAILED, INT_MIN);
	start_refused(START_FAILED, INT_MAX);
	start_refused(0, 0);
	start_refused(0, ENOENT);
	start_refused(4, 0);
	start_refused(4, ENOENT);
	start_refused(255, 0);
	struct buf b = BUF_INIT;
	assert_int_equal(msg_start_encode(&b, START_EXEC, 0), 0);
	int st, e;
	for (size_t n = 0; n <= 8; n++) {
		if (n != 5) {
			unsigned char m[8] = {START_EXEC, 0, 0, 0, 0, 0, 0, 0};
			assert_int_equal(msg_start_decode(m, n, &st, &e), -1);
		}
	}
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_names_refused),
		cmocka_unit_test(test_command_and_strings_refused),
		cmocka_unit_test(test_root_and_scope),
		cmocka_unit_test(test_encode_refuses),
		cmocka_unit_test(test_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
