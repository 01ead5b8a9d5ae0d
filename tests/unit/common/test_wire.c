/*
 * test_wire.c - both halves of the protocol in src/common/proto: the check
 * report's writer (wire_write.h) byte for byte against the grammar of
 * wire.h, a written report through the parser, and the pam backend's
 * session-acct and session-pidns lines (session_acct.h) both ways.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_acct.h"
#include "wire.h"
#include "wire_write.h"

#define NONCE "00112233445566778899aabbccddeeff"

struct sink {
	FILE *f;
	char *data;
	size_t len;
};

static void sink_open(struct sink *s)
{
	s->data = NULL;
	s->len = 0;
	s->f = open_memstream(&s->data, &s->len);
	assert_non_null(s->f);
}

/* Closes the stream and compares what was written. */
static void sink_expect(struct sink *s, const char *want)
{
	assert_int_equal(fclose(s->f), 0);
	if (strcmp(s->data, want) != 0)
		fail_msg("written:\n%s\nexpected:\n%s", s->data, want);
	free(s->data);
}

static void test_records(void **state)
{
	(void)state;
	struct sink s;

	sink_open(&s);
	wire_write_begin(s.f, NONCE);
	wire_write_end(s.f, NONCE);
	sink_expect(&s, "\nruas-report-begin " NONCE "\nruas-report-end " NONCE "\n");

	sink_open(&s);
	wire_write_esc(s.f, 0, 1, -2, "ab", 0);
	wire_write_esc(s.f, 1, 0, 1, NULL, 1);
	sink_expect(&s, "esc 1 -2 6162 0\nesctty 0 1  1\n");

	gid_t g[] = {27, 100};
	sink_open(&s);
	wire_write_gids(s.f, 1000, g, 2);
	wire_write_gids(s.f, 1000, g, 0);
	wire_write_gids(s.f, 1000, g, -1);
	sink_expect(&s, "gids 1000,27,100\ngids 1000\ngids 1000,?\n");

	struct dir_result ok = {.state = DIR_OK}, unknown = {.state = DIR_UNKNOWN};
	struct dir_result escape = {.state = DIR_ESCAPE, .path = (char *)"x"};
	struct dir_result denied = {.state = DIR_DENIED, .path = (char *)"/w", .missing = "rx",
				    .mode = 0750, .owner = (char *)"al"};
	struct dir_result denied0 = {.state = DIR_DENIED, .missing = "x", .mode = 0700};
	struct dir_result missing = {.state = DIR_MISSING, .path = (char *)"/w", .errnum = 2};
	sink_open(&s);
	wire_write_dir(s.f, 0, &ok);
	wire_write_dir(s.f, 1, &unknown);
	wire_write_dir(s.f, 2, &escape);
	wire_write_dir(s.f, 3, &denied);
	wire_write_dir(s.f, 4, &denied0);
	wire_write_dir(s.f, 5, &missing);
	sink_expect(&s, "dir 0 ok\ndir 1 ok\ndir 2 escape 78\ndir 3 denied 2f77 rx 750 616c\n"
			"dir 4 denied 3f x 700 3f\ndir 5 missing 2f77 2\n");

	struct scan_item it = {(char *)"/w/a", SCAN_NOT_READABLE | SCAN_NOT_WRITABLE, 0600,
			       (char *)"al"};
	sink_open(&s);
	wire_write_item(s.f, 1, &it);
	wire_write_scan(s.f, 1, 19, 40, 1);
	sink_expect(&s, "item 1 2f772f61 3 600 616c\nscan 1 19 40 1\n");

	sink_open(&s);
	wire_write_bwrap(s.f, -2, "no");
	wire_write_bwrap(s.f, 0, NULL);
	wire_write_probe(s.f, 0, PROBE_READABLE);
	wire_write_probe(s.f, 1, PROBE_DENIED);
	wire_write_probe(s.f, 2, PROBE_MISSING);
	sink_expect(&s, "bwrap -2 6e6f\nbwrap 0 \nprobe 0 readable\nprobe 1 denied\n"
			"probe 2 missing\n");

	sink_open(&s);
	wire_write_lifetime(s.f, 0, "");
	wire_write_lifetime(s.f, 1, "no");
	wire_write_lifetime(s.f, 28, NULL);
	sink_expect(&s, "lifetime 0 \nlifetime 1 6e6f\nlifetime 28 \n");

	struct wire_anchor a = {.path = "/usr/local", .how = 'o', .rel = AREL_PARENT,
				.id = "root-path", .mode = 02775, .owner = "al", .group = NULL,
				.acl = 1, .anchor = "/usr/local/bin"};
	sink_open(&s);
	wire_write_anchor(s.f, &a);
	wire_write_anchors(s.f, 1);
	sink_expect(&s, "anchor 2f7573722f6c6f63616c o parent root-path 2775 616c 3f 1 "
			"2f7573722f6c6f63616c2f62696e\nanchors 1\n");
}

