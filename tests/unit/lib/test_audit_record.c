/* SPDX-License-Identifier: ISC */
/*
 * test_audit_record.c - the audit records' two forms (src/lib/audit/
 * record.h): hostile arguments give exactly one line and one JSON object,
 * with the exact (cut) values, and no field can be forged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include "audit/record.h"
#include "buf.h"
#include "payload.h"
#include "random_hex.h"

static const char *const hostile[] = {
	"claude", "line\nbreak", "quote\" project=\"evil", "k=v", "", "back\\slash",
	"tab\there", "\x1b[2J", "caf\xc3\xa9", "bad\xff\xfe", NULL,
};

static struct audit_record start_of(const char *const *argv, size_t max, struct audit_field *f)
{
	f[0] = (struct audit_field){.key = "run", .type = AUDIT_STR, .s = "r-1a2b"};
	f[1] = (struct audit_field){.key = "project", .type = AUDIT_STR, .s = "claude"};
	f[2] = (struct audit_field){.key = "work_dir", .type = AUDIT_STR, .s = "/srv/a b"};
	f[3] = (struct audit_field){.key = "argv", .type = AUDIT_ARGV, .v = argv, .max = max};
	f[4] = (struct audit_field){.key = "exit", .type = AUDIT_INT, .n = -1};
	f[5] = (struct audit_field){.key = "signal", .type = AUDIT_STR, .s = NULL};
	return (struct audit_record){AUDIT_START, f, 6};
}

static void test_line_exact(void **state)
{
	(void)state;
	struct audit_field f[6];
	struct audit_record r = start_of(hostile, 0, f);
	struct buf b = BUF_INIT;
	assert_int_equal(audit_record_line(&r, &b), 0);
	assert_string_equal(b.data,
		"start run=r-1a2b project=claude work_dir=\"/srv/a b\" argv=[claude,"
		"\"line\\x0abreak\",\"quote\\\" project=\\\"evil\",\"k=v\",\"\",\"back\\\\slash\","
		"\"tab\\x09here\",\"\\x1b[2J\",\"caf\\xc3\\xa9\",\"bad\\xff\\xfe\"] exit=-1 signal=-");
	/* One line, and no byte outside printable ASCII. */
	for (size_t i = 0; i < b.len; i++)
		assert_true(b.data[i] >= 0x20 && b.data[i] <= 0x7e);
	buf_free(&b);
}

static void test_line_cut(void **state)
{
	(void)state;
	char *big = malloc(10241);
	assert_non_null(big);
	memset(big, 'x', 10240);
	big[10240] = '\0';
	const char *const argv[] = {"claude", "--print", big, "short", big, NULL};
	struct audit_field f[6];
	struct audit_record r = start_of(argv, 256, f);
	struct buf b = BUF_INIT;
	assert_int_equal(audit_record_line(&r, &b), 0);
	char want[600];
	snprintf(want, sizeof want, "argv=[claude,--print,%.256s,short,%.256s] argv_len=[2:10240,4:10240] ",
		 big, big);
	assert_non_null(strstr(b.data, want));
	buf_free(&b);
	free(big);
}

/*
 * The JSON object parses, and gives back every value exactly as cut (never
 * in the middle of a character; a byte that is not UTF-8 as U+00XX).
 */
static void test_json_roundtrip(void **state)
{
	(void)state;
	struct audit_field f[6];
	struct audit_record r = start_of(hostile, 4, f);
	struct buf b = BUF_INIT;
	assert_int_equal(audit_record_json(&r, &b), 0);
	assert_int_equal(b.data[b.len - 1], '\n');
	assert_null(memchr(b.data, '\n', b.len - 1));
	json_object *o = json_tokener_parse(b.data);
	assert_non_null(o);
	json_object *v;
	assert_true(json_object_object_get_ex(o, "event", &v));
	assert_string_equal(json_object_get_string(v), "start");
	assert_true(json_object_object_get_ex(o, "work_dir", &v));
	assert_string_equal(json_object_get_string(v), "/srv/a b");
	assert_true(json_object_object_get_ex(o, "exit", &v));
	assert_int_equal(json_object_get_int64(v), -1);
	assert_true(json_object_object_get_ex(o, "signal", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(o, "argv", &v));
	static const char *const cut[] = {"clau", "line", "quot", "k=v", "", "back",
					  "tab\t", "\x1b[2J", "caf", "bad\xc3\xbf"};
	assert_int_equal(json_object_array_length(v), 10);
	for (size_t i = 0; i < 10; i++)
		assert_string_equal(json_object_get_string(json_object_array_get_idx(v, i)), cut[i]);
	assert_true(json_object_object_get_ex(o, "argv_len", &v));
	json_object *n;
	assert_true(json_object_object_get_ex(v, "1", &n));
	assert_int_equal(json_object_get_int64(n), 10);
	assert_false(json_object_object_get_ex(v, "3", &n)); /* "k=v" was not cut */
	json_object_put(o);
	buf_free(&b);
}

static void test_kinds(void **state)
{
	(void)state;
	assert_string_equal(audit_kind_name(AUDIT_START), "start");
	assert_string_equal(audit_kind_name(AUDIT_END), "end");
	assert_string_equal(audit_kind_name(AUDIT_CHECK), "check");
	assert_string_equal(audit_kind_name(AUDIT_AUDIT), "audit");
	struct audit_record r = {AUDIT_END, NULL, 0};
	struct buf b = BUF_INIT;
	assert_int_equal(audit_record_line(&r, &b), 0);
	assert_string_equal(b.data, "end");
	buf_reset(&b);
	assert_int_equal(audit_record_json(&r, &b), 0);
	assert_string_equal(b.data, "{\"event\":\"end\"}\n");
	buf_free(&b);
}

/*
 * A run id (random_hex): 32 lower-case hex digits, what a payload's run id
 * must be (payload_run_id_ok), a new one each time; and a buffer too small
 * for it refused, untouched.
 */
static void test_random_hex(void **state)
{
	(void)state;
	char a[33], b[40];
	memset(b, 'X', sizeof b);
	assert_int_equal(random_hex(a, sizeof a), 0);
	assert_int_equal(random_hex(b, sizeof b), 0);
	assert_int_equal(strlen(a), 32);
	assert_int_equal(strlen(b), 32);
	assert_int_equal(b[33], 'X'); /* nothing past the NUL */
	assert_int_equal(strspn(a, "0123456789abcdef"), 32);
	assert_true(payload_run_id_ok(a));
	assert_true(payload_run_id_ok(b));
	assert_string_not_equal(a, b);
	char small[32];
	memset(small, 'Y', sizeof small);
	errno = 0;
	assert_int_equal(random_hex(small, sizeof small), -1);
	assert_int_equal(errno, ENOMEM);
	for (size_t i = 0; i < sizeof small; i++)
		assert_int_equal(small[i], 'Y');
	assert_int_equal(random_hex(small, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_exact),
		cmocka_unit_test(test_line_cut),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_random_hex),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
