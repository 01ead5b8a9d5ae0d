/* SPDX-License-Identifier: ISC */
/*
 * test_payload.c - PAYLOAD, the helper's first message on the spawn
 * channel (src/proto/payload.h): binary, never on a command line.
 *
 * Round trips with random bytes (and the decoded payload encodes back to
 * the very same bytes), every byte value crossing, strictness of the
 * decoder on crafted and truncated input (each refusal with its reason):
 * truncated bodies, counts exceeding the body, a NUL inside a string,
 * trailing bytes, an unknown version, kind, flag or lifetime, a bad run id
 * or facility, a relative helper path; and the encoder refusing what may
 * not be sent, leaving nothing half-written.
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
#define HELPER "/usr/libexec/ruas/ruas-exec"

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

/* An absolute path of random bytes: "/" and up to maxlen more. */
static char *rand_abs(size_t maxlen)
{
	char *rest = rand_str(0, maxlen);
	char *s = malloc(strlen(rest) + 2);
	assert_non_null(s);
	s[0] = '/';
	memcpy(s + 1, rest, strlen(rest) + 1);
	free(rest);
	return s;
}

/* A user name of random bytes: never empty, no '/' (what the decoder takes). */
static char *rand_user(size_t maxlen)
{
	char *s = rand_str(1, maxlen > 0 ? maxlen : 1);
	for (char *c = s; *c; c++)
		if (*c == '/')
			*c = 'u';
	return s;
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
	p->user = rand_user(maxlen);
	p->helper = rand_abs(maxlen);
	p->shell = rand_str(0, maxlen);
	p->home = rand_str(0, maxlen);
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
	p->exec_flags = (unsigned int)rng() & EXEC_FLAGS_ALL;
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
	p->user = rand_user(maxlen);
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
	p->check_flags = (unsigned int)rng() & CHECK_FLAGS_ALL;
	p->nprobes = rng_below(5);
	p->probes = rand_strv(p->nprobes, maxlen);
	p->nanchors = rng_below(5);
	p->anchors = rand_strv(p->nanchors, maxlen);
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
	assert_string_equal(got->user, want->user);
	if (want->kind == PAYLOAD_EXEC) {
		assert_string_equal(got->helper, want->helper);
		assert_string_equal(got->shell, want->shell ? want->shell : "");
		assert_string_equal(got->home, want->home ? want->home : "");
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
		assert_null(got->deny[got->ndeny]);
		assert_int_equal(got->lifetime, want->lifetime);
		assert_string_equal(got->root, want->root ? want->root : "");
		assert_string_equal(got->run_id, want->run_id ? want->run_id : "");
		assert_int_equal(got->audit_facility, want->audit_facility);
		assert_null(got->sudo_path);
		assert_null(got->dirs);
	} else {
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
		assert_null(got->helper);
		assert_null(got->shell);
		assert_null(got->home);
		assert_null(got->work_dir);
		assert_null(got->argv);
	}
}

/* payload_decode leaves *out zeroed on failure. */
static void assert_zeroed(const struct payload *p)
{
	struct payload zero;
	memset(&zero, 0, sizeof zero);
	assert_memory_equal(p, &zero, sizeof zero);
}

