/* SPDX-License-Identifier: ISC */
/*
 * test_helper_report.c - REPORT, both halves (src/proto/helper_report.h):
 * the writers (helper_report_write.h) byte for byte against the grammar of
 * helper_report.h, every record kind through the one decoder
 * (report_decode) and back, and each of the decoder's rules: a record
 * that repeats, indexes past what the check sent, is out of range, comes
 * after the anchors' count or is of the other origin, and a report that
 * lacks a required record, all make the whole report invalid. A session's
 * report (ruas-session: ACCT, PIDNS) is a REPORT of its own origin.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "codec.h"
#include "helper_report.h"
#include "helper_report_write.h"

/* ----------------------------------------------------------- helpers */

static void assert_same(const struct buf *got, const struct buf *want, const char *what)
{
	assert_false(got->oom);
	assert_false(want->oom);
	if (got->len != want->len || memcmp(got->data, want->data, got->len) != 0)
		fail_msg("%s: written %zu bytes, the grammar's %zu, or other bytes", what, got->len,
			 want->len);
}

/* A decoded report that failed is empty. */
static void assert_empty(const struct report *r)
{
	assert_int_equal(r->origin, 0);
	assert_null(r->helper.dirs);
	assert_null(r->helper.list_out);
	assert_null(r->helper.anchors);
	assert_null(r->helper.gids);
	assert_int_equal(r->helper.complete, 0);
	assert_int_equal(r->session.acct, SESSION_ACCT_NONE);
	assert_null(r->session.reason);
}

static int decode(const struct buf *b, size_t ndirs, struct report *r, const char **why)
{
	*why = NULL;
	int rc = report_decode(b->data, b->len, ndirs, r, why);
	if (rc < 0) {
		assert_non_null(*why);
		assert_empty(r);
	}
	return rc;
}

static void assert_refused(const struct buf *b, size_t ndirs, const char *reason_part,
			   const char *what)
{
	struct report r;
	const char *why;
	if (decode(b, ndirs, &r, &why) == 0) {
		report_free(&r);
		fail_msg("%s: accepted", what);
	}
	if (reason_part && !strstr(why, reason_part))
		fail_msg("%s: refused for \"%s\", expected \"%s\"", what, why, reason_part);
}

static void assert_accepted(const struct buf *b, size_t ndirs, const char *what)
{
	struct report r;
	const char *why;
	if (decode(b, ndirs, &r, &why) != 0)
		fail_msg("%s: refused: %s", what, why);
	report_free(&r);
}

/* The records every helper's report needs: both ESCs and GIDS (ANCHORS is the caller's, last). */
static void helper_start(struct buf *b)
{
	gid_t g[1] = {27};
	report_begin(b, REPORT_FROM_HELPER);
	report_put_esc(b, 0, 1, 1, "", 0);
	report_put_esc(b, 1, 1, 1, "", 0);
	report_put_gids(b, 1000, g, 1);
}

/* helper_start, extra raw bytes (records), then ANCHORS 0. */
static void helper_with(struct buf *b, const struct buf *extra)
{
	helper_start(b);
	if (extra)
		assert_int_equal(buf_add(b, extra->data, extra->len), 0);
	report_put_anchors(b, 0);
}

/* ----------------------------------------------------------- writers */