static void test_words(void **state)
{
	(void)state;
	for (int rel = AREL_SELF; rel <= AREL_LINK; rel++)
		assert_int_equal(wire_rel_of(wire_rel_word(rel)), rel);
	assert_string_equal(wire_rel_word(0), "?");
	assert_int_equal(wire_rel_of("near"), 0);
	for (int v = PROBE_READABLE; v <= PROBE_MISSING; v++)
		assert_int_equal(wire_probe_of(wire_probe_word(v)), v);
	assert_int_equal(wire_probe_of("maybe"), PROBE_UNKNOWN);
}

/* A report as ruas-exec writes one, after profile noise, reads back as written. */
static void test_round_trip(void **state)
{
	(void)state;
	struct sink s;
	sink_open(&s);
	fputs("Welcome! (an unfinished line of the profile)", s.f);
	wire_write_begin(s.f, NONCE);
	wire_write_esc(s.f, 0, 1, 1, "Sorry, user t1 may not run sudo.\n", 0);
	wire_write_esc(s.f, 1, 1, 1, "", 1);
	gid_t g[] = {27};
	wire_write_gids(s.f, 1000, g, 1);
	struct dir_result ok = {.state = DIR_OK};
	struct dir_result denied = {.state = DIR_DENIED, .path = (char *)"/w", .missing = "r",
				    .mode = 0711, .owner = (char *)"root"};
	wire_write_dir(s.f, 0, &ok);
	struct scan_item it = {(char *)"/w/a b", SCAN_NOT_SEARCHABLE, 0700, (char *)"al"};
	wire_write_item(s.f, 0, &it);
	wire_write_scan(s.f, 0, 1, 9, 0);
	wire_write_dir(s.f, 1, &denied);
	struct wire_anchor a = {"/etc/passwd", 'w', AREL_SELF, "users", 0666, "root", "root", 0,
				"/etc/passwd"};
	wire_write_anchor(s.f, &a);
	wire_write_anchors(s.f, 1);
	wire_write_bwrap(s.f, 0, "");
	wire_write_lifetime(s.f, 1, "unshare: Operation not permitted");
	wire_write_probe(s.f, 0, PROBE_DENIED);
	wire_write_end(s.f, NONCE);
	assert_int_equal(fclose(s.f), 0);

	struct helper_report r;
	assert_int_equal(helper_report_parse(s.data, s.len, NONCE, 2, &r), 0);
	free(s.data);
	assert_true(r.complete);
	assert_int_equal(r.list_rc, 1);
	assert_string_equal(r.list_out, "Sorry, user t1 may not run sudo.\n");
	assert_int_equal(r.tty_list_cut, 1);
	assert_int_equal(r.ngids, 2);
	assert_int_equal(r.gids[0], 1000);
	assert_int_equal(r.gids[1], 27);
	assert_int_equal(r.dirs[0].state, DIR_OK);
	assert_int_equal(r.dirs[0].nitems, 1);
	assert_string_equal(r.dirs[0].items[0].path, "/w/a b");
	assert_int_equal(r.dirs[0].items[0].flags, SCAN_NOT_SEARCHABLE);
	assert_int_equal(r.dirs[0].items[0].mode, 0700);
	assert_int_equal(r.dirs[0].entries, 9);
	assert_int_equal(r.dirs[1].state, DIR_DENIED);
	assert_string_equal(r.dirs[1].missing, "r");
	assert_int_equal(r.dirs[1].mode, 0711);
	assert_string_equal(r.dirs[1].owner, "root");
	assert_int_equal(r.nanchors, 1);
	assert_int_equal(r.anchors[0].rel, AREL_SELF);
	assert_string_equal(r.anchors[0].id, "users");
	assert_int_equal(r.anchors[0].mode, 0666);
	assert_true(r.bwrap_seen);
	assert_true(r.lifetime_seen);
	assert_int_equal(r.lifetime_errno, 1);
	assert_string_equal(r.lifetime_why, "unshare: Operation not permitted");
	assert_int_equal(r.probes[0], PROBE_DENIED);
	helper_report_free(&r);

	/* A second lifetime record, or a bad errno, makes the report malformed. */
	static const char *const bad[] = {"lifetime 0 \nlifetime 0 \n", "lifetime -1 \n",
					  "lifetime x \n", "lifetime 0 zz\n", "lifetime 0\n"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct sink b;
		sink_open(&b);
		wire_write_begin(b.f, NONCE);
		wire_write_esc(b.f, 0, 1, 1, "", 0);
		wire_write_esc(b.f, 1, 1, 1, "", 0);
		wire_write_gids(b.f, 1000, g, 1);
		wire_write_anchors(b.f, 0);
		fputs(bad[i], b.f);
		wire_write_end(b.f, NONCE);
		assert_int_equal(fclose(b.f), 0);
		if (helper_report_parse(b.data, b.len, NONCE, 0, &r) != -1)
			fail_msg("accepted: %s", bad[i]);
		helper_report_free(&r);
		free(b.data);
	}

	/* The unreadable groups' marker is refused. */
	struct sink t;
	sink_open(&t);
	wire_write_begin(t.f, NONCE);
	wire_write_esc(t.f, 0, 1, 1, "", 0);
	wire_write_esc(t.f, 1, 1, 1, "", 0);
	wire_write_gids(t.f, 1000, g, -1);
	wire_write_anchors(t.f, 0);
	wire_write_end(t.f, NONCE);
	assert_int_equal(fclose(t.f), 0);
	assert_int_equal(helper_report_parse(t.data, t.len, NONCE, 0, &r), -1);
	helper_report_free(&r);
	free(t.data);
}

