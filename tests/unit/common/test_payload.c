/*
 * test_payload.c - the hex payload that crosses sudo -i (src/common/proto/payload.h).
 *
 * Round trips with random bytes, strictness of the decoder on crafted and
 * truncated input, and the property sudo -i relies on: the encoding is made
 * only of [0-9a-f], bytes that sudo passes through without escaping.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "buf.h"
#include "payload.h"

#define RANDOM_ITERATIONS 2000
#define RANDOM_SEED 0x5eed1234abcdULL

/* ------------------------------------------------------------ helpers */

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static size_t rng_below(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

/* A string of random length minlen..maxlen, bytes 1..255. */
static char *rand_str(size_t minlen, size_t maxlen)
{
	size_t len = minlen + rng_below(maxlen - minlen + 1);
	char *s = malloc(len + 1);
	assert_non_null(s);
	for (size_t i = 0; i < len; i++)
		s[i] = (char)(1 + rng_below(255));
	s[len] = '\0';
	return s;
}

static char **rand_strv(size_t n, size_t maxlen)
{
	char **v = calloc(n + 1, sizeof *v);
	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = rand_str(0, maxlen);
	return v;
}

/* Frees a payload built by the test (same layout as a decoded one). */
static void free_built(struct payload *p)
{
	payload_free(p);
}

static void build_random_exec(struct payload *p, size_t maxlen)
{
	memset(p, 0, sizeof *p);
	p->kind = PAYLOAD_EXEC;
	p->work_dir = rand_str(0, maxlen);
	p->nenv = rng_below(9);
	p->env_names = rand_strv(p->nenv, maxlen);
	p->env_values = rand_strv(p->nenv, maxlen);
	p->argc = 1 + rng_below(8);
	p->argv = rand_strv(p->argc, maxlen);
	free(p->argv[0]);
	p->argv[0] = rand_str(1, maxlen > 0 ? maxlen : 1); /* argv[0] non-empty */
	p->supervisor_pid = (unsigned int)rng();
	p->supervisor_start = (unsigned long long)rng() << 32 | (unsigned int)rng();
	p->grace_seconds = (unsigned int)rng();
	p->scope = rand_str(0, maxlen);
	p->exec_flags = (unsigned int)rng();
	p->person = rand_str(0, maxlen);
	p->ndeny = rng_below(5);
	p->deny = rand_strv(p->ndeny, maxlen);
	p->lifetime = (unsigned int)rng_below(3);
	p->root = rand_str(0, maxlen);
	static const char hex[] = "0123456789abcdef";
	p->run_id = calloc(33, 1);
	assert_non_null(p->run_id);
	for (size_t i = 0; rng_below(2) && i < 32; i++)
		p->run_id[i] = hex[rng_below(16)];
	if (strlen(p->run_id) != 32)
		p->run_id[0] = '\0';
	static const unsigned int facilities[] = {0, (LOG_AUTHPRIV >> 3) + 1, (LOG_USER >> 3) + 1,
						  (LOG_LOCAL7 >> 3) + 1};
	p->audit_facility = facilities[rng_below(4)];
}

static void build_random_check(struct payload *p, size_t maxlen)
{
	memset(p, 0, sizeof *p);
	p->kind = PAYLOAD_CHECK;
	p->nonce = rand_str(0, maxlen);
	p->sudo_path = rand_str(0, maxlen);
	p->scan_cap = (unsigned int)rng();
	p->scan_seconds = (unsigned int)rng();
	p->ndirs = rng_below(6);
	p->dirs = calloc(p->ndirs + 1, sizeof *p->dirs);
	assert_non_null(p->dirs);
	for (size_t i = 0; i < p->ndirs; i++) {
		p->dirs[i].work_dir = rand_str(0, maxlen);
		p->dirs[i].nprune = rng_below(6);
		p->dirs[i].prune = rand_strv(p->dirs[i].nprune, maxlen);
		p->dirs[i].scope = rand_str(0, maxlen);
	}
	p->check_flags = (unsigned int)rng();
	p->nprobes = rng_below(5);
	p->probes = rand_strv(p->nprobes, maxlen);
	p->nanchors = rng_below(5);
	p->anchors = rand_strv(p->nanchors, maxlen);
}

static void assert_only_lower_hex(const struct buf *b)
{
	assert_non_null(b->data);
	assert_int_equal(strlen(b->data), b->len);
	assert_int_equal(b->len % 2, 0);
	for (size_t i = 0; i < b->len; i++) {
		char c = b->data[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			fail_msg("byte %zu of the encoding is 0x%02x, not [0-9a-f]", i,
				 (unsigned char)c);
	}
}

static void assert_strv_equal(char **a, char **b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		assert_non_null(a[i]);
		assert_non_null(b[i]);
		assert_string_equal(a[i], b[i]);
	}
}

static void assert_payload_equal(const struct payload *want, const struct payload *got)
{
	assert_int_equal(got->kind, want->kind);
	if (want->kind == PAYLOAD_EXEC) {
		assert_string_equal(got->work_dir, want->work_dir);
		assert_int_equal(got->nenv, want->nenv);
		assert_strv_equal(got->env_names, want->env_names, want->nenv);
		assert_strv_equal(got->env_values, want->env_values, want->nenv);
		assert_int_equal(got->argc, want->argc);
		assert_strv_equal(got->argv, want->argv, want->argc);
		assert_null(got->argv[got->argc]);
		assert_int_equal(got->supervisor_pid, want->supervisor_pid);
		assert_true(got->supervisor_start == want->supervisor_start);
		assert_int_equal(got->grace_seconds, want->grace_seconds);
		assert_string_equal(got->scope, want->scope ? want->scope : "");
		assert_int_equal(got->exec_flags, want->exec_flags);
		assert_string_equal(got->person, want->person ? want->person : "");
		assert_int_equal(got->ndeny, want->ndeny);
		assert_strv_equal(got->deny, want->deny, want->ndeny);
		assert_int_equal(got->lifetime, want->lifetime);
		assert_string_equal(got->root, want->root ? want->root : "");
		assert_string_equal(got->run_id, want->run_id ? want->run_id : "");
		assert_int_equal(got->audit_facility, want->audit_facility);
		assert_null(got->nonce);
		assert_null(got->dirs);
	} else {
		assert_string_equal(got->nonce, want->nonce);
		assert_string_equal(got->sudo_path, want->sudo_path);
		assert_int_equal(got->scan_cap, want->scan_cap);
		assert_int_equal(got->scan_seconds, want->scan_seconds);
		assert_int_equal(got->ndirs, want->ndirs);
		for (size_t i = 0; i < want->ndirs; i++) {
			assert_string_equal(got->dirs[i].work_dir, want->dirs[i].work_dir);
			assert_int_equal(got->dirs[i].nprune, want->dirs[i].nprune);
			assert_strv_equal(got->dirs[i].prune, want->dirs[i].prune,
					  want->dirs[i].nprune);
			assert_null(got->dirs[i].prune[got->dirs[i].nprune]);
			assert_string_equal(got->dirs[i].scope,
					    want->dirs[i].scope ? want->dirs[i].scope : "");
		}
		assert_int_equal(got->check_flags, want->check_flags);
		assert_int_equal(got->nprobes, want->nprobes);
		assert_strv_equal(got->probes, want->probes, want->nprobes);
		assert_int_equal(got->nanchors, want->nanchors);
		assert_strv_equal(got->anchors, want->anchors, want->nanchors);
		assert_null(got->anchors[got->nanchors]);
		assert_null(got->work_dir);
		assert_null(got->argv);
	}
}

/* Every proper prefix of a valid encoding must be refused. */
static void assert_all_prefixes_refused(const char *hex, size_t len)
{
	char *pre = malloc(len + 1);
	assert_non_null(pre);
	for (size_t n = 0; n < len; n++) {
		struct payload p;
		const char *why = NULL;
		memcpy(pre, hex, n);
		pre[n] = '\0';
		if (payload_decode(pre, &p, &why) == 0) {
			payload_free(&p);
			free(pre);
			fail_msg("a payload truncated to %zu of %zu hex digits was accepted",
				 n, len);
		}
		assert_non_null(why);
		/* payload_decode leaves *out zeroed on failure. */
		assert_null(p.work_dir);
		assert_null(p.argv);
		assert_null(p.dirs);
		assert_null(p.nonce);
	}
	free(pre);
}

/* ---------------------------------------------------------- raw crafting */

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

static void raw_header(struct buf *b, int version, int kind)
{
	assert_int_equal(buf_add(b, "RUAS", 4), 0);
	assert_int_equal(buf_addc(b, (char)version), 0);
	assert_int_equal(buf_addc(b, (char)kind), 0);
}

/* Decodes hex(raw); returns the decoder's result, frees what it made. */
static int decode_raw(const struct buf *raw, const char **why)
{
	struct buf hex = BUF_INIT;
	struct payload p;
	assert_int_equal(hex_encode(&hex, raw->data, raw->len), 0);
	*why = NULL;
	int r = payload_decode(hex.data, &p, why);
	if (r == 0)
		payload_free(&p);
	buf_free(&hex);
	return r;
}

static void assert_raw_refused(const struct buf *raw, const char *reason_part)
{
	const char *why = NULL;
	assert_int_equal(decode_raw(raw, &why), -1);
	assert_non_null(why);
	if (reason_part && !strstr(why, reason_part))
		fail_msg("refused for \"%s\", expected a reason containing \"%s\"", why,
			 reason_part);
}

/* A valid EXEC body up to its root (version 8's whole body): work_dir "/w", no env, argv {"cmd"}. */
static void raw_exec_to_root(struct buf *b)
{
	raw_header(b, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(b, "/w");
	raw_str(b, "");         /* scope: none */
	raw_u32(b, 0);
	raw_u32(b, 1);
	raw_str(b, "cmd");
	raw_u32(b, 4242);       /* supervisor pid */
	raw_u32(b, 1);          /* its start time, high and low words */
	raw_u32(b, 0x80000002u);
	raw_u32(b, 5);          /* grace */
	raw_u32(b, 0);          /* exec flags */
	raw_str(b, "");         /* person */
	raw_u32(b, 0);          /* deny paths */
	raw_u32(b, LIFETIME_PIDNS);
	raw_str(b, "");         /* root: none, work_dir is the project's */
}

/* raw_exec_to_root(), then version 9's run id and audit facility. */
static void raw_exec_with_run(struct buf *b, const char *run_id, unsigned int facility)
{
	raw_exec_to_root(b);
	raw_str(b, run_id);
	raw_u32(b, facility);
}

/* A valid EXEC body, whole. */
static void raw_valid_exec(struct buf *b)
{
	raw_exec_with_run(b, "0123456789abcdef0123456789abcdef", (LOG_AUTHPRIV >> 3) + 1);
}

/* A run id is "" or 32 lower-case hex digits; the facility one syslog has, plus 1, or 0. */
static void test_run_id_and_facility_checked(void **state)
{
	(void)state;
	static const char *const bad_ids[] = {
		"0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcde",
		"0123456789abcdef0123456789abcdef0", "0123456789abcdef0123456789abcde\n",
		"../../../../etc/passwd0123456789a", "0123456789abcdef 123456789abcdef"};
	for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
		struct buf raw = BUF_INIT;
		raw_exec_with_run(&raw, bad_ids[i], 1);
		assert_raw_refused(&raw, "run id");
		buf_free(&raw);
	}
	struct buf raw = BUF_INIT;
	raw_exec_with_run(&raw, "0123456789abcdef0123456789abcdef", (LOG_LOCAL7 >> 3) + 2);
	assert_raw_refused(&raw, "audit facility");
	buf_free(&raw);
	const char *why;
	raw_exec_with_run(&raw, "", 0);
	assert_int_equal(decode_raw(&raw, &why), 0);
	buf_free(&raw);
	raw_exec_with_run(&raw, "ffffffffffffffffffffffffffffffff", (LOG_LOCAL7 >> 3) + 1);
	assert_int_equal(decode_raw(&raw, &why), 0);
	buf_free(&raw);
}

/*
 * The library only ever sends audit_facility's twelve (authpriv, auth,
 * daemon, user, local0..local7), plus 1: the helper, which then writes to
 * /dev/log at that facility, takes no other (kern, mail, cron, ...).
 */
static void test_facility_only_the_configurable_ones(void **state)
{
	(void)state;
	static const int never[] = {LOG_KERN, LOG_MAIL, LOG_LPR, LOG_NEWS, LOG_UUCP, LOG_CRON,
				    LOG_FTP};
	for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
		struct buf raw = BUF_INIT;
		raw_exec_with_run(&raw, "0123456789abcdef0123456789abcdef",
				  (unsigned int)(never[i] >> 3) + 1);
		assert_raw_refused(&raw, "audit facility");
		buf_free(&raw);
	}
}