/* Every proper prefix of a valid body must be refused, with a reason. */
static void assert_all_prefixes_refused(const char *data, size_t len)
{
	for (size_t n = 0; n < len; n++) {
		struct payload p;
		const char *why = NULL;
		if (payload_decode(data, n, &p, &why) == 0) {
			payload_free(&p);
			fail_msg("a payload cut to %zu of its %zu bytes was accepted", n, len);
		}
		assert_non_null(why);
		assert_zeroed(&p);
	}
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

/* "RUAS", version, kind, and the user name both kinds carry. */
static void raw_header(struct buf *b, int version, int kind)
{
	assert_int_equal(buf_add(b, "RUAS", 4), 0);
	assert_int_equal(buf_addc(b, (char)version), 0);
	assert_int_equal(buf_addc(b, (char)kind), 0);
	raw_str(b, "t1");
}

/* Decodes raw; returns the decoder's result, frees what it made. */
static int decode_raw(const struct buf *raw, const char **why)
{
	struct payload p;
	*why = NULL;
	int r = payload_decode(raw->data, raw->len, &p, why);
	if (r == 0)
		payload_free(&p);
	else
		assert_zeroed(&p);
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

/* An EXEC body's start: header, helper, shell, home, work_dir "/w", no scope. */
static void raw_exec_head(struct buf *b, const char *helper)
{
	raw_header(b, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(b, helper);
	raw_str(b, "/bin/sh");
	raw_str(b, "/home/t1");
	raw_str(b, "/w");
	raw_str(b, ""); /* scope: none */
}

/* An EXEC body up to its exec flags: no env, argv {"cmd"}. */
static void raw_exec_to_flags(struct buf *b)
{
	raw_exec_head(b, HELPER);
	raw_u32(b, 0);
	raw_u32(b, 1);
	raw_str(b, "cmd");
	raw_u32(b, 4242);       /* supervisor pid */
	raw_u32(b, 1);          /* its start time, high and low words */
	raw_u32(b, 0x80000002u);
	raw_u32(b, 5);          /* grace */
}

/* A valid EXEC body up to its root, with these flags and this lifetime. */
static void raw_exec_to_root_with(struct buf *b, uint32_t flags, uint32_t lifetime)
{
	raw_exec_to_flags(b);
	raw_u32(b, flags);      /* exec flags */
	raw_str(b, "");         /* person */
	raw_u32(b, 0);          /* deny paths */
	raw_u32(b, lifetime);
	raw_str(b, "");         /* root: none, work_dir is the project's */
}

static void raw_exec_to_root(struct buf *b)
{
	raw_exec_to_root_with(b, 0, LIFETIME_PIDNS);
}

/* The cgroup and credential gate that raw_rlimits() ends an EXEC body with (a test may change them). */
static const char *raw_cgroup = "";
static const char *raw_credentials = "";

/*
 * What ends an EXEC body: the rlimits, nofile and fsize (64-bit) and
 * core_dumps, then the run's cgroup and its credential gate.
 */
static void raw_rlimits(struct buf *b, uint64_t nofile, uint64_t fsize, uint32_t core)
{
	raw_u32(b, (uint32_t)(nofile >> 32));
	raw_u32(b, (uint32_t)nofile);
	raw_u32(b, (uint32_t)(fsize >> 32));
	raw_u32(b, (uint32_t)fsize);
	raw_u32(b, core);
	raw_str(b, raw_cgroup);
	raw_str(b, raw_credentials);
	raw_u32(b, 0); /* no git hosts */
}

/* raw_exec_to_root(), then the run id and the audit facility, and no rlimits. */
static void raw_exec_with_run(struct buf *b, const char *run_id, unsigned int facility)
{
	raw_exec_to_root(b);
	raw_str(b, run_id);
	raw_u32(b, facility);
	raw_rlimits(b, 0, 0, 0);
}

/* A valid EXEC body, whole. */
static void raw_valid_exec(struct buf *b)
{
	raw_exec_with_run(b, "0123456789abcdef0123456789abcdef", (LOG_AUTHPRIV >> 3) + 1);
}

/* A CHECK body up to its flags: one dir "/w" (no scope, no prune). */
static void raw_check_to_flags(struct buf *b)
{
	raw_header(b, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(b, "/usr/bin/sudo");
	raw_u32(b, 50);
	raw_u32(b, 60);
	raw_u32(b, 1);
	raw_str(b, "/w");
	raw_str(b, "");
	raw_u32(b, 0);
}

/* A CHECK payload up to its anchors: no dirs, no probes. */
static void raw_check_until_anchors(struct buf *raw)
{
	raw_header(raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(raw, "/s");
	raw_u32(raw, 1);
	raw_u32(raw, 1);
	raw_u32(raw, 0); /* dirs */
	raw_u32(raw, 0); /* flags */
	raw_u32(raw, 0); /* probes */
}

/* --------------------------------------------------- run id, facility */

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
		assert_int_equal(payload_run_id_ok(bad_ids[i]), 0);
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
	assert_int_equal(payload_run_id_ok(""), 1);
	assert_int_equal(payload_run_id_ok("ffffffffffffffffffffffffffffffff"), 1);
	assert_int_equal(payload_facility_ok(0), 1);
	assert_int_equal(payload_facility_ok((LOG_LOCAL7 >> 3) + 2), 0);
	assert_int_equal(payload_facility_ok(0xffffffffu), 0);
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
		assert_int_equal(payload_facility_ok((unsigned int)(never[i] >> 3) + 1), 0);
	}
	static const int named[] = {LOG_AUTHPRIV, LOG_AUTH,   LOG_DAEMON, LOG_USER,
				    LOG_LOCAL0,   LOG_LOCAL1, LOG_LOCAL2, LOG_LOCAL3,
				    LOG_LOCAL4,   LOG_LOCAL5, LOG_LOCAL6, LOG_LOCAL7};
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		assert_int_equal(payload_facility_ok((unsigned int)(named[i] >> 3) + 1), 1);
}

/* -------------------------------------------------------- round trips */

/* Encodes in, decodes it, checks it is the same, and that it encodes back to the same bytes. */
static void round_trip(const struct payload *in, int it)
{
	struct payload out;
	struct buf body = BUF_INIT, again = BUF_INIT;
	const char *why = "not set";
	assert_int_equal(payload_encode(in, &body), 0);
	assert_false(body.oom);
	if (payload_decode(body.data, body.len, &out, &why) != 0)
		fail_msg("iteration %d (seed %#llx): decode failed: %s", it,
			 (unsigned long long)RANDOM_SEED, why);
	assert_payload_equal(in, &out);
	/* Canonical: one payload, one body. */
	assert_int_equal(payload_encode(&out, &again), 0);
	assert_int_equal(again.len, body.len);
	assert_memory_equal(again.data, body.data, body.len);
	payload_free(&out);
	buf_free(&body);
	buf_free(&again);
}

static void test_payload_random_round_trip(void **state)
{
	(void)state;
	rng_state = RANDOM_SEED;
	for (int it = 0; it < RANDOM_ITERATIONS; it++) {
		struct payload in;
		if (it % 2)
			build_random_check(&in, 300);
		else
			build_random_exec(&in, 300);
		round_trip(&in, it);
		free_built(&in);
	}
}

/* One payload holding every byte value 1..255 in one string; the body is binary, as it goes. */
static void test_payload_every_byte_value(void **state)
{
	(void)state;
	char all[256], helper[257];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	helper[0] = '/';
	memcpy(helper + 1, all, sizeof all);
	char *argv[] = {all, "", all, NULL};
	char *names[] = {all};
	char *values[] = {""};
	struct payload in = {0}, out;
	in.kind = PAYLOAD_EXEC;
	in.user = "t1";
	in.helper = helper;
	in.shell = all;
	in.home = all;
	in.work_dir = all;
	in.env_names = names;
	in.env_values = values;
	in.nenv = 1;
	in.argv = argv;
	in.argc = 3;
	struct buf body = BUF_INIT;
	const char *why = NULL;
	assert_int_equal(payload_encode(&in, &body), 0);
	/* Not hex, nor any other escaping: the strings' bytes are in the body as they are. */
	assert_non_null(memmem(body.data, body.len, all, 255));
	assert_int_equal(memcmp(body.data, "RUAS", 4), 0);
	assert_int_equal((unsigned char)body.data[4], PAYLOAD_VERSION);
	assert_int_equal((unsigned char)body.data[5], PAYLOAD_EXEC);
	assert_int_equal(payload_decode(body.data, body.len, &out, &why), 0);
	assert_payload_equal(&in, &out);
	assert_int_equal(strlen(out.argv[0]), 255);
	assert_string_equal(out.argv[1], "");
	payload_free(&out);
	buf_free(&body);
}

static void test_payload_truncations_refused(void **state)
{
	(void)state;
	rng_state = RANDOM_SEED ^ 0xabcdef;
	for (int it = 0; it < 24; it++) {
		struct payload in;
		struct buf body = BUF_INIT;
		if (it % 2)
			build_random_check(&in, 24);
		else
			build_random_exec(&in, 24);
		assert_int_equal(payload_encode(&in, &body), 0);
		assert_all_prefixes_refused(body.data, body.len);
		buf_free(&body);
		free_built(&in);
	}
	/* And a minimal handcrafted one. */
	struct buf raw = BUF_INIT;
	raw_valid_exec(&raw);
	assert_all_prefixes_refused(raw.data, raw.len);
	buf_free(&raw);
}

static void test_payload_encode_refuses_invalid(void **state)
{
	(void)state;
	struct buf body = BUF_INIT;
	/* What is in the buffer already stays, and only that: nothing half-written to send. */
	assert_int_equal(buf_adds(&body, "before"), 0);
	struct payload p = {0};
	char *argv[] = {"x", NULL};
	p.kind = PAYLOAD_EXEC;
	p.user = "t1";
	p.helper = HELPER;
	p.work_dir = "/w";
	p.argc = 0;
	p.argv = NULL;
	assert_int_equal(payload_encode(&p, &body), -1);
	assert_string_equal(body.data, "before");
	p.argv = argv;
	p.argc = 1;
	p.kind = 7;
	assert_int_equal(payload_encode(&p, &body), -1);
	assert_string_equal(body.data, "before");
	/* A NULL string where one is required: the work_dir, the helper. */
	p.kind = PAYLOAD_EXEC;
	p.work_dir = NULL;
	assert_int_equal(payload_encode(&p, &body), -1);
	assert_string_equal(body.data, "before");
	p.work_dir = "/w";
	p.helper = NULL;
	assert_int_equal(payload_encode(&p, &body), -1);
	assert_string_equal(body.data, "before");
	/* No user name, an empty one, one with a '/': the helper's crontab test takes it as a name. */
	p.helper = HELPER;
	const char *bad_users[] = {NULL, "", "a/b", "/"};
	for (size_t i = 0; i < sizeof bad_users / sizeof *bad_users; i++) {
		p.user = (char *)bad_users[i];
		assert_int_equal(payload_encode(&p, &body), -1);
		assert_string_equal(body.data, "before");
	}
	p.user = "t1";
	p.helper = NULL;
	/* A check payload without its sudo path. */
	struct payload c = {0};
	c.kind = PAYLOAD_CHECK;
	c.user = "t1";
	assert_int_equal(payload_encode(&c, &body), -1);
	assert_string_equal(body.data, "before");
	assert_int_equal(body.len, 6);
	/* The control: the same exec payload, whole, appends after what was there. */
	p.helper = HELPER;
	assert_int_equal(payload_encode(&p, &body), 0);
	assert_memory_equal(body.data, "beforeRUAS", 10);
	buf_free(&body);
}

/* The run's rlimits cross whole, 64 bits each; core_dumps is 0 or 1. */
static void test_rlimits_carried(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	struct payload p;
	const char *why = NULL;
	raw_exec_to_root(&raw);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_rlimits(&raw, 4096, 0x123456789ULL, 1);
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	assert_int_equal(p.rlim_nofile, 4096);
	assert_true(p.rlim_fsize == 0x123456789ULL);
	assert_int_equal(p.core_dumps, 1);
	struct buf again = BUF_INIT;
	assert_int_equal(payload_encode(&p, &again), 0);
	assert_int_equal(again.len, raw.len);
	assert_memory_equal(again.data, raw.data, raw.len);
	payload_free(&p);
	buf_free(&again);
	buf_free(&raw);
	raw_exec_to_root(&raw);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_rlimits(&raw, 0, 0, 2);
	assert_raw_refused(&raw, "core_dumps");
	buf_free(&raw);
}

/* The run's cgroup crosses as written; one that is no cgroup v2 path is refused. */
static void test_cgroup_carried(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT, again = BUF_INIT;
	struct payload p;
	const char *why = NULL;
	raw_cgroup = "/sup.service/runs/run-0123456789abcdef0123456789abcdef";
	raw_exec_with_run(&raw, "", 0);
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	assert_string_equal(p.cgroup, raw_cgroup);
	assert_int_equal(payload_encode(&p, &again), 0);
	assert_int_equal(again.len, raw.len);
	assert_memory_equal(again.data, raw.data, raw.len);
	payload_free(&p);
	buf_free(&again);
	buf_free(&raw);
	static const char *const bad[] = {"ruas/run-x", "/ruas/run-x\n0::/", "\n"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		raw_cgroup = bad[i];
		raw_exec_with_run(&raw, "", 0);
		assert_raw_refused(&raw, "cgroup");
		buf_free(&raw);
	}
	raw_cgroup = "";
}

/*
 * The credential gate's name crosses as the library draws it (the prefix
 * and 32 lower-case hex digits); anything else (a path, a name the
 * helper would bind that is not the library's) is refused.
 */
static void test_credentials_carried(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT, again = BUF_INIT;
	struct payload p;
	const char *why = NULL;
	raw_credentials = "ruas-credentials-0123456789abcdef0123456789abcdef";
	raw_exec_with_run(&raw, "", 0);
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	assert_string_equal(p.credentials, raw_credentials);
	assert_int_equal(payload_encode(&p, &again), 0);
	assert_int_equal(again.len, raw.len);
	assert_memory_equal(again.data, raw.data, raw.len);
	payload_free(&p);
	buf_free(&again);
	buf_free(&raw);
	static const char *const bad[] = {
		"ruas-credentials-0123456789ABCDEF0123456789abcdef",
		"ruas-credentials-0123456789abcdef0123456789abcde",
		"ruas-credentials-0123456789abcdef0123456789abcdef0",
		"/run/ruas/cred.sock", "@ruas-credentials-0123456789abcdef0123456789abcdef",
		"other-0123456789abcdef0123456789abcdef", "ruas-credentials-"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		raw_credentials = bad[i];
		raw_exec_with_run(&raw, "", 0);
		assert_raw_refused(&raw, "credentials gate");
		buf_free(&raw);
	}
	raw_credentials = "";
}

/* --------------------------------------------------- crafted refusals */

static void test_crafted_valid_is_accepted(void **state)
{
	(void)state;
	/* Proves the crafting helpers match the format, so refusals below mean something. */
	struct buf raw = BUF_INIT, again = BUF_INIT;
	struct payload p;
	const char *why = NULL;
	raw_valid_exec(&raw);
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	assert_int_equal(p.kind, PAYLOAD_EXEC);
	assert_string_equal(p.helper, HELPER);
	assert_string_equal(p.work_dir, "/w");
	assert_int_equal(p.argc, 1);
	assert_string_equal(p.argv[0], "cmd");
	assert_int_equal(p.supervisor_pid, 4242);
	assert_true(p.supervisor_start == 0x180000002ULL);
	assert_int_equal(p.grace_seconds, 5);
	assert_string_equal(p.run_id, "0123456789abcdef0123456789abcdef");
	assert_int_equal(p.audit_facility, (LOG_AUTHPRIV >> 3) + 1);
	assert_int_equal(p.lifetime, LIFETIME_PIDNS);
	assert_string_equal(p.root, "");
	/* And the encoder writes exactly this layout. */
	assert_int_equal(payload_encode(&p, &again), 0);
	assert_int_equal(again.len, raw.len);
	assert_memory_equal(again.data, raw.data, raw.len);
	payload_free(&p);
	buf_free(&raw);
	buf_free(&again);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "/usr/bin/sudo");
	raw_u32(&raw, 50);
	raw_u32(&raw, 60);
	raw_u32(&raw, 1);
	raw_str(&raw, "/srv/x");
	raw_str(&raw, "/srv");  /* scope */
	raw_u32(&raw, 1);
	raw_str(&raw, ".git");
	raw_u32(&raw, CHECK_BWRAP | CHECK_USERNS);
	raw_u32(&raw, 1);       /* probes */
	raw_str(&raw, "/secret");
	raw_u32(&raw, 2);       /* anchors */
	raw_str(&raw, "config /etc/ruas/ruas.conf");
	raw_str(&raw, "supervisor-dot /home/sup/.bashrc");
	raw_str(&raw, ""); /* known_listing: none */
	raw_u32(&raw, 2);  /* judged_trees */
	raw_str(&raw, "1 /usr/bin");
	raw_str(&raw, "2 /etc/systemd/system");
	raw_u32(&raw, 2); /* commands */
	raw_str(&raw, "claude");
	raw_str(&raw, "my tool \"x\" $HOME");
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	assert_int_equal(p.ncommands, 2);
	assert_string_equal(p.commands[1], "my tool \"x\" $HOME");
	assert_null(p.commands[2]);
	assert_string_equal(p.known_listing, "");
	assert_int_equal(p.njudged_trees, 2);
	assert_string_equal(p.judged_trees[0], "1 /usr/bin");
	assert_string_equal(p.judged_trees[1], "2 /etc/systemd/system");
	assert_null(p.judged_trees[2]);
	assert_int_equal(p.kind, PAYLOAD_CHECK);
	assert_string_equal(p.sudo_path, "/usr/bin/sudo");
	assert_int_equal(p.scan_cap, 50);
	assert_int_equal(p.scan_seconds, 60);
	assert_int_equal(p.ndirs, 1);
	assert_string_equal(p.dirs[0].work_dir, "/srv/x");
	assert_string_equal(p.dirs[0].prune[0], ".git");
	assert_string_equal(p.dirs[0].scope, "/srv");
	assert_int_equal(p.check_flags, CHECK_BWRAP | CHECK_USERNS);
	assert_int_equal(p.nprobes, 1);
	assert_string_equal(p.probes[0], "/secret");
	assert_int_equal(p.nanchors, 2);
	assert_string_equal(p.anchors[0], "config /etc/ruas/ruas.conf");
	assert_string_equal(p.anchors[1], "supervisor-dot /home/sup/.bashrc");
	assert_null(p.anchors[2]);
	again = (struct buf)BUF_INIT;
	assert_int_equal(payload_encode(&p, &again), 0);
	assert_int_equal(again.len, raw.len);
	assert_memory_equal(again.data, raw.data, raw.len);
	payload_free(&p);
	buf_free(&raw);
	buf_free(&again);
}

static void test_wrong_version_refused(void **state)
{
	(void)state;
	/* 9: the hex payload's; 0, 11, 255: none. */
	int versions[] = {0, PAYLOAD_VERSION - 1, PAYLOAD_VERSION + 1, 255};
	for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
		struct buf raw = BUF_INIT;
		raw_valid_exec(&raw);
		raw.data[4] = (char)versions[i];
		assert_raw_refused(&raw, "version");
		buf_free(&raw);
	}
}

static void test_bad_header_or_kind_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_valid_exec(&raw);
	raw.data[3] = 'X';
	assert_raw_refused(&raw, "header");
	buf_free(&raw);

	/* No kind byte: the header is short. */
	raw = (struct buf)BUF_INIT;
	assert_int_equal(buf_add(&raw, "RUAS", 4), 0);
	assert_int_equal(buf_addc(&raw, PAYLOAD_VERSION), 0);
	assert_raw_refused(&raw, "header");
	buf_free(&raw);

	/* 3 was the session's kind: it has a message of its own now (session.h). */
	static const int kinds[] = {0, 3, 9, 255};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		raw = (struct buf)BUF_INIT;
		raw_valid_exec(&raw);
		raw.data[5] = (char)kinds[i];
		assert_raw_refused(&raw, "kind");
		buf_free(&raw);
	}
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, 0);
	assert_raw_refused(&raw, "kind");
	buf_free(&raw);
}