static void test_records(void **state)
{
	(void)state;
	struct buf got = BUF_INIT, want = BUF_INIT;

	report_begin(&got, REPORT_FROM_HELPER);
	report_begin(&got, REPORT_FROM_SESSION);
	enc_u8(&want, 2);
	enc_u8(&want, 1);
	assert_same(&got, &want, "origins");
	buf_free(&got);
	buf_free(&want);

	/* ESC u8 tty i32 TRUE_RC i32 LIST_RC str(output) u8 CUT; NULL output is "". */
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_esc(&got, 0, 1, -2, "ab", 0);
	report_put_esc(&got, 7, 0, 1, NULL, 9);
	enc_u8(&want, REC_ESC);
	enc_u8(&want, 0);
	enc_i32(&want, 1);
	enc_i32(&want, -2);
	enc_str(&want, "ab");
	enc_u8(&want, 0);
	enc_u8(&want, REC_ESC);
	enc_u8(&want, 1);
	enc_i32(&want, 0);
	enc_i32(&want, 1);
	enc_str(&want, "");
	enc_u8(&want, 1);
	assert_same(&got, &want, "esc");
	buf_free(&got);
	buf_free(&want);

	/* GIDS u32 count (egid and groups) u32...; unreadable groups: no record at all. */
	gid_t g[] = {27, 100};
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_gids(&got, 1000, g, 2);
	report_put_gids(&got, 1000, g, 0);
	report_put_gids(&got, 1000, g, -1);
	enc_u8(&want, REC_GIDS);
	enc_u32(&want, 3);
	enc_u32(&want, 1000);
	enc_u32(&want, 27);
	enc_u32(&want, 100);
	enc_u8(&want, REC_GIDS);
	enc_u32(&want, 1);
	enc_u32(&want, 1000);
	assert_same(&got, &want, "gids");
	buf_free(&got);
	buf_free(&want);

	/* DIR u32 I u8 state ...: unknown is written OK; NULL path "?"; the owner's uid. */
	struct dir_result ok = {.state = DIR_OK}, unknown = {.state = DIR_UNKNOWN};
	struct dir_result escape = {.state = DIR_ESCAPE, .path = (char *)"x"};
	struct dir_result denied = {.state = DIR_DENIED, .path = (char *)"/w", .missing = "rx",
				    .mode = 0750, .uid = 1234};
	struct dir_result denied0 = {.state = DIR_DENIED, .missing = "x", .mode = 0700};
	struct dir_result missing = {.state = DIR_MISSING, .path = (char *)"/w", .errnum = 2};
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_dir(&got, 0, &ok);
	report_put_dir(&got, 1, &unknown);
	report_put_dir(&got, 2, &escape);
	report_put_dir(&got, 3, &denied);
	report_put_dir(&got, 4, &denied0);
	report_put_dir(&got, 5, &missing);
	for (unsigned int i = 0; i < 2; i++) {
		enc_u8(&want, REC_DIR);
		enc_u32(&want, i);
		enc_u8(&want, DIR_OK);
	}
	enc_u8(&want, REC_DIR);
	enc_u32(&want, 2);
	enc_u8(&want, DIR_ESCAPE);
	enc_str(&want, "x");
	enc_u8(&want, REC_DIR);
	enc_u32(&want, 3);
	enc_u8(&want, DIR_DENIED);
	enc_str(&want, "/w");
	enc_str(&want, "rx");
	enc_u32(&want, 0750);
	enc_u32(&want, 1234);
	enc_u8(&want, REC_DIR);
	enc_u32(&want, 4);
	enc_u8(&want, DIR_DENIED);
	enc_str(&want, "?");
	enc_str(&want, "x");
	enc_u32(&want, 0700);
	enc_u32(&want, 0);
	enc_u8(&want, REC_DIR);
	enc_u32(&want, 5);
	enc_u8(&want, DIR_MISSING);
	enc_str(&want, "/w");
	enc_i32(&want, 2);
	assert_same(&got, &want, "dir");
	buf_free(&got);
	buf_free(&want);

	/* ITEM u32 I str(path) u32 FLAGS u32 MODE u32 UID; SCAN u32 I u64 u64 u8. */
	struct scan_item it = {(char *)"/w/a", SCAN_NOT_READABLE | SCAN_NOT_WRITABLE, 0600, 1234,
			       NULL};
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_item(&got, 1, &it);
	report_put_scan(&got, 1, 19, 40, 1);
	report_put_scan(&got, 2, UINT64_MAX, 0, 0);
	enc_u8(&want, REC_ITEM);
	enc_u32(&want, 1);
	enc_str(&want, "/w/a");
	enc_u32(&want, 3);
	enc_u32(&want, 0600);
	enc_u32(&want, 1234);
	enc_u8(&want, REC_SCAN);
	enc_u32(&want, 1);
	enc_u64(&want, 19);
	enc_u64(&want, 40);
	enc_u8(&want, 1);
	enc_u8(&want, REC_SCAN);
	enc_u32(&want, 2);
	enc_u64(&want, UINT64_MAX);
	enc_u64(&want, 0);
	enc_u8(&want, 0);
	assert_same(&got, &want, "item and scan");
	buf_free(&got);
	buf_free(&want);

	/* BWRAP i32 str; PROBE u32 K u8 verdict; LIFETIME i32 str (NULL: ""). */
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_bwrap(&got, -2, "no");
	report_put_bwrap(&got, 0, NULL);
	report_put_probe(&got, 0, PROBE_READABLE);
	report_put_probe(&got, 255, PROBE_MISSING);
	report_put_lifetime(&got, 0, "");
	report_put_lifetime(&got, 28, NULL);
	enc_u8(&want, REC_BWRAP);
	enc_i32(&want, -2);
	enc_str(&want, "no");
	enc_u8(&want, REC_BWRAP);
	enc_i32(&want, 0);
	enc_str(&want, "");
	enc_u8(&want, REC_PROBE);
	enc_u32(&want, 0);
	enc_u8(&want, PROBE_READABLE);
	enc_u8(&want, REC_PROBE);
	enc_u32(&want, 255);
	enc_u8(&want, PROBE_MISSING);
	enc_u8(&want, REC_LIFETIME);
	enc_i32(&want, 0);
	enc_str(&want, "");
	enc_u8(&want, REC_LIFETIME);
	enc_i32(&want, 28);
	enc_str(&want, "");
	assert_same(&got, &want, "bwrap, probe, lifetime");
	buf_free(&got);
	buf_free(&want);

	/* ANCHOR str u8 u8 str u32 u32 u32 u8 str; ANCHORS u64. */
	struct report_anchor a = {"/usr/local", 'o', AREL_PARENT, "root-path", 02775, 1234, 0,
				  7, "/usr/local/bin"};
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_anchor(&got, &a);
	report_put_anchors(&got, 1);
	enc_u8(&want, REC_ANCHOR);
	enc_str(&want, "/usr/local");
	enc_u8(&want, 'o');
	enc_u8(&want, AREL_PARENT);
	enc_str(&want, "root-path");
	enc_u32(&want, 02775);
	enc_u32(&want, 1234);
	enc_u32(&want, 0);
	enc_u8(&want, 1);
	enc_str(&want, "/usr/local/bin");
	enc_u8(&want, REC_ANCHORS);
	enc_u64(&want, 1);
	assert_same(&got, &want, "anchor");
	buf_free(&got);
	buf_free(&want);

	/* ACCT u8 ok str(reason: "" when ok); PIDNS i32 str(why: "" when 0). */
	got = (struct buf)BUF_INIT;
	want = (struct buf)BUF_INIT;
	report_put_acct(&got, 1, "ignored");
	report_put_acct(&got, 0, "expired");
	report_put_acct(&got, 0, NULL);
	report_put_pidns(&got, 0, "ignored");
	report_put_pidns(&got, 1, "unshare: Operation not permitted");
	report_put_pidns(&got, 22, NULL);
	enc_u8(&want, REC_ACCT);
	enc_u8(&want, 1);
	enc_str(&want, "");
	enc_u8(&want, REC_ACCT);
	enc_u8(&want, 0);
	enc_str(&want, "expired");
	enc_u8(&want, REC_ACCT);
	enc_u8(&want, 0);
	enc_str(&want, "");
	enc_u8(&want, REC_PIDNS);
	enc_i32(&want, 0);
	enc_str(&want, "");
	enc_u8(&want, REC_PIDNS);
	enc_i32(&want, 1);
	enc_str(&want, "unshare: Operation not permitted");
	enc_u8(&want, REC_PIDNS);
	enc_i32(&want, 22);
	enc_str(&want, "");
	assert_same(&got, &want, "acct and pidns");
	buf_free(&got);
	buf_free(&want);
}