/* ------------------------------------------------------------- hex */

static void test_hex_round_trip_all_bytes(void **state)
{
	(void)state;
	unsigned char all[256];
	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	struct buf hex = BUF_INIT, back = BUF_INIT;
	assert_int_equal(hex_encode(&hex, all, sizeof all), 0);
	assert_int_equal(hex.len, 512);
	assert_only_lower_hex(&hex);
	assert_memory_equal(hex.data, "000102", 6);
	assert_string_equal(hex.data + 500, "fafbfcfdfeff");
	assert_int_equal(hex_decode(hex.data, hex.len, &back), 0);
	assert_int_equal(back.len, 256);
	assert_memory_equal(back.data, all, 256);
	buf_free(&hex);
	buf_free(&back);
}

static void test_hex_known_values(void **state)
{
	(void)state;
	struct buf hex = BUF_INIT;
	const unsigned char in[] = {0x00, 0xff, 0x1b, 0x41, 0x0a, 0x9c};
	assert_int_equal(hex_encode(&hex, in, sizeof in), 0);
	assert_string_equal(hex.data, "00ff1b410a9c");
	/* hex_encode appends. */
	assert_int_equal(hex_encode(&hex, "\x01", 1), 0);
	assert_string_equal(hex.data, "00ff1b410a9c01");
	buf_free(&hex);

	struct buf empty = BUF_INIT;
	assert_int_equal(hex_encode(&empty, "", 0), 0);
	assert_int_equal(empty.len, 0);
	buf_free(&empty);
}