/* The user name both kinds carry: never empty, never a path. */
static void test_bad_user_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {"", "a/b", "/", "../t1"};
	static const int kinds[] = {PAYLOAD_EXEC, PAYLOAD_CHECK};
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
			struct buf raw = BUF_INIT;
			assert_int_equal(buf_add(&raw, "RUAS", 4), 0);
			assert_int_equal(buf_addc(&raw, PAYLOAD_VERSION), 0);
			assert_int_equal(buf_addc(&raw, (char)kinds[k]), 0);
			raw_str(&raw, bad[i]);
			assert_raw_refused(&raw, "user name");
			buf_free(&raw);
		}
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

	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, ""); /* known_listing */
	raw_u32(&raw, 0);  /* judged_trees */
	raw_u32(&raw, 0);  /* commands */
	assert_int_equal(buf_addc(&raw, 'x'), 0);
	assert_raw_refused(&raw, "trailing");
	buf_free(&raw);
}

static void test_counts_exceeding_data_refused(void **state)
{
	(void)state;
	/* nenv far larger than the data. */
	struct buf raw = BUF_INIT;
	raw_exec_head(&raw, HELPER);
	raw_u32(&raw, 0x7fffffffu);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* argc one more than there are strings. */
	raw = (struct buf)BUF_INIT;
	raw_exec_head(&raw, HELPER);
	raw_u32(&raw, 0);
	raw_u32(&raw, 2);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, NULL);
	buf_free(&raw);

	/* argc 0xffffffff. */
	raw = (struct buf)BUF_INIT;
	raw_exec_head(&raw, HELPER);
	raw_u32(&raw, 0);
	raw_u32(&raw, 0xffffffffu);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* deny paths far more than the data. */
	raw = (struct buf)BUF_INIT;
	raw_exec_to_flags(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	raw_u32(&raw, 0x40000000u);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* ndirs and nprune too large in a CHECK payload. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "/s");
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_u32(&raw, 1000000);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_CHECK);
	raw_str(&raw, "/s");
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_u32(&raw, 1);
	raw_str(&raw, "/w");
	raw_str(&raw, ""); /* scope */
	raw_u32(&raw, 0xfffffff0u);
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	/* Probes too many. */
	raw = (struct buf)BUF_INIT;
	raw_check_to_flags(&raw);
	raw_u32(&raw, 0);
	raw_u32(&raw, 3);
	raw_str(&raw, "/a");
	assert_raw_refused(&raw, NULL);
	buf_free(&raw);

	/* A string length beyond the data: the helper's, the work_dir's. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_u32(&raw, 1000);
	assert_int_equal(buf_add(&raw, HELPER, strlen(HELPER)), 0);
	assert_raw_refused(&raw, "exceeds");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, HELPER);
	raw_u32(&raw, 0xffffffffu);
	assert_int_equal(buf_add(&raw, "/w", 2), 0);
	assert_raw_refused(&raw, "exceeds");
	buf_free(&raw);
}

static void test_string_with_nul_refused(void **state)
{
	(void)state;
	/* In argv. */
	struct buf raw = BUF_INIT;
	raw_exec_head(&raw, HELPER);
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_bytes(&raw, "c\0md", 4);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* In work_dir. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_str(&raw, HELPER);
	raw_bytes(&raw, "/w\0/etc", 7);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_str(&raw, "cmd");
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* In the helper's path. */
	raw = (struct buf)BUF_INIT;
	raw_header(&raw, PAYLOAD_VERSION, PAYLOAD_EXEC);
	raw_bytes(&raw, "/usr/x\0/tmp/evil", 16);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);

	/* In an env value. */
	raw = (struct buf)BUF_INIT;
	raw_exec_head(&raw, HELPER);
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

	/* In the run id. */
	raw = (struct buf)BUF_INIT;
	raw_exec_to_root(&raw);
	raw_bytes(&raw, "0123456789abcdef\0" "123456789abcdef", 32);
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);
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

	/* Without the anchors count. */
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	/* Without the known listing. */
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	/* Without the judged trees (the version 12 layout). */
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	/* Without the commands (the version 17 layout), or with an empty one. */
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_u32(&raw, 1);
	raw_str(&raw, "");
	assert_raw_refused(&raw, "command empty");
	buf_free(&raw);

	/* A judged tree with a NUL in it, or more than are sent. */
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	raw_u32(&raw, 1);
	raw_bytes(&raw, "1 /usr/bin\0/x", 13);
	assert_raw_refused(&raw, "NUL");
	buf_free(&raw);
	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	raw_u32(&raw, 0x7fffffffu);
	raw_str(&raw, "1 /usr/bin");
	assert_raw_refused(&raw, "count");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_check_until_anchors(&raw);
	raw_u32(&raw, 0);
	raw_str(&raw, "User t may run the following commands on h:\n");
	raw_u32(&raw, 0);
	raw_u32(&raw, 0); /* commands */
	struct payload p;
	const char *why = NULL;
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	assert_string_equal(p.known_listing, "User t may run the following commands on h:\n");
	assert_int_equal(p.nanchors, 0);
	assert_non_null(p.anchors);
	assert_null(p.anchors[0]);
	payload_free(&p);
	buf_free(&raw);
}