/* ------------------------------------------------------- round trips */

/* A whole helper's report, every record kind, through the decoder: what was written. */
static void test_round_trip(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	report_begin(&b, REPORT_FROM_HELPER);
	report_put_esc(&b, 0, 1, 1, "Sorry, user t1 may not run sudo.\n", 0);
	report_put_esc(&b, 1, -13, 0, "", 1);
	gid_t g[] = {27};
	report_put_gids(&b, 1000, g, 1);
	struct dir_result ok = {.state = DIR_OK};
	struct dir_result denied = {.state = DIR_DENIED, .path = (char *)"/w", .missing = "r",
				    .mode = 0711, .uid = 0};
	struct dir_result missing = {.state = DIR_MISSING, .path = (char *)"/m", .errnum = 2};
	struct dir_result escape = {.state = DIR_ESCAPE, .path = (char *)"outside its scope"};
	report_put_dir(&b, 0, &ok);
	struct scan_item it = {(char *)"/w/a b", SCAN_NOT_SEARCHABLE, 0700, 1234, NULL};
	struct scan_item it2 = {(char *)"/w/c\n", 7, 07777, REPORT_UID_UNKNOWN, NULL};
	report_put_item(&b, 0, &it);
	report_put_item(&b, 0, &it2);
	report_put_scan(&b, 0, 1, 9, 0);
	report_put_dir(&b, 1, &denied);
	report_put_dir(&b, 2, &missing);
	report_put_dir(&b, 3, &escape);
	report_put_scan(&b, 3, 0, 12345, 1);
	struct report_anchor a = {"/etc/passwd", 'w', AREL_SELF, "users", 0666, 0, 42, 0,
				  "/etc/passwd"};
	report_put_anchor(&b, &a);
	report_put_bwrap(&b, 0, "");
	report_put_passwd(&b, 0, "t1 NP 2026-12-05 0 99999 7 -1\n");
	report_put_doas(&b, 1, "doas: Authentication required\n");
	report_put_lifetime(&b, 1, "unshare: Operation not permitted");
	report_put_rlimits(&b, 2048, UINT64_MAX);
	report_put_probe(&b, 0, PROBE_DENIED);
	report_put_probe(&b, 3, PROBE_READABLE);
	report_put_probe(&b, 255, PROBE_MISSING);
	report_put_anchors(&b, 1);
	assert_false(b.oom);

	struct report rep;
	const char *why = NULL;
	assert_int_equal(report_decode(b.data, b.len, 4, &rep, &why), 0);
	assert_int_equal(rep.origin, REPORT_FROM_HELPER);
	const struct helper_report *r = &rep.helper;
	assert_true(r->complete);
	assert_true(r->esc_seen);
	assert_int_equal(r->true_rc, 1);
	assert_int_equal(r->list_rc, 1);
	assert_string_equal(r->list_out, "Sorry, user t1 may not run sudo.\n");
	assert_int_equal(r->list_cut, 0);
	assert_true(r->esctty_seen);
	assert_int_equal(r->tty_true_rc, -13);
	assert_int_equal(r->tty_list_rc, 0);
	assert_string_equal(r->tty_list_out, "");
	assert_int_equal(r->tty_list_cut, 1);
	assert_true(r->gids_seen);
	assert_int_equal(r->ngids, 2);
	assert_int_equal(r->gids[0], 1000);
	assert_int_equal(r->gids[1], 27);
	assert_int_equal(r->ndirs, 4);
	assert_int_equal(r->dirs[0].state, DIR_OK);
	assert_int_equal(r->dirs[0].nitems, 2);
	assert_string_equal(r->dirs[0].items[0].path, "/w/a b");
	assert_int_equal(r->dirs[0].items[0].flags, SCAN_NOT_SEARCHABLE);
	assert_int_equal(r->dirs[0].items[0].mode, 0700);
	assert_int_equal(r->dirs[0].items[0].uid, 1234);
	/* Numbers only: the library names them (src/lib/check/report_names.h). */
	assert_null(r->dirs[0].items[0].owner);
	assert_string_equal(r->dirs[0].items[1].path, "/w/c\n");
	assert_int_equal(r->dirs[0].items[1].flags, 7);
	assert_int_equal(r->dirs[0].items[1].mode, 07777);
	assert_int_equal(r->dirs[0].items[1].uid, REPORT_UID_UNKNOWN);
	assert_true(r->dirs[0].scanned);
	assert_int_equal(r->dirs[0].total, 1);
	assert_int_equal(r->dirs[0].entries, 9);
	assert_int_equal(r->dirs[0].incomplete, 0);
	assert_int_equal(r->dirs[1].state, DIR_DENIED);
	assert_string_equal(r->dirs[1].path, "/w");
	assert_string_equal(r->dirs[1].missing, "r");
	assert_int_equal(r->dirs[1].mode, 0711);
	assert_int_equal(r->dirs[1].uid, 0);
	assert_null(r->dirs[1].owner);
	assert_false(r->dirs[1].scanned);
	assert_int_equal(r->dirs[2].state, DIR_MISSING);
	assert_string_equal(r->dirs[2].path, "/m");
	assert_int_equal(r->dirs[2].errnum, 2);
	assert_int_equal(r->dirs[3].state, DIR_ESCAPE);
	assert_string_equal(r->dirs[3].path, "outside its scope");
	assert_int_equal(r->dirs[3].entries, 12345);
	assert_int_equal(r->dirs[3].incomplete, 1);
	assert_int_equal(r->nanchors, 1);
	assert_true(r->anchors_seen);
	assert_int_equal(r->anchors_total, 1);
	assert_string_equal(r->anchors[0].path, "/etc/passwd");
	assert_int_equal(r->anchors[0].how, 'w');
	assert_int_equal(r->anchors[0].rel, AREL_SELF);
	assert_string_equal(r->anchors[0].id, "users");
	assert_int_equal(r->anchors[0].mode, 0666);
	assert_int_equal(r->anchors[0].uid, 0);
	assert_int_equal(r->anchors[0].gid, 42);
	assert_null(r->anchors[0].owner);
	assert_null(r->anchors[0].group);
	assert_int_equal(r->anchors[0].acl, 0);
	assert_string_equal(r->anchors[0].anchor, "/etc/passwd");
	assert_true(r->passwd_seen);
	assert_int_equal(r->passwd_rc, 0);
	assert_string_equal(r->passwd_out, "t1 NP 2026-12-05 0 99999 7 -1\n");
	assert_true(r->doas_seen);
	assert_int_equal(r->doas_rc, 1);
	assert_string_equal(r->doas_out, "doas: Authentication required\n");
	assert_true(r->bwrap_seen);
	assert_int_equal(r->bwrap_rc, 0);
	assert_string_equal(r->bwrap_out, "");
	assert_true(r->lifetime_seen);
	assert_int_equal(r->lifetime_errno, 1);
	assert_string_equal(r->lifetime_why, "unshare: Operation not permitted");
	assert_true(r->rlimits_seen);
	assert_true(r->hard_nofile == 2048 && r->hard_fsize == UINT64_MAX);
	assert_int_equal(r->probes[0], PROBE_DENIED);
	assert_int_equal(r->probes[1], PROBE_UNKNOWN);
	assert_int_equal(r->probes[3], PROBE_READABLE);
	assert_int_equal(r->probes[255], PROBE_MISSING);
	assert_int_equal(rep.session.acct, SESSION_ACCT_NONE);
	/* helper_report_free() alone frees the helper's half (the engine keeps it). */
	struct helper_report kept = rep.helper;
	memset(&rep.helper, 0, sizeof rep.helper);
	report_free(&rep);
	helper_report_free(&kept);

	/* ANCHORS is last: every cut of the report lacks it, or is cut inside a record. */
	for (size_t n = 0; n < b.len; n++) {
		if (report_decode(b.data, n, 4, &rep, &why) == 0) {
			report_free(&rep);
			fail_msg("a report cut to %zu of its %zu bytes was accepted", n, b.len);
		}
		assert_empty(&rep);
	}
	/* And the check sent fewer work_dirs than it names: not trusted. */
	assert_int_equal(report_decode(b.data, b.len, 3, &rep, &why), -1);
	assert_non_null(strstr(why, "work_dir the check did not send"));
	buf_free(&b);
}