static void test_hex_decode_rejects(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"AB", "aB", "Ab", "0A", "abc", "a", "0g", "g0", "zz", " 0", "0 ",
		"00 ", "-1", "0x", "ab\ncd", "ab:c", NULL};
	for (const char *const *s = bad; *s; s++) {
		struct buf out = BUF_INIT;
		if (hex_decode(*s, strlen(*s), &out) == 0) {
			buf_free(&out);
			fail_msg("hex_decode accepted \"%s\"", *s);
		}
		buf_free(&out);
	}
	struct buf ok = BUF_INIT;
	assert_int_equal(hex_decode("", 0, &ok), 0);
	assert_int_equal(ok.len, 0);
	assert_int_equal(hex_decode("4a6b", 4, &ok), 0);
	assert_int_equal(ok.len, 2);
	assert_memory_equal(ok.data, "Jk", 2);
	buf_free(&ok);
}

/*
 * buf.h promises that data is "always NUL-terminated when non-NULL". A
 * hex_decode that fails half-way must not leave the buffer unterminated
 * (or holding half a decode).
 */
static void test_hex_decode_failure_keeps_buffer_terminated(void **state)
{
	(void)state;
	struct buf out = BUF_INIT;
	/* Make the spare capacity hold non-NUL bytes. */
	assert_int_equal(buf_adds(&out, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"), 0);
	buf_reset(&out);
	assert_int_equal(out.len, 0);
	assert_int_equal(hex_decode("4142zz", 6, &out), -1);
	assert_non_null(out.data);
	size_t len = out.len;
	unsigned char at_len = (unsigned char)out.data[out.len];
	buf_free(&out);
	if (at_len != '\0')
		fail_msg("after a failed hex_decode the buffer has len %zu and "
			 "data[len] = 0x%02x, not NUL (buf.h invariant broken)",
			 len, at_len);
}

/* -------------------------------------------------------- round trips */

static void test_payload_random_round_trip(void **state)
{
	(void)state;
	rng_state = RANDOM_SEED;
	for (int it = 0; it < RANDOM_ITERATIONS; it++) {
		struct payload in, out;
		struct buf hex = BUF_INIT;
		const char *why = "not set";
		if (it % 2)
			build_random_check(&in, 300);
		else
			build_random_exec(&in, 300);
		assert_int_equal(payload_encode(&in, &hex), 0);
		assert_only_lower_hex(&hex);
		if (payload_decode(hex.data, &out, &why) != 0)
			fail_msg("iteration %d (seed %#llx): decode failed: %s", it,
				 (unsigned long long)RANDOM_SEED, why);
		assert_payload_equal(&in, &out);
		payload_free(&out);
		buf_free(&hex);
		free_built(&in);
	}
}

/* One payload holding every byte value 1..255 in one string. */
static void test_payload_every_byte_value(void **state)
{
	(void)state;
	char all[256];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	char *argv[] = {all, "", all, NULL};
	char *names[] = {all};
	char *values[] = {""};
	struct payload in = {0}, out;
	in.kind = PAYLOAD_EXEC;
	in.work_dir = all;
	in.env_names = names;
	in.env_values = values;
	in.nenv = 1;
	in.argv = argv;
	in.argc = 3;
	struct buf hex = BUF_INIT;
	const char *why = NULL;
	assert_int_equal(payload_encode(&in, &hex), 0);
	assert_only_lower_hex(&hex);
	assert_int_equal(payload_decode(hex.data, &out, &why), 0);
	assert_payload_equal(&in, &out);
	assert_int_equal(strlen(out.argv[0]), 255);
	assert_string_equal(out.argv[1], "");
	payload_free(&out);
	buf_free(&hex);
}

static void test_payload_truncations_refused(void **state)
{
	(void)state;
	rng_state = RANDOM_SEED ^ 0xabcdef;
	for (int it = 0; it < 24; it++) {
		struct payload in;
		struct buf hex = BUF_INIT;
		if (it % 2)
			build_random_check(&in, 24);
		else
			build_random_exec(&in, 24);
		assert_int_equal(payload_encode(&in, &hex), 0);
		assert_all_prefixes_refused(hex.data, hex.len);
		buf_free(&hex);
		free_built(&in);
	}
	/* And a minimal handcrafted one. */
	struct buf raw = BUF_INIT, hex = BUF_INIT;
	raw_valid_exec(&raw);
	assert_int_equal(hex_encode(&hex, raw.data, raw.len), 0);
	assert_all_prefixes_refused(hex.data, hex.len);
	buf_free(&raw);
	buf_free(&hex);
}

static void test_payload_encode_refuses_invalid(void **state)
{
	(void)state;
	struct buf hex = BUF_INIT;
	struct payload p = {0};
	p.kind = PAYLOAD_EXEC;
	p.work_dir = "/w";
	p.argc = 0;
	p.argv = NULL;
	assert_int_equal(payload_encode(&p, &hex), -1);
	p.kind = 7;
	assert_int_equal(payload_encode(&p, &hex), -1);
	/* A NULL string where one is required. */
	char *argv[] = {"x", NULL};
	p.kind = PAYLOAD_EXEC;
	p.work_dir = NULL;
	p.argv = argv;
	p.argc = 1;
	assert_int_equal(payload_encode(&p, &hex), -1);
	buf_free(&hex);
}

/* --------------------------------------------------- crafted refusals */

static void test_crafted_valid_is_accepted(void **state)
{
	(void)state;
	/* Proves the crafting helpers match the format, so refusals below mean something. */
	struct buf raw = BUF_INIT, hex = BUF_INIT;
	struct payload p;
	const char *why = NULL;
	raw_valid_exec(&raw);
	assert_int_equal(hex_encode(&hex, raw.data, raw.len), 0);
	assert_int_equal(payload_decode(hex.data, &p, &why), 0);
	assert_int_equal(p.kind, PAYLOAD_EXEC);
	assert_string_equal(p.work_dir, "/w");
	assert_int_equal(p.argc, 1);
	assert_string_equal(p.argv[0], "cmd");
	assert_string_equal(p.run_id, "0123456789abcdef0123456789abcdef");
	assert_int_equal(p.audit_facility, (LOG_AUTHPRIV >> 3) + 1);
	assert_int_equal(p.lifetime, LIFETIME_PIDNS);
	assert_string_equal(p.root, "");
	payload_free(&p);
	buf_free(&raw);
	buf_free(&hex);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "n0nce");
	raw_str(&raw, "/usr/bin/sudo");
	raw_u32(&raw, 50);
	raw_u32(&raw, 60);
	raw_u32(&raw, 1);
	raw_str(&raw, "/srv/x");
	raw_str(&raw, "/srv");  /* scope */
	raw_u32(&raw, 1);
	raw_str(&raw, ".git");
	raw_u32(&raw, CHECK_BWRAP);
	raw_u32(&raw, 1);       /* probes */
	raw_str(&raw, "/secret");
	raw_u32(&raw, 2);       /* anchors */
	raw_str(&raw, "config /etc/ruas/ruas.conf");
	raw_str(&raw, "supervisor-dot /home/sup/.bashrc");
	hex = (struct buf)BUF_INIT;
	assert_int_equal(hex_encode(&hex, raw.data, raw.len), 0);
	assert_int_equal(payload_decode(hex.data, &p, &why), 0);
	assert_int_equal(p.kind, PAYLOAD_CHECK);
	assert_string_equal(p.nonce, "n0nce");
	assert_int_equal(p.scan_cap, 50);
	assert_int_equal(p.scan_seconds, 60);
	assert_int_equal(p.ndirs, 1);
	assert_string_equal(p.dirs[0].prune[0], ".git");
	assert_string_equal(p.dirs[0].scope, "/srv");
	assert_int_equal(p.check_flags, CHECK_BWRAP);
	assert_int_equal(p.nprobes, 1);
	assert_string_equal(p.probes[0], "/secret");
	assert_int_equal(p.nanchors, 2);
	assert_string_equal(p.anchors[0], "config /etc/ruas/ruas.conf");
	assert_string_equal(p.anchors[1], "supervisor-dot /home/sup/.bashrc");
	assert_null(p.anchors[2]);
	payload_free(&p);
	buf_free(&raw);
	buf_free(&hex);
}

static void test_wrong_version_refused(void **state)
{
	(void)state;
	int versions[] = {0, PAYLOAD_VERSION + 1, 255};
	for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
		struct buf raw = BUF_INIT;
		raw_header(&raw, versions[i], PAYLOAD_EXEC);
		raw_str(&raw, "/w");
		raw_str(&raw, ""); /* scope */
		raw_u32(&raw, 0);
		raw_u32(&raw, 1);
		raw_str(&raw, "cmd");
		assert_raw_refused(&raw, "version");
		buf_free(&raw);
	}
}

