/* SPDX-License-Identifier: ISC */
/*
 * test_session.c - SESSION, what the root library hands ruas-session
 * (src/proto/session.h): round trips and canonical bodies; the decoder's
 * refusals (each with its reason): cut bodies, trailing bytes, another
 * header or version, an unknown mode or lifetime, a terminal that is not
 * "" or a /dev/ path of printable bytes, a helper that is not absolute, a
 * NUL inside a string; and the two first messages of a channel never
 * taken for each other.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "payload.h"
#include "session.h"

#define HELPER "/usr/libexec/ruas/ruas-exec"
/* The project's terminate_grace that every session here carries. */
#define GRACE 7u

/* The keep_cgroup that session_of() and raw_session() give (a test may change it). */
static uint32_t keep = 1;

/* A session for t1 (PAM_RUSER sup) with tty; for session_encode(), which only reads it. */
static struct session session_of(const char *tty, unsigned int mode, unsigned int lifetime)
{
	return (struct session){(char *)"t1", (char *)"ruas", (char *)"sup", (char *)tty, mode,
				(char *)HELPER, lifetime, GRACE, (char *)"alice", keep};
}

static void raw_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 8), (unsigned char)v};
	assert_int_equal(buf_add(b, x, 4), 0);
}

static void raw_bytes(struct buf *b, const void *s, size_t n)
{
	raw_u32(b, (uint32_t)n);
	assert_int_equal(buf_add(b, s, n), 0);
}

static void raw_str(struct buf *b, const char *s)
{
	raw_bytes(b, s, strlen(s));
}

/* A session body with these fields, byte for byte as session.h lays it out. */
static void raw_session(struct buf *b, int version, const char *user, const char *tty,
			uint32_t mode, const char *helper, uint32_t lifetime)
{
	assert_int_equal(buf_add(b, "RUAS", 4), 0);
	assert_int_equal(buf_addc(b, (char)version), 0);
	raw_str(b, user);
	raw_str(b, "ruas");
	raw_str(b, "sup");
	raw_str(b, tty);
	raw_u32(b, mode);
	raw_str(b, helper);
	raw_u32(b, lifetime);
	raw_u32(b, GRACE);
	raw_str(b, "alice");
	raw_u32(b, keep);
}

static void assert_zeroed(const struct session *s)
{
	struct session zero;
	memset(&zero, 0, sizeof zero);
	assert_memory_equal(s, &zero, sizeof zero);
}

static void assert_refused(const struct buf *raw, const char *reason_part)
{
	struct session s;
	const char *why = NULL;
	if (session_decode(raw->data, raw->len, &s, &why) == 0) {
		session_free(&s);
		fail_msg("accepted, expected a refusal for \"%s\"", reason_part);
	}
	assert_non_null(why);
	assert_zeroed(&s);
	if (reason_part && !strstr(why, reason_part))
		fail_msg("refused for \"%s\", expected a reason containing \"%s\"", why, reason_part);
}

static void test_round_trip(void **state)
{
	(void)state;
	static const char *const ttys[] = {"", "/dev/pts/3", "/dev/tty1"};
	for (keep = 0; keep <= 1; keep++) {
		for (unsigned int mode = SESSION_EXEC; mode <= SESSION_CHECK; mode++)
			for (unsigned int l = LIFETIME_SUBREAPER; l <= LIFETIME_AUTO; l++)
				for (size_t t = 0; t < sizeof ttys / sizeof ttys[0]; t++) {
					struct session in = session_of(ttys[t], mode, l), out;
					struct buf body = BUF_INIT, again = BUF_INIT, raw = BUF_INIT;
					const char *why = NULL;
					assert_int_equal(session_encode(&in, &body), 0);
					/* The layout of session.h, exactly. */
					raw_session(&raw, PAYLOAD_VERSION, "t1", ttys[t], mode, HELPER, l);
					assert_int_equal(body.len, raw.len);
					assert_memory_equal(body.data, raw.data, raw.len);
					assert_int_equal(session_decode(body.data, body.len, &out, &why), 0);
					assert_string_equal(out.user, "t1");
					assert_string_equal(out.service, "ruas");
					assert_string_equal(out.ruser, "sup");
					assert_string_equal(out.tty, ttys[t]);
					assert_int_equal(out.mode, mode);
					assert_string_equal(out.helper, HELPER);
					assert_int_equal(out.lifetime, l);
					assert_int_equal(out.grace_seconds, GRACE);
					assert_string_equal(out.person, "alice");
					assert_int_equal(out.keep_cgroup, keep);
					assert_int_equal(session_encode(&out, &again), 0);
					assert_int_equal(again.len, body.len);
					assert_memory_equal(again.data, body.data, body.len);
					session_free(&out);
					assert_zeroed(&out);
					buf_free(&body);
					buf_free(&again);
					buf_free(&raw);
				}
	}
	keep = 1;
	/* No tty is "", and no person too. */
	struct session in = session_of(NULL, SESSION_EXEC, LIFETIME_AUTO), out;
	struct buf body = BUF_INIT;
	const char *why = NULL;
	in.person = NULL;
	assert_int_equal(session_encode(&in, &body), 0);
	assert_int_equal(session_decode(body.data, body.len, &out, &why), 0);
	assert_string_equal(out.tty, "");
	assert_string_equal(out.person, "");
	session_free(&out);
	buf_free(&body);
}