/* ruas-session's report: the account's verdict, and root's PID namespace's. */
static void test_session_report(void **state)
{
	(void)state;
	static const struct {
		int ok;
		const char *reason;
		int pidns; /* -1: no record */
		const char *why;
	} cases[] = {
		{1, NULL, -1, NULL},
		{1, NULL, 0, NULL},
		{0, "Your account has expired; please contact your admin", -1, NULL},
		{0, "", 1, "unshare: Operation not permitted"},
		{1, NULL, 4095, ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf b = BUF_INIT;
		report_begin(&b, REPORT_FROM_SESSION);
		report_put_acct(&b, cases[i].ok, cases[i].reason);
		if (cases[i].pidns >= 0)
			report_put_pidns(&b, cases[i].pidns, cases[i].why);
		struct report r;
		const char *why;
		/* A session's report names no work_dir: whatever the check sent does not matter. */
		assert_int_equal(decode(&b, 3, &r, &why), 0);
		assert_int_equal(r.origin, REPORT_FROM_SESSION);
		assert_false(r.helper.complete);
		assert_null(r.helper.dirs);
		assert_int_equal(r.session.acct, cases[i].ok ? SESSION_ACCT_OK : SESSION_ACCT_FAIL);
		assert_string_equal(r.session.reason, cases[i].ok ? "" : cases[i].reason);
		assert_int_equal(r.session.pidns_seen, cases[i].pidns >= 0);
		if (cases[i].pidns >= 0) {
			assert_int_equal(r.session.pidns_errno, cases[i].pidns);
			assert_string_equal(r.session.pidns_why,
					    cases[i].pidns ? cases[i].why : "");
		}
		session_report_free(&r.session);
		report_free(&r);
		buf_free(&b);
	}
}

/* ----------------------------------------------------------- the rules */

/* Each record, repeated, makes the report invalid (no "last one wins", no "fail wins"). */
/* A report whose escalation probes the library holds: ESC_KNOWN in place of both ESCs, alone. */
static void test_esc_known(void **state)
{
	(void)state;
	gid_t g[1] = {27};
	struct buf b = BUF_INIT;
	struct report r;
	const char *why = NULL;
	report_begin(&b, REPORT_FROM_HELPER);
	report_put_esc_known(&b);
	report_put_gids(&b, 1000, g, 1);
	report_put_anchors(&b, 0);
	assert_int_equal(report_decode(b.data, b.len, 0, &r, &why), 0);
	assert_int_equal(r.helper.complete, 1);
	assert_int_equal(r.helper.esc_known, 1);
	assert_int_equal(r.helper.esc_seen, 0);
	report_free(&r);
	buf_free(&b);
	/* Beside the ESCs it stands for, or twice: refused. */
	for (int k = 0; k < 2; k++) {
		b = (struct buf)BUF_INIT;
		if (k == 0) {
			helper_start(&b);
		} else {
			report_begin(&b, REPORT_FROM_HELPER);
			report_put_esc_known(&b);
			report_put_gids(&b, 1000, g, 1);
		}
		report_put_esc_known(&b);
		report_put_anchors(&b, 0);
		assert_int_equal(report_decode(b.data, b.len, 0, &r, &why), -1);
		report_free(&r);
		buf_free(&b);
	}
	/* Without either: refused. */
	b = (struct buf)BUF_INIT;
	report_begin(&b, REPORT_FROM_HELPER);
	report_put_gids(&b, 1000, g, 1);
	report_put_anchors(&b, 0);
	assert_int_equal(report_decode(b.data, b.len, 0, &r, &why), -1);
	report_free(&r);
	buf_free(&b);
	/* Beside one ESC alone, or a passwd or doas probe, that it stands for too: refused. */
	for (int k = 0; k < 4; k++) {
		b = (struct buf)BUF_INIT;
		report_begin(&b, REPORT_FROM_HELPER);
		report_put_esc_known(&b);
		if (k < 2)
			report_put_esc(&b, k, 0, 0, "(ALL) ALL\n", 0);
		else if (k == 2)
			report_put_passwd(&b, 0, "t1 P 2026-01-01 0 99999 7 -1");
		else
			report_put_doas(&b, 1, "");
		report_put_gids(&b, 1000, g, 1);
		report_put_anchors(&b, 0);
		if (report_decode(b.data, b.len, 0, &r, &why) != -1)
			fail_msg("esc-known beside probe record %d was accepted", k);
		report_free(&r);
		buf_free(&b);
	}
}

static void test_repeats_refused(void **state)
{
	(void)state;
	gid_t g[1] = {27};
	struct dir_result ok = {.state = DIR_OK};
	struct scan_item it = {(char *)"/w/a", 1, 0600, 1234, NULL};
	for (int k = 0; k < 13; k++) {
		struct buf b = BUF_INIT;
		helper_start(&b);
		const char *what = "";
		switch (k) {
		case 12:
			report_put_rlimits(&b, 64, 64);
			report_put_rlimits(&b, UINT64_MAX, UINT64_MAX);
			what = "rlimits";
			break;
		case 0:
			report_put_esc(&b, 0, 0, 0, "forged", 0);
			what = "esc";
			break;
		case 1:
			report_put_esc(&b, 1, 0, 0, "forged", 0);
			what = "esctty";
			break;
		case 2:
			report_put_gids(&b, 0, g, 0);
			what = "gids";
			break;
		case 3:
			report_put_dir(&b, 0, &ok);
			report_put_dir(&b, 0, &ok);
			what = "dir";
			break;
		case 4:
			report_put_scan(&b, 0, 0, 0, 0);
			report_put_scan(&b, 0, 0, 0, 0);
			what = "scan";
			break;
		case 5:
			report_put_bwrap(&b, 0, "");
			report_put_bwrap(&b, 1, "");
			what = "bwrap";
			break;
		case 6:
			report_put_lifetime(&b, 0, "");
			report_put_lifetime(&b, 1, "");
			what = "lifetime";
			break;
		case 7:
			report_put_probe(&b, 5, PROBE_DENIED);
			report_put_probe(&b, 5, PROBE_READABLE);
			what = "probe";
			break;
		case 8:
			report_put_anchors(&b, 0);
			what = "anchors";
			break;
		case 10:
			report_put_passwd(&b, 0, "t1 P 2026-12-05 0 99999 7 -1\n");
			report_put_passwd(&b, 0, "t1 NP 2026-12-05 0 99999 7 -1\n");
			what = "passwd";
			break;
		case 11:
			report_put_doas(&b, 1, "doas: Authentication required\n");
			report_put_doas(&b, 0, "");
			what = "doas";
			break;
		case 9:
			/* Items are a list: many for one dir are fine (the control). */
			report_put_item(&b, 0, &it);
			report_put_item(&b, 0, &it);
			report_put_anchors(&b, 0);
			assert_accepted(&b, 1, "two items");
			buf_free(&b);
			continue;
		}
		report_put_anchors(&b, 0);
		assert_refused(&b, 1, "repeat", what);
		buf_free(&b);
	}
	/* The session's: the account's verdict twice (ok then fail, fail then ok), PIDNS twice. */
	for (int k = 0; k < 3; k++) {
		struct buf b = BUF_INIT;
		report_begin(&b, REPORT_FROM_SESSION);
		report_put_acct(&b, k != 1, "x");
		if (k < 2)
			report_put_acct(&b, k == 1, "x");
		report_put_pidns(&b, 0, "");
		if (k == 2)
			report_put_pidns(&b, 1, "no");
		assert_refused(&b, 0, "repeats", "a session's repeat");
		buf_free(&b);
	}
}

/* DIR, ITEM and SCAN index the check's dirs; PROBE its probes (0..255). */
static void test_indexes(void **state)
{
	(void)state;
	struct dir_result ok = {.state = DIR_OK};
	struct scan_item it = {(char *)"/w/a", 1, 0600, 1234, NULL};
	for (int k = 0; k < 3; k++) {
		for (unsigned int idx = 1; idx <= 3; idx++) {
			struct buf extra = BUF_INIT, b = BUF_INIT;
			if (k == 0)
				report_put_dir(&extra, idx, &ok);
			else if (k == 1)
				report_put_item(&extra, idx, &it);
			else
				report_put_scan(&extra, idx, 0, 0, 0);
			helper_with(&b, &extra);
			/* ndirs 2: index 1 is the last there is. */
			if (idx < 2)
				assert_accepted(&b, 2, "an index in range");
			else
				assert_refused(&b, 2, "work_dir the check did not send",
					       "an index past the dirs");
			/* A check of no dirs: any index is past them. */
			assert_refused(&b, 0, "work_dir the check did not send", "no dirs");
			buf_free(&extra);
			buf_free(&b);
		}
	}
	struct buf extra = BUF_INIT, b = BUF_INIT;
	enc_u8(&extra, REC_DIR);
	enc_u32(&extra, 0xffffffffu);
	enc_u8(&extra, DIR_OK);
	helper_with(&b, &extra);
	assert_refused(&b, 2, "work_dir the check did not send", "dir 0xffffffff");
	buf_free(&extra);
	buf_free(&b);

	static const uint32_t probes[] = {255, 256, 1000, 0xffffffffu};
	for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		extra = (struct buf)BUF_INIT;
		b = (struct buf)BUF_INIT;
		enc_u8(&extra, REC_PROBE);
		enc_u32(&extra, probes[i]);
		enc_u8(&extra, PROBE_READABLE);
		helper_with(&b, &extra);
		if (probes[i] < REPORT_MAX_PROBES)
			assert_accepted(&b, 0, "probe 255");
		else
			assert_refused(&b, 0, "probe", "a probe past 255");
		buf_free(&extra);
		buf_free(&b);
	}
	/* A check that says it sent more dirs than the report could hold. */
	b = (struct buf)BUF_INIT;
	helper_with(&b, NULL);
	assert_refused(&b, b.len + 1, "more work_dirs than it can hold", "ndirs > len");
	assert_accepted(&b, b.len, "ndirs == len");
	buf_free(&b);
}