static void test_bad_header_or_kind_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	assert_int_equal(buf_add(&raw, "RUAX\x01\x01", 6), 0);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, "header");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, 9);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	assert_raw_refused(&raw, "kind");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, 0);
	assert_raw_refused(&raw, "kind");
	buf_free(&raw);
}

static void test_trailing_bytes_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_valid_exec(&raw);
	assert_int_equal(buf_addc(&raw, 0), 0);
	assert_raw_refused(&raw, "trailing");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_valid_exec(&raw);
	raw_str(&raw, "extra");
	assert_raw_refused(&raw, "trailing");
	buf_free(&raw);
}

static void test_counts_exceeding_data_refused(void **state)
{
	(void)state;
	/* nenv far larger than the data. */
	struct buf raw = BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0x7fffffffu);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* argc one more than there are strings. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0);
	raw_u32(&raw, 2);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, NULL);
	buf_free(&raw);

	/* argc 0xffffffff. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0);
	raw_u32(&raw, 0xffffffffu);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* ndirs and nprune too large in a CHECK payload. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "n");
	raw_str(&raw, "/s");
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_u32(&raw, 1000000);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "n");
	raw_str(&raw, "/s");
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0xfffffff0u);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* A string length beyond the data. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_u32(&raw, 1000);
	assert_int_equal(buf_add(&raw, "/w", 2), 0);
	assert_raw_refused(&raw, "exceeds");
	buf_free(&raw);
}

static void test_string_with_nul_refused(void **state)
{
	(void)state;
	/* In argv. */
	struct buf raw = BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_bytes(&raw, "c\0md", 4);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* In work_dir. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_bytes(&raw, "/w\0/etc", 7);
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* In an env value. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 1);
	raw_str(&raw, "LANG");
	raw_bytes(&raw, "C\0", 2);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* In a prune name of a CHECK payload. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "n");
	raw_str(&raw, "/s");
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 1);
	raw_bytes(&raw, "\0", 1);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);
}