static void test_truncations_and_trailing_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_session(&raw, PAYLOAD_VERSION, "t1", "/dev/pts/1", SESSION_CHECK, HELPER, 0);
	for (size_t n = 0; n < raw.len; n++) {
		struct session s;
		const char *why = NULL;
		if (session_decode(raw.data, n, &s, &why) == 0) {
			session_free(&s);
			fail_msg("a session cut to %zu of its %zu bytes was accepted", n, raw.len);
		}
		assert_non_null(why);
		assert_zeroed(&s);
	}
	assert_int_equal(buf_addc(&raw, 0), 0);
	assert_refused(&raw, "trailing");
	buf_free(&raw);
}

static void test_header_and_version(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_session(&raw, PAYLOAD_VERSION, "t1", "", SESSION_EXEC, HELPER, 0);
	raw.data[0] = 'r';
	assert_refused(&raw, "header");
	buf_free(&raw);
	static const int versions[] = {0, PAYLOAD_VERSION - 1, PAYLOAD_VERSION + 1, 255};
	for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
		raw = (struct buf)BUF_INIT;
		raw_session(&raw, versions[i], "t1", "", SESSION_EXEC, HELPER, 0);
		assert_refused(&raw, "version");
		buf_free(&raw);
	}
	raw = (struct buf)BUF_INIT;
	assert_int_equal(buf_add(&raw, "RUAS", 4), 0);
	assert_refused(&raw, "header");
	buf_free(&raw);
	struct session s;
	const char *why = NULL;
	assert_int_equal(session_decode(NULL, 0, &s, &why), -1);
	assert_int_equal(session_decode("RUAS", 4, &s, NULL), -1);
}

static void test_mode_and_lifetime(void **state)
{
	(void)state;
	static const uint32_t modes[] = {0, 3, 0xffffffffu};
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		struct buf raw = BUF_INIT;
		raw_session(&raw, PAYLOAD_VERSION, "t1", "", modes[i], HELPER, 0);
		assert_refused(&raw, "mode");
		buf_free(&raw);
	}
	static const uint32_t lifetimes[] = {LIFETIME_AUTO + 1, 7, 0xffffffffu};
	for (size_t i = 0; i < sizeof lifetimes / sizeof lifetimes[0]; i++) {
		struct buf raw = BUF_INIT;
		raw_session(&raw, PAYLOAD_VERSION, "t1", "", SESSION_EXEC, HELPER, lifetimes[i]);
		assert_refused(&raw, "lifetime");
		buf_free(&raw);
	}	/* keep_cgroup is a yes or a no: anything else is no session of this release's. */
	static const uint32_t keeps[] = {2, 0x100, 0xffffffffu};
	for (size_t i = 0; i < sizeof keeps / sizeof keeps[0]; i++) {
		struct buf raw = BUF_INIT;
		keep = keeps[i];
		raw_session(&raw, PAYLOAD_VERSION, "t1", "", SESSION_EXEC, HELPER, 0);
		assert_refused(&raw, "keep_cgroup");
		buf_free(&raw);
	}
	keep = 1;
}

/*
 * The session's tty (PAM_TTY) crosses exactly when it is "" or a /dev/
 * name of printable bytes; anything else, a line break that would forge a
 * log line of a PAM module's for instance, refuses the whole session.
 */