/* Values out of range: flags, modes over 07777, states, verdicts, errnos, rels. */
static void test_values(void **state)
{
	(void)state;
	/* A u8 flag (ESC's tty and cut, SCAN's incomplete, ANCHOR's acl, ACCT's ok): 0 or 1. */
	for (int k = 0; k < 5; k++) {
		struct buf extra = BUF_INIT, b = BUF_INIT;
		switch (k) {
		case 0: /* a third ESC, of tty 2 */
			report_begin(&b, REPORT_FROM_HELPER);
			report_put_esc(&b, 0, 1, 1, "", 0);
			enc_u8(&b, REC_ESC);
			enc_u8(&b, 2);
			enc_i32(&b, 1);
			enc_i32(&b, 1);
			enc_str(&b, "");
			enc_u8(&b, 0);
			report_put_gids(&b, 1, NULL, 0);
			report_put_anchors(&b, 0);
			break;
		case 1:
			report_begin(&b, REPORT_FROM_HELPER);
			report_put_esc(&b, 0, 1, 1, "", 0);
			enc_u8(&b, REC_ESC);
			enc_u8(&b, 1);
			enc_i32(&b, 1);
			enc_i32(&b, 1);
			enc_str(&b, "");
			enc_u8(&b, 2);
			report_put_gids(&b, 1, NULL, 0);
			report_put_anchors(&b, 0);
			break;
		case 2:
			enc_u8(&extra, REC_SCAN);
			enc_u32(&extra, 0);
			enc_u64(&extra, 0);
			enc_u64(&extra, 0);
			enc_u8(&extra, 2);
			helper_with(&b, &extra);
			break;
		case 3:
			enc_u8(&extra, REC_ANCHOR);
			enc_str(&extra, "/etc/passwd");
			enc_u8(&extra, 'w');
			enc_u8(&extra, AREL_SELF);
			enc_str(&extra, "users");
			enc_u32(&extra, 0666);
			enc_u32(&extra, 0);
			enc_u32(&extra, 0);
			enc_u8(&extra, 2);
			enc_str(&extra, "/etc/passwd");
			helper_start(&b);
			buf_add(&b, extra.data, extra.len);
			report_put_anchors(&b, 1);
			break;
		case 4:
			report_begin(&b, REPORT_FROM_SESSION);
			enc_u8(&b, REC_ACCT);
			enc_u8(&b, 2);
			enc_str(&b, "");
			break;
		}
		assert_refused(&b, 1, "neither 0 nor 1", "a flag of 2");
		buf_free(&extra);
		buf_free(&b);
	}

	/* Modes: DENIED's and ITEM's (ANCHOR's: test_anchors.c) at most 07777. */
	for (uint32_t mode = 07776; mode <= 010001; mode++) {
		struct buf extra = BUF_INIT, b = BUF_INIT;
		struct dir_result denied = {.state = DIR_DENIED, .path = (char *)"/w", .missing = "x",
					    .mode = mode, .owner = (char *)"root"};
		report_put_dir(&extra, 0, &denied);
		struct scan_item it = {(char *)"/w/a", 1, mode, 1234, NULL};
		report_put_item(&extra, 0, &it);
		helper_with(&b, &extra);
		if (mode <= 07777)
			assert_accepted(&b, 1, "mode 07777");
		else
			assert_refused(&b, 1, "out of range", "a mode over 07777");
		buf_free(&extra);
		buf_free(&b);
	}
	struct buf extra = BUF_INIT, b = BUF_INIT;
	struct scan_item big = {(char *)"/w/a", 1, 010000, 1234, NULL};
	report_put_item(&extra, 0, &big);
	helper_with(&b, &extra);
	assert_refused(&b, 1, "scan item is out of range", "an item's mode over 07777");
	buf_free(&extra);
	buf_free(&b);

	/* ITEM's flags: 1..7. */
	for (uint32_t f = 0; f <= 9; f++) {
		extra = (struct buf)BUF_INIT;
		b = (struct buf)BUF_INIT;
		struct scan_item it = {(char *)"/w/a", f, 0600, 1234, NULL};
		report_put_item(&extra, 0, &it);
		helper_with(&b, &extra);
		if (f >= 1 && f <= 7)
			assert_accepted(&b, 1, "item flags 1..7");
		else
			assert_refused(&b, 1, "scan item is out of range", "item flags 0 or 8+");
		buf_free(&extra);
		buf_free(&b);
	}

	/* DIR states: OK, DENIED, MISSING, ESCAPE; DENIED's missing r, x or rx; errnos 0..4095. */
	static const unsigned int states[] = {DIR_UNKNOWN, DIR_ESCAPE + 1, 255};
	for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
		extra = (struct buf)BUF_INIT;
		b = (struct buf)BUF_INIT;
		enc_u8(&extra, REC_DIR);
		enc_u32(&extra, 0);
		enc_u8(&extra, states[i]);
		helper_with(&b, &extra);
		assert_refused(&b, 1, "state is unknown", "a dir state");
		buf_free(&extra);
		buf_free(&b);
	}
	static const char *const missings[] = {"r", "x", "rx", "", "w", "xr", "rwx", "rx "};
	for (size_t i = 0; i < sizeof missings / sizeof missings[0]; i++) {
		extra = (struct buf)BUF_INIT;
		b = (struct buf)BUF_INIT;
		enc_u8(&extra, REC_DIR);
		enc_u32(&extra, 0);
		enc_u8(&extra, DIR_DENIED);
		enc_str(&extra, "/w");
		enc_str(&extra, missings[i]);
		enc_u32(&extra, 0700);
		enc_u32(&extra, 0);
		helper_with(&b, &extra);
		if (i < 3)
			assert_accepted(&b, 1, "missing r, x or rx");
		else
			assert_refused(&b, 1, "denied work_dir record is out of range",
				       "missing of another kind");
		buf_free(&extra);
		buf_free(&b);
	}
	static const int32_t errnos[] = {0, 4095, -1, 4096, INT32_MIN};
	for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++) {
		for (int k = 0; k < 3; k++) {
			extra = (struct buf)BUF_INIT;
			b = (struct buf)BUF_INIT;
			if (k == 2) {
				report_begin(&b, REPORT_FROM_SESSION);
				report_put_acct(&b, 1, "");
				enc_u8(&b, REC_PIDNS);
				enc_i32(&b, errnos[i]);
				enc_str(&b, "");
			} else {
				if (k == 0) {
					struct dir_result m = {.state = DIR_MISSING,
							       .path = (char *)"/w",
							       .errnum = errnos[i]};
					report_put_dir(&extra, 0, &m);
				} else {
					report_put_lifetime(&extra, errnos[i], "");
				}
				helper_with(&b, &extra);
			}
			if (i < 2)
				assert_accepted(&b, 1, "errno 0..4095");
			else
				assert_refused(&b, 1, "errno is out of range", "an errno out of range");
			buf_free(&extra);
			buf_free(&b);
		}
	}

	/* PROBE verdicts: readable, denied, missing. */
	for (unsigned int v = 0; v <= 5; v++) {
		extra = (struct buf)BUF_INIT;
		b = (struct buf)BUF_INIT;
		enc_u8(&extra, REC_PROBE);
		enc_u32(&extra, 0);
		enc_u8(&extra, v);
		helper_with(&b, &extra);
		if (v >= PROBE_READABLE && v <= PROBE_MISSING)
			assert_accepted(&b, 0, "a verdict");
		else
			assert_refused(&b, 0, "probe record out of range", "a verdict unknown");
		buf_free(&extra);
		buf_free(&b);
	}

	/* GIDS: 1..65537 of them (the egid and NGROUPS_MAX groups). */
	static const uint32_t counts[] = {0, 1, 65537, 65538};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		b = (struct buf)BUF_INIT;
		report_begin(&b, REPORT_FROM_HELPER);
		report_put_esc(&b, 0, 1, 1, "", 0);
		report_put_esc(&b, 1, 1, 1, "", 0);
		enc_u8(&b, REC_GIDS);
		enc_u32(&b, counts[i]);
		for (uint32_t k = 0; k < counts[i]; k++)
			enc_u32(&b, k);
		report_put_anchors(&b, 0);
		if (counts[i] >= 1 && counts[i] <= 65537)
			assert_accepted(&b, 0, "a group count in range");
		else
			assert_refused(&b, 0, "group count is out of range", "a group count");
		buf_free(&b);
	}
	/* A group count past the body. */
	b = (struct buf)BUF_INIT;
	report_begin(&b, REPORT_FROM_HELPER);
	enc_u8(&b, REC_GIDS);
	enc_u32(&b, 1000);
	enc_u32(&b, 0);
	assert_refused(&b, 0, "count exceeds its message", "a group count past the body");
	buf_free(&b);
}