/* A CHECK payload up to its anchors: no dirs, no probes. */
static void raw_check_until_anchors(struct buf *raw)
{
	raw_header(raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(raw, "n");
	raw_str(raw, "/s");
	raw_u32(raw, 1);
	raw_u32(raw, 1);
	raw_u32(raw, 0); /* dirs */
	raw_u32(raw, 0); /* flags */
	raw_u32(raw, 0); /* probes */
}

static void test_anchors_refused_when_malformed(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0x7fffffffu);
	raw_str(&raw, "config /c");
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 1);
	raw_bytes(&raw, "config /c\0/etc", 14);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* Without the anchors count (a version 4 layout under version 5). */
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	struct buf hex = BUF_INIT;
	struct payload p;
	const char *why = NULL;
	assert_int_equal(hex_encode(&hex, raw.data, raw.len), 0);
	assert_int_equal(payload_decode(hex.data, &p, &why), 0);
	assert_int_equal(p.nanchors, 0);
	assert_non_null(p.anchors);
	assert_null(p.anchors[0]);
	payload_free(&p);
	buf_free(&hex);
	buf_free(&raw);
}

/*
 * Version 7 ends an EXEC payload with the root a per-spawn work_dir must
 * resolve beneath: a version 6 layout (without it) is refused, and so is
 * a NUL inside it; a root crosses byte for byte.
 */