/*
 * An EXEC payload ends with the root a per-spawn work_dir must resolve
 * beneath, the run id and the facility: a body that stops after the root
 * (the version 8 layout) is refused, and so is a NUL inside the root; a
 * root crosses byte for byte.
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

	raw = (struct buf)BUF_INIT;
	raw_exec_to_root(&raw);
	assert_raw_refused(&raw, "truncated");
	buf_free(&raw);

	struct payload in = {0}, out;
	char *argv[] = {"cmd", NULL};
	in.kind = PAYLOAD_EXEC;
	in.user = "t1";
	in.helper = HELPER;
	in.work_dir = "/srv/p/sub dir";
	in.root = "/srv/p";
	in.argv = argv;
	in.argc = 1;
	struct buf body = BUF_INIT;
	const char *why = NULL;
	assert_int_equal(payload_encode(&in, &body), 0);
	assert_int_equal(payload_decode(body.data, body.len, &out, &why), 0);
	assert_string_equal(out.work_dir, "/srv/p/sub dir");
	assert_string_equal(out.root, "/srv/p");
	payload_free(&out);
	buf_free(&body);
}

static void test_empty_command_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_exec_head(&raw, HELPER);
	raw_u32(&raw, 0);
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "empty command");
	buf_free(&raw);

	raw = (struct buf)BUF_INIT;
	raw_exec_head(&raw, HELPER);
	raw_u32(&raw, 0);
	raw_u32(&raw, 2);
	raw_str(&raw, "");
	raw_str(&raw, "x");
	assert_raw_refused(&raw, "empty command");
	buf_free(&raw);
}

/*
 * The helper's path, which the target's login shell runs again inside the
 * run: absolute, or the payload is refused; an empty one too.
 */