/* Each of a helper's required records missing; a session's without its account's verdict. */
static void test_required_records(void **state)
{
	(void)state;
	gid_t g[1] = {27};
	for (int skip = 0; skip < 4; skip++) {
		struct buf b = BUF_INIT;
		report_begin(&b, REPORT_FROM_HELPER);
		if (skip != 0)
			report_put_esc(&b, 0, 1, 1, "", 0);
		if (skip != 1)
			report_put_esc(&b, 1, 1, 1, "", 0);
		if (skip != 2)
			report_put_gids(&b, 1000, g, 1);
		/* Unreadable groups: no record, refused like a missing one. */
		if (skip == 2)
			report_put_gids(&b, 1000, g, -1);
		if (skip != 3)
			report_put_anchors(&b, 0);
		assert_refused(&b, 0, "lacks a required record", "a required record missing");
		buf_free(&b);
	}
	struct buf b = BUF_INIT;
	report_begin(&b, REPORT_FROM_HELPER);
	assert_refused(&b, 0, "lacks", "only the origin");
	buf_free(&b);

	b = (struct buf)BUF_INIT;
	report_begin(&b, REPORT_FROM_SESSION);
	assert_refused(&b, 0, "lacks the account's verdict", "an empty session report");
	report_put_pidns(&b, 0, "");
	assert_refused(&b, 0, "lacks the account's verdict", "PIDNS alone");
	buf_free(&b);
}