static void test_exec_root(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_exec_to_root(&raw);
	raw.len -= 4; /* the root's length: the version 6 layout */
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_exec_to_root(&raw);
	raw.len -= 4;
	raw_bytes(&raw, "/w\0/etc", 7);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* Version 8's layout, which ends with the root, is refused as a whole. */
	raw = (struct buf)BUF_INIT;
	raw_exec_to_root(&raw);
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	struct payload in = {0}, out;
	char *argv[] = {"cmd", NULL};
	in.kind = PAYLOAD_EXEC;
	in.work_dir = "/srv/p/sub dir";
	in.root = "/srv/p";
	in.argv = argv;
	in.argc = 1;
	struct buf hex = BUF_INIT;
	const char *why = NULL;
	assert_int_equal(payload_encode(&in, &hex), 0);
	assert_int_equal(payload_decode(hex.data, &out, &why), 0);
	assert_string_equal(out.work_dir, "/srv/p/sub dir");
	assert_string_equal(out.root, "/srv/p");
	payload_free(&out);
	buf_free(&hex);
}

static void test_empty_command_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0);
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "empty command");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0);
	raw_u32(&raw, 2);
	raw_str(&raw, "");
	raw_str(&raw, "x");
	assert_raw_refused(&raw, "empty command");
	buf_free(&raw);
}