static void test_session_acct(void **state)
{
	(void)state;
	struct sink s;
	char *reason = (char *)"untouched";

	sink_open(&s);
	session_acct_write_ok(s.f);
	session_acct_write_fail(s.f, "expired");
	sink_expect(&s, "\nruas-session-acct ok\n\nruas-session-acct fail 65787069726564\n");

	assert_int_equal(session_acct_parse("motd\nruas-session-acct ok\nmore", &reason),
			 SESSION_ACCT_OK);
	assert_string_equal(reason, "untouched");
	assert_int_equal(session_acct_parse("ruas-session-acct ok\n", &reason), SESSION_ACCT_NONE);
	assert_int_equal(session_acct_parse("\nruas-session-acct okay\n", &reason),
			 SESSION_ACCT_NONE);
	assert_int_equal(session_acct_parse("", &reason), SESSION_ACCT_NONE);

	/* fail wins over ok, wherever they are. */
	assert_int_equal(session_acct_parse("\nruas-session-acct ok\n"
					    "\nruas-session-acct fail 65787069726564\nx",
					    &reason),
			 SESSION_ACCT_FAIL);
	assert_string_equal(reason, "expired");
	free(reason);
	assert_int_equal(session_acct_parse("\nruas-session-acct fail zz\n", &reason),
			 SESSION_ACCT_FAIL);
	assert_null(reason);

	/* What the writer writes, the parser reads. */
	sink_open(&s);
	session_acct_write_fail(s.f, "Your account has expired; please contact your admin");
	assert_int_equal(fclose(s.f), 0);
	assert_int_equal(session_acct_parse(s.data, &reason), SESSION_ACCT_FAIL);
	assert_string_equal(reason, "Your account has expired; please contact your admin");
	free(reason);
	free(s.data);
}

static void test_session_pidns(void **state)
{
	(void)state;
	struct sink s;
	char *why = (char *)"untouched";

	sink_open(&s);
	session_pidns_write(s.f, 0, "ignored");
	session_pidns_write(s.f, 1, "unshare: Operation not permitted");
	session_pidns_write(s.f, 22, NULL);
	sink_expect(&s, "\nruas-session-pidns ok\n"
			"\nruas-session-pidns fail 756e73686172653a204f7065726174696f6e206e6f74207065726d6974746564\n"
			"\nruas-session-pidns fail \n");

	assert_int_equal(session_pidns_parse("\nruas-session-acct ok\n\nruas-session-pidns ok\n",
					     &why),
			 SESSION_ACCT_OK);
	assert_string_equal(why, "untouched");
	assert_int_equal(session_pidns_parse("\nruas-session-acct ok\n", &why), SESSION_ACCT_NONE);
	/* Each line answers for itself: the account's verdict is not the namespace's. */
	assert_int_equal(session_acct_parse("\nruas-session-pidns ok\n", &why), SESSION_ACCT_NONE);
	assert_int_equal(session_acct_parse("\nruas-session-acct ok\n\nruas-session-pidns fail 6e6f\n",
					    &why),
			 SESSION_ACCT_OK);
	/* fail wins over a forged ok, wherever it is. */
	assert_int_equal(session_pidns_parse("\nruas-session-pidns fail 6e6f\n"
					     "\nruas-session-pidns ok\n",
					     &why),
			 SESSION_ACCT_FAIL);
	assert_string_equal(why, "no");
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_session_acct),
		cmocka_unit_test(test_session_pidns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