/* Records of the other origin, an unknown origin or tag, and no body: all refused. */
static void test_origins_and_tags(void **state)
{
	(void)state;
	/* A helper's report holding the session's verdicts (forged by the target's helper). */
	for (int k = 0; k < 2; k++) {
		struct buf b = BUF_INIT;
		helper_start(&b);
		if (k == 0)
			report_put_acct(&b, 1, "");
		else
			report_put_pidns(&b, 0, "");
		report_put_anchors(&b, 0);
		assert_refused(&b, 0, "unknown to a helper's report", "a session's record");
		buf_free(&b);
	}
	/* A session's report holding any of a helper's records. */
	gid_t g[1] = {27};
	struct dir_result ok = {.state = DIR_OK};
	for (int k = 0; k < 5; k++) {
		struct buf b = BUF_INIT;
		report_begin(&b, REPORT_FROM_SESSION);
		report_put_acct(&b, 1, "");
		if (k == 0)
			report_put_esc(&b, 0, 0, 0, "", 0);
		else if (k == 1)
			report_put_gids(&b, 0, g, 1);
		else if (k == 2)
			report_put_dir(&b, 0, &ok);
		else if (k == 3)
			report_put_lifetime(&b, 0, "");
		else
			report_put_anchors(&b, 0);
		assert_refused(&b, 1, "unknown to a session's report", "a helper's record");
		buf_free(&b);
	}
	/* Origins. */
	static const unsigned int origins[] = {0, 3, 255};
	for (size_t i = 0; i < sizeof origins / sizeof origins[0]; i++) {
		struct buf b = BUF_INIT;
		helper_with(&b, NULL);
		b.data[0] = (char)origins[i];
		assert_refused(&b, 0, "origin unknown", "an origin");
		buf_free(&b);
	}
	struct buf none = BUF_INIT;
	struct report r;
	const char *why = NULL;
	assert_int_equal(report_decode("", 0, 0, &r, &why), -1);
	assert_non_null(why);
	assert_empty(&r);
	assert_int_equal(report_decode(NULL, 0, 0, &r, NULL), -1);
	buf_free(&none);
	/* Tags. */
	static const unsigned int tags[] = {0, REC_PIDNS + 1, 255};
	for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		struct buf extra = BUF_INIT, b = BUF_INIT;
		enc_u8(&extra, tags[i]);
		helper_with(&b, &extra);
		assert_refused(&b, 0, "record unknown", "a tag");
		buf_free(&extra);
		buf_free(&b);
		b = (struct buf)BUF_INIT;
		report_begin(&b, REPORT_FROM_SESSION);
		report_put_acct(&b, 1, "");
		enc_u8(&b, tags[i]);
		assert_refused(&b, 0, "record unknown", "a session's tag");
		buf_free(&b);
	}
	/* A string with a NUL inside (the listing's), cut or over-long. */
	struct buf b = BUF_INIT;
	report_begin(&b, REPORT_FROM_HELPER);
	enc_u8(&b, REC_ESC);
	enc_u8(&b, 0);
	enc_i32(&b, 1);
	enc_i32(&b, 1);
	enc_u32(&b, 3);
	buf_add(&b, "a\0b", 3);
	enc_u8(&b, 0);
	assert_refused(&b, 0, "NUL", "a NUL in a listing");
	buf_free(&b);
}