static void test_helper_path_absolute(void **state)
{
	(void)state;
	static const char *const bad[] = {"", "ruas-exec", "./ruas-exec", "usr/libexec/ruas/ruas-exec",
					  " /usr/libexec/ruas/ruas-exec"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct buf raw = BUF_INIT;
		raw_exec_head(&raw, bad[i]);
		raw_u32(&raw, 0);
		raw_u32(&raw, 1);
		raw_str(&raw, "cmd");
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		raw_str(&raw, "");
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		raw_str(&raw, "");
		raw_str(&raw, "");
		raw_u32(&raw, 0);
		raw_rlimits(&raw, 0, 0, 0);
		assert_raw_refused(&raw, "helper path is not absolute");
		buf_free(&raw);
	}
	/* The control: the same with an absolute path. */
	struct buf raw = BUF_INIT;
	raw_valid_exec(&raw);
	const char *why;
	assert_int_equal(decode_raw(&raw, &why), 0);
	buf_free(&raw);
}

/* Flags: any combination of the known ones; an unknown bit refuses the payload. */
static void test_flags_checked(void **state)
{
	(void)state;
	for (uint32_t f = 0; f <= EXEC_FLAGS_ALL; f++) {
		struct buf raw = BUF_INIT;
		raw_exec_to_root_with(&raw, f, LIFETIME_SUBREAPER);
		raw_str(&raw, "");
		raw_u32(&raw, 0);
		raw_rlimits(&raw, 0, 0, 0);
		const char *why;
		if (decode_raw(&raw, &why) != 0)
			fail_msg("exec flags %u refused: %s", f, why);
		buf_free(&raw);
	}
	static const uint32_t bad_exec[] = {EXEC_FLAGS_ALL + 1, 8, 16, 0x80000000u, 0xffffffffu};
	for (size_t i = 0; i < sizeof bad_exec / sizeof bad_exec[0]; i++) {
		struct buf raw = BUF_INIT;
		raw_exec_to_root_with(&raw, bad_exec[i], LIFETIME_SUBREAPER);
		raw_str(&raw, "");
		raw_u32(&raw, 0);
		raw_rlimits(&raw, 0, 0, 0);
		assert_raw_refused(&raw, "exec flags unknown");
		buf_free(&raw);
	}
	for (uint32_t f = 0; f <= CHECK_FLAGS_ALL + 4; f++) {
		struct buf raw = BUF_INIT;
		raw_check_to_flags(&raw);
		raw_u32(&raw, f);
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		raw_str(&raw, "");
		raw_u32(&raw, 0);
		raw_u32(&raw, 0);
		const char *why;
		if (f <= CHECK_FLAGS_ALL)
			assert_int_equal(decode_raw(&raw, &why), 0);
		else
			assert_raw_refused(&raw, "check flags unknown");
		buf_free(&raw);
	}
	struct buf raw = BUF_INIT;
	raw_check_to_flags(&raw);
	raw_u32(&raw, 0x80000000u | CHECK_BWRAP);
	raw_u32(&raw, 0);
	raw_u32(&raw, 0);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_u32(&raw, 0);
	assert_raw_refused(&raw, "check flags unknown");
	buf_free(&raw);
}