/* The lifetime mode: one of three values, in the exec and the session payload. */

/* A session payload for t1 (PAM_RUSER root) with tty; for payload_encode(), which only reads it. */
static void session_of(struct payload *in, const char *tty)
{
	memset(in, 0, sizeof *in);
	in->kind = PAYLOAD_SESSION;
	in->user = "t1";
	in->service = "ruas";
	in->ruser = "root";
	in->tty = (char *)tty;
	in->mode = SESSION_EXEC;
	in->helper = "/usr/libexec/ruas/ruas-exec";
	in->inner = "";
}

static void test_lifetime(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, "/w");
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	for (int i = 0; i < 5; i++)
		raw_u32(&raw, 0); /* supervisor pid, start (2), grace, flags */
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_u32(&raw, 3); /* no such lifetime */
	assert_raw_refused(&raw, "lifetime");
	buf_free(&raw);

	struct payload in, out;
	struct buf hex = BUF_INIT;
	const char *why = NULL;
	session_of(&in, "");
	in.lifetime = LIFETIME_AUTO;
	assert_int_equal(payload_encode(&in, &hex), 0);
	assert_int_equal(payload_decode(hex.data, &out, &why), 0);
	assert_int_equal(out.lifetime, LIFETIME_AUTO);
	assert_string_equal(out.user, "t1");
	payload_free(&out);
	buf_free(&hex);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_SESSION);
	raw_str(&raw, "t1");
	raw_str(&raw, "ruas");
	raw_str(&raw, "root");
	raw_str(&raw, ""); /* tty */
	raw_u32(&raw, SESSION_EXEC);
	raw_str(&raw, "/x");
	raw_str(&raw, "");
	raw_u32(&raw, 7);
	assert_raw_refused(&raw, "lifetime");
	buf_free(&raw);
}