static void test_session_tty(void **state)
{
	(void)state;
	static const struct {
		const char *tty;
		int ok;
	} cases[] = {
		{"", 1},
		{"/dev/pts/3", 1},
		{"/dev/tty1", 1},
		{"/dev/pts/3\nFAKE: session opened for user root", 0},
		{"/dev/pts/3 x", 0},
		{"/dev/pts/\033[2J", 0},
		{"/dev/../etc/shadow", 0},
		{"/etc/passwd", 0},
		{"pts/3", 0},
		{"/dev/pts/3\x7f", 0},
		{"/dev/pts/\x9b" "2J", 0},
		{"/dev/pts/\xc3\xa9", 0},
		{"/dev/pts/..", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct session in = session_of(cases[i].tty, SESSION_EXEC, 0), out;
		struct buf body = BUF_INIT;
		const char *why = NULL;
		assert_int_equal(session_tty_ok(cases[i].tty), cases[i].ok);
		assert_int_equal(session_encode(&in, &body), 0);
		if (cases[i].ok) {
			assert_int_equal(session_decode(body.data, body.len, &out, &why), 0);
			assert_string_equal(out.tty, cases[i].tty);
			session_free(&out);
		} else {
			assert_int_equal(session_decode(body.data, body.len, &out, &why), -1);
			assert_non_null(strstr(why, "tty"));
			assert_zeroed(&out);
		}
		buf_free(&body);
	}
	char longest[300] = "/dev/";
	memset(longest + 5, 'p', 250);
	assert_int_equal(session_tty_ok(longest), 1);
	longest[255] = 'p';
	assert_int_equal(session_tty_ok(longest), 0);
	/* A NUL inside the tty is no shorter tty. */
	struct buf raw = BUF_INIT;
	assert_int_equal(buf_add(&raw, "RUAS", 4), 0);
	assert_int_equal(buf_addc(&raw, PAYLOAD_VERSION), 0);
	raw_str(&raw, "t1");
	raw_str(&raw, "ruas");
	raw_str(&raw, "sup");
	raw_bytes(&raw, "/dev/pts/1\0\nroot", 16);
	raw_u32(&raw, SESSION_EXEC);
	raw_str(&raw, HELPER);
	raw_u32(&raw, 0);
	assert_refused(&raw, "NUL");
	buf_free(&raw);
}

static void test_helper_and_strings(void **state)
{
	(void)state;
	static const char *const rel[] = {"", "ruas-exec", "./ruas-exec", "usr/libexec/ruas/ruas-exec"};
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		struct buf raw = BUF_INIT;
		raw_session(&raw, PAYLOAD_VERSION, "t1", "", SESSION_EXEC, rel[i], 0);
		assert_refused(&raw, "helper path is not absolute");
		buf_free(&raw);
	}
	struct buf raw = BUF_INIT;
	assert_int_equal(buf_add(&raw, "RUAS", 4), 0);
	assert_int_equal(buf_addc(&raw, PAYLOAD_VERSION), 0);
	raw_bytes(&raw, "t1\0root", 7);
	assert_refused(&raw, "NUL");
	buf_free(&raw);
	raw = (struct buf)BUF_INIT;
	assert_int_equal(buf_add(&raw, "RUAS", 4), 0);
	assert_int_equal(buf_addc(&raw, PAYLOAD_VERSION), 0);
	raw_u32(&raw, 0x7fffffffu);
	assert_int_equal(buf_add(&raw, "t1", 2), 0);
	assert_refused(&raw, "exceeds");
	buf_free(&raw);
}

static void test_encode_refuses(void **state)
{
	(void)state;
	struct buf body = BUF_INIT;
	assert_int_equal(buf_adds(&body, "kept"), 0);
	struct session s = session_of("", SESSION_EXEC, 0);
	s.user = NULL;
	assert_int_equal(session_encode(&s, &body), -1);
	assert_string_equal(body.data, "kept");
	s = session_of("", SESSION_EXEC, 0);
	s.service = NULL;
	assert_int_equal(session_encode(&s, &body), -1);
	s = session_of("", SESSION_EXEC, 0);
	s.ruser = NULL;
	assert_int_equal(session_encode(&s, &body), -1);
	s = session_of("", SESSION_EXEC, 0);
	s.helper = NULL;
	assert_int_equal(session_encode(&s, &body), -1);
	assert_string_equal(body.data, "kept");
	assert_int_equal(body.len, 4);
	buf_free(&body);
}

/*
 * A SESSION and a PAYLOAD share the "RUAS" header and the version: each
 * decoder refuses the other's body, so that neither helper takes the
 * other's message for its own.
 */
static void test_not_a_payload(void **state)
{
	(void)state;
	struct session s = session_of("", SESSION_CHECK, 0), so;
	struct buf sb = BUF_INIT, pb = BUF_INIT;
	assert_int_equal(session_encode(&s, &sb), 0);
	struct payload p, po;
	char *argv[] = {"cmd", NULL};
	memset(&p, 0, sizeof p);
	p.kind = PAYLOAD_EXEC;
	p.user = "t1";
	p.helper = HELPER;
	p.work_dir = "/w";
	p.argv = argv;
	p.argc = 1;
	assert_int_equal(payload_encode(&p, &pb), 0);
	const char *why = NULL;
	assert_int_equal(payload_decode(sb.data, sb.len, &po, &why), -1);
	assert_non_null(why);
	assert_int_equal(session_decode(pb.data, pb.len, &so, &why), -1);
	assert_non_null(why);
	/* A check payload too. */
	buf_free(&pb);
	pb = (struct buf)BUF_INIT;
	memset(&p, 0, sizeof p);
	p.kind = PAYLOAD_CHECK;
	p.user = "t1";
	p.sudo_path = "/usr/bin/sudo";
	assert_int_equal(payload_encode(&p, &pb), 0);
	assert_int_equal(session_decode(pb.data, pb.len, &so, &why), -1);
	buf_free(&sb);
	buf_free(&pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncations_and_trailing_refused),
		cmocka_unit_test(test_header_and_version),
		cmocka_unit_test(test_mode_and_lifetime),
		cmocka_unit_test(test_session_tty),
		cmocka_unit_test(test_helper_and_strings),
		cmocka_unit_test(test_encode_refuses),
		cmocka_unit_test(test_not_a_payload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