/* ANCHOR records: after the count or past the cap refused; the count matches the records. */
static void test_anchor_rules(void **state)
{
	(void)state;
	struct report_anchor a = {"/etc/passwd", 'w', AREL_SELF, "users", 0666, 0, 0, 0,
				  "/etc/passwd"};
	struct buf b = BUF_INIT;
	helper_start(&b);
	report_put_anchors(&b, 0);
	report_put_anchor(&b, &a);
	assert_refused(&b, 0, "anchor after its count", "an anchor after the count");
	buf_free(&b);
	for (uint64_t total = 0; total <= 3; total++) {
		b = (struct buf)BUF_INIT;
		helper_start(&b);
		report_put_anchor(&b, &a);
		report_put_anchor(&b, &a);
		report_put_anchors(&b, (size_t)total);
		if (total == 2)
			assert_accepted(&b, 0, "a count of the records");
		else
			assert_refused(&b, 0, "anchor count does not match", "a count off");
		buf_free(&b);
	}
	b = (struct buf)BUF_INIT;
	helper_start(&b);
	for (unsigned int i = 0; i <= ANCHOR_REPORT_CAP; i++)
		report_put_anchor(&b, &a);
	report_put_anchors(&b, 1000);
	assert_refused(&b, 0, "too many", "one past the cap");
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_session_report),
		cmocka_unit_test(test_esc_known),
		cmocka_unit_test(test_repeats_refused),
		cmocka_unit_test(test_indexes),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_required_records),
		cmocka_unit_test(test_origins_and_tags),
		cmocka_unit_test(test_anchor_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