/*
 * The session's tty (PAM_TTY) crosses exactly when it is "" or a /dev/
 * name of printable bytes; anything else, a line break that would forge a
 * log line of a PAM module's for instance, refuses the whole payload.
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
		struct payload in, out;
		struct buf hex = BUF_INIT;
		const char *why = NULL;
		session_of(&in, cases[i].tty);
		assert_int_equal(payload_tty_ok(cases[i].tty), cases[i].ok);
		assert_int_equal(payload_encode(&in, &hex), 0);
		if (cases[i].ok) {
			assert_int_equal(payload_decode(hex.data, &out, &why), 0);
			assert_string_equal(out.tty, cases[i].tty);
			payload_free(&out);
		} else {
			assert_int_equal(payload_decode(hex.data, &out, &why), -1);
			assert_non_null(strstr(why, "tty"));
		}
		buf_free(&hex);
	}
	char longest[300] = "/dev/";
	memset(longest + 5, 'p', 250);
	assert_int_equal(payload_tty_ok(longest), 1);
	longest[255] = 'p';
	assert_int_equal(payload_tty_ok(longest), 0);
}

static void test_non_hex_payload_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT, hex = BUF_INIT;
	raw_valid_exec(&raw);
	assert_int_equal(hex_encode(&hex, raw.data, raw.len), 0);
	struct payload p;
	const char *why = NULL;

	/* Sanity: it decodes as is. */
	assert_int_equal(payload_decode(hex.data, &p, &why), 0);
	payload_free(&p);

	char *upper = strdup(hex.data);
	assert_non_null(upper);
	for (char *c = upper; *c; c++)
		if (*c >= 'a' && *c <= 'f')
			*c = (char)(*c - 'a' + 'A');
	assert_int_equal(payload_decode(upper, &p, &why), -1);
	assert_non_null(strstr(why, "hex"));
	free(upper);

	char *odd = strdup(hex.data);
	assert_non_null(odd);
	odd[strlen(odd) - 1] = '\0';
	assert_int_equal(payload_decode(odd, &p, &why), -1);
	free(odd);

	char *bad = strdup(hex.data);
	assert_non_null(bad);
	bad[10] = 'g';
	assert_int_equal(payload_decode(bad, &p, &why), -1);
	assert_non_null(strstr(why, "hex"));
	bad[10] = ' ';
	assert_int_equal(payload_decode(bad, &p, &why), -1);
	free(bad);

	assert_int_equal(payload_decode("", &p, &why), -1);
	assert_int_equal(payload_decode("52554153", &p, &why), -1); /* "RUAS" only */
	buf_free(&raw);
	buf_free(&hex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex_round_trip_all_bytes),
		cmocka_unit_test(test_hex_known_values),
		cmocka_unit_test(test_hex_decode_rejects),
		cmocka_unit_test(test_hex_decode_failure_keeps_buffer_terminated),
		cmocka_unit_test(test_payload_random_round_trip),
		cmocka_unit_test(test_payload_every_byte_value),
		cmocka_unit_test(test_payload_truncations_refused),
		cmocka_unit_test(test_payload_encode_refuses_invalid),
		cmocka_unit_test(test_crafted_valid_is_accepted),
		cmocka_unit_test(test_run_id_and_facility_checked),
		cmocka_unit_test(test_facility_only_the_configurable_ones),
		cmocka_unit_test(test_wrong_version_refused),
		cmocka_unit_test(test_bad_header_or_kind_refused),
		cmocka_unit_test(test_trailing_bytes_refused),
		cmocka_unit_test(test_counts_exceeding_data_refused),
		cmocka_unit_test(test_string_with_nul_refused),
		cmocka_unit_test(test_empty_command_refused),
		cmocka_unit_test(test_exec_root),
		cmocka_unit_test(test_anchors_refused_when_malformed),
		cmocka_unit_test(test_session_tty),
		cmocka_unit_test(test_non_hex_payload_refused),
		cmocka_unit_test(test_lifetime),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