/* The lifetime mode: one of three values. */
static void test_lifetime(void **state)
{
	(void)state;
	for (uint32_t l = 0; l <= LIFETIME_AUTO + 2; l++) {
		struct buf raw = BUF_INIT;
		raw_exec_to_root_with(&raw, 0, l);
		raw_str(&raw, "");
		raw_u32(&raw, 0);
		raw_rlimits(&raw, 0, 0, 0);
		const char *why;
		if (l <= LIFETIME_AUTO)
			assert_int_equal(decode_raw(&raw, &why), 0);
		else
			assert_raw_refused(&raw, "lifetime");
		buf_free(&raw);
	}
	struct buf raw = BUF_INIT;
	raw_exec_to_root_with(&raw, 0, 0xffffffffu);
	raw_str(&raw, "");
	raw_u32(&raw, 0);
	raw_rlimits(&raw, 0, 0, 0);
	assert_raw_refused(&raw, "lifetime");
	buf_free(&raw);
}

/*
 * What the hex payload's decoder refused has its binary counterparts:
 * nothing, "RUAS" alone, a body of another encoding (the valid body's hex,
 * as an older library would have written it), and no data at all.
 */
/* HELLO: "RUAS" and the version byte, exactly; anything else is not one. */
static void test_hello(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	unsigned int v = 0;
	assert_int_equal(payload_hello_encode(&b), 0);
	assert_int_equal(b.len, PAYLOAD_HELLO_BODY);
	assert_memory_equal(b.data, "RUAS\x13", 5);
	assert_int_equal(PAYLOAD_VERSION, 19);
	assert_int_equal(payload_hello_decode(b.data, b.len, &v), 0);
	assert_int_equal(v, PAYLOAD_VERSION);
	/* Another version decodes, for the caller to name. */
	assert_int_equal(payload_hello_decode("RUAS\x09", 5, &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(payload_hello_decode("RUAS", 4, &v), -1);
	assert_int_equal(payload_hello_decode("RUAS\x0a\x00", 6, &v), -1);
	assert_int_equal(payload_hello_decode("RUAs\x0a", 5, &v), -1);
	assert_int_equal(payload_hello_decode("", 0, &v), -1);
	buf_free(&b);
}

static void test_not_a_payload_refused(void **state)
{
	(void)state;
	struct buf raw = BUF_INIT;
	raw_valid_exec(&raw);
	struct payload p;
	const char *why = NULL;

	/* Sanity: it decodes as is. */
	assert_int_equal(payload_decode(raw.data, raw.len, &p, &why), 0);
	payload_free(&p);

	static const char digits[] = "0123456789abcdef";
	struct buf hex = BUF_INIT;
	for (size_t i = 0; i < raw.len; i++) {
		buf_addc(&hex, digits[(unsigned char)raw.data[i] >> 4]);
		buf_addc(&hex, digits[(unsigned char)raw.data[i] & 15]);
	}
	assert_int_equal(payload_decode(hex.data, hex.len, &p, &why), -1);
	assert_non_null(strstr(why, "header"));
	assert_zeroed(&p);
	buf_free(&hex);

	assert_int_equal(payload_decode("", 0, &p, &why), -1);
	assert_int_equal(payload_decode(NULL, 0, &p, &why), -1);
	assert_int_equal(payload_decode("RUAS", 4, &p, &why), -1);
	assert_non_null(strstr(why, "header"));
	/* A NULL why is allowed. */
	assert_int_equal(payload_decode("RUAS", 4, &p, NULL), -1);
	buf_free(&raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payload_random_round_trip),
		cmocka_unit_test(test_payload_every_byte_value),
		cmocka_unit_test(test_payload_truncations_refused),
		cmocka_unit_test(test_payload_encode_refuses_invalid),
		cmocka_unit_test(test_crafted_valid_is_accepted),
		cmocka_unit_test(test_rlimits_carried),
		cmocka_unit_test(test_cgroup_carried),
		cmocka_unit_test(test_credentials_carried),
		cmocka_unit_test(test_run_id_and_facility_checked),
		cmocka_unit_test(test_facility_only_the_configurable_ones),
		cmocka_unit_test(test_wrong_version_refused),
		cmocka_unit_test(test_bad_header_or_kind_refused),
		cmocka_unit_test(test_bad_user_refused),
		cmocka_unit_test(test_trailing_bytes_refused),
		cmocka_unit_test(test_counts_exceeding_data_refused),
		cmocka_unit_test(test_string_with_nul_refused),
		cmocka_unit_test(test_empty_command_refused),
		cmocka_unit_test(test_exec_root),
		cmocka_unit_test(test_anchors_refused_when_malformed),
		cmocka_unit_test(test_helper_path_absolute),
		cmocka_unit_test(test_flags_checked),
		cmocka_unit_test(test_lifetime),
		cmocka_unit_test(test_not_a_payload_refused),
		cmocka_unit_test(test_hello),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
