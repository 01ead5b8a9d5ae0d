/* SPDX-License-Identifier: ISC */
/* report_read.c - the library's half of REPORT: its one decoder; see report.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helper_report.h"

/* The largest group list a GIDS record may carry (NGROUPS_MAX and the egid). */
#define MAX_GIDS 65537u

void helper_report_free(struct helper_report *r)
{
	free(r->list_out);
	free(r->tty_list_out);
	free(r->gids);
	free(r->bwrap_out);
	free(r->lifetime_why);
	free(r->passwd_out);
	free(r->doas_out);
	for (size_t i = 0; r->dirs && i < r->ndirs; i++) {
		free(r->dirs[i].path);
		free(r->dirs[i].owner);
		scan_items_free(r->dirs[i].items, r->dirs[i].nitems);
	}
	free(r->dirs);
	for (size_t i = 0; r->anchors && i < r->nanchors; i++) {
		free(r->anchors[i].path);
		free(r->anchors[i].owner);
		free(r->anchors[i].group);
		free(r->anchors[i].anchor);
	}
	free(r->anchors);
	cmd_results_free(&r->cmds);
	memset(r, 0, sizeof *r);
}

void session_report_free(struct session_report *s)
{
	free(s->reason);
	free(s->pidns_why);
	memset(s, 0, sizeof *s);
}

void report_free(struct report *r)
{
	helper_report_free(&r->helper);
	session_report_free(&r->session);
	r->origin = 0;
}

static int errno_ok(int32_t e)
{
	return e >= 0 && e <= 4095;
}

static int mode_ok(uint32_t m)
{
	return m <= 07777;
}

static int anchor_id_ok(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < sizeof ((struct anchor_hit *)0)->id &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

/* A u8 that must be 0 or 1. */
static int dec_bool(struct dec *d, int *out)
{
	unsigned int v;
	if (dec_u8(d, &v) < 0)
		return -1;
	if (v > 1)
		return dec_fail(d, "report flag is neither 0 nor 1");
	*out = (int)v;
	return 0;
}

/* ANCHOR str(path) u8 HOW u8 REL str(ID) u32 MODE u32 UID u32 GID u8 ACL str(anchor) */
static int anchor_record(struct dec *d, struct helper_report *r)
{
	if (r->anchors_seen || r->nanchors >= ANCHOR_REPORT_CAP)
		return dec_fail(d, "report has an anchor after its count, or too many");
	struct anchor_hit *a = realloc(r->anchors, (r->nanchors + 1) * sizeof *a);
	if (!a)
		return dec_fail(d, "out of memory");
	r->anchors = a;
	a = &a[r->nanchors++];
	memset(a, 0, sizeof *a);
	unsigned int how, rel;
	uint32_t mode, uid, gid;
	char *id = NULL;
	int bad = dec_str(d, &a->path) < 0 || dec_u8(d, &how) < 0 || dec_u8(d, &rel) < 0 ||
		  dec_str(d, &id) < 0 || dec_u32(d, &mode) < 0 || dec_u32(d, &uid) < 0 ||
		  dec_u32(d, &gid) < 0 || dec_bool(d, &a->acl) < 0 || dec_str(d, &a->anchor) < 0;
	if (!bad && (!how || !strchr("owrdc", (int)how) || rel < AREL_SELF || rel > AREL_LINK ||
		     !anchor_id_ok(id) || !mode_ok(mode) || a->path[0] != '/' || a->anchor[0] != '/'))
		bad = dec_fail(d, "report anchor record out of range");
	if (!bad) {
		a->how = (char)how;
		a->rel = (int)rel;
		a->mode = mode;
		a->uid = uid;
		a->gid = gid;
		memcpy(a->id, id, strlen(id) + 1);
	}
	free(id);
	return bad ? -1 : 0;
}

/* ESC u8 tty i32 TRUE_RC i32 LIST_RC str(output) u8 CUT */
static int esc_record(struct dec *d, struct helper_report *r)
{
	int tty = 0, cut = 0;
	int32_t a, b;
	char *out = NULL;
	if (dec_bool(d, &tty) < 0 || dec_i32(d, &a) < 0 || dec_i32(d, &b) < 0 ||
	    dec_str(d, &out) < 0 || dec_bool(d, &cut) < 0) {
		free(out);
		return -1;
	}
	int *seen = tty ? &r->esctty_seen : &r->esc_seen;
	if (*seen) {
		free(out);
		return dec_fail(d, "report repeats an escalation record");
	}
	*seen = 1;
	*(tty ? &r->tty_true_rc : &r->true_rc) = a;
	*(tty ? &r->tty_list_rc : &r->list_rc) = b;
	*(tty ? &r->tty_list_cut : &r->list_cut) = cut;
	*(tty ? &r->tty_list_out : &r->list_out) = out;
	return 0;
}

/* GIDS u32 count, u32 gid... */
static int gids_record(struct dec *d, struct helper_report *r)
{
	size_t n;
	if (r->gids_seen)
		return dec_fail(d, "report repeats its groups");
	if (dec_count(d, 4, &n) < 0)
		return -1;
	if (n < 1 || n > MAX_GIDS)
		return dec_fail(d, "report's group count is out of range");
	r->gids = calloc(n, sizeof *r->gids);
	if (!r->gids)
		return dec_fail(d, "out of memory");
	for (size_t i = 0; i < n; i++) {
		uint32_t g;
		if (dec_u32(d, &g) < 0)
			return -1;
		r->gids[r->ngids++] = g;
	}
	r->gids_seen = 1;
	return 0;
}

/* BWRAP i32 RC str(output) */
static int bwrap_record(struct dec *d, struct helper_report *r)
{
	int32_t rc;
	if (r->bwrap_seen)
		return dec_fail(d, "report repeats its bwrap record");
	if (dec_i32(d, &rc) < 0 || dec_str(d, &r->bwrap_out) < 0)
		return -1;
	r->bwrap_seen = 1;
	r->bwrap_rc = rc;
	return 0;
}

/* PASSWD or DOAS: i32 RC str(output), once each. */
static int run_record(struct dec *d, const char *what, int *seen, int *rc, char **out)
{
	int32_t v;
	if (*seen)
		return dec_fail(d, what);
	if (dec_i32(d, &v) < 0 || dec_str(d, out) < 0)
		return -1;
	*seen = 1;
	*rc = v;
	return 0;
}

/* LIFETIME i32 ERRNO str(why) */
static int lifetime_record(struct dec *d, struct helper_report *r)
{
	int32_t e;
	if (r->lifetime_seen)
		return dec_fail(d, "report repeats its lifetime record");
	if (dec_i32(d, &e) < 0 || dec_str(d, &r->lifetime_why) < 0)
		return -1;
	if (!errno_ok(e))
		return dec_fail(d, "report's lifetime errno is out of range");
	r->lifetime_seen = 1;
	r->lifetime_errno = e;
	return 0;
}

/* RLIMITS u64 NOFILE u64 FSIZE */
static int rlimits_record(struct dec *d, struct helper_report *r)
{
	uint64_t nofile, fsize;
	if (r->rlimits_seen)
		return dec_fail(d, "report repeats its rlimits record");
	if (dec_u64(d, &nofile) < 0 || dec_u64(d, &fsize) < 0)
		return -1;
	r->rlimits_seen = 1;
	r->hard_nofile = nofile;
	r->hard_fsize = fsize;
	return 0;
}

/* PROBE u32 K u8 verdict */
static int probe_record(struct dec *d, struct helper_report *r)
{
	uint32_t k;
	unsigned int v;
	if (dec_u32(d, &k) < 0 || dec_u8(d, &v) < 0)
		return -1;
	if (k >= REPORT_MAX_PROBES || v < PROBE_READABLE || v > PROBE_MISSING ||
	    r->probes[k] != PROBE_UNKNOWN)
		return dec_fail(d, "report probe record out of range or repeated");
	r->probes[k] = (int)v;
	return 0;
}

/* ANCHORS u64 TOTAL: once, after the records; more failing than listed only past the cap. */
static int anchors_record(struct dec *d, struct helper_report *r)
{
	uint64_t t;
	if (r->anchors_seen)
		return dec_fail(d, "report repeats its anchor count");
	if (dec_u64(d, &t) < 0)
		return -1;
	if (t < r->nanchors || (t > r->nanchors && r->nanchors != ANCHOR_REPORT_CAP))
		return dec_fail(d, "report's anchor count does not match its records");
	r->anchors_seen = 1;
	r->anchors_total = t;
	return 0;
}

static struct dir_result *dir_at(struct dec *d, struct helper_report *r)
{
	uint32_t i;
	if (dec_u32(d, &i) < 0)
		return NULL;
	if (i >= r->ndirs) {
		dec_fail(d, "report names a work_dir the check did not send");
		return NULL;
	}
	return &r->dirs[i];
}

/* DIR u32 I u8 state ... */
static int dir_record(struct dec *d, struct helper_report *r)
{
	struct dir_result *dr = dir_at(d, r);
	unsigned int state;
	if (!dr || dec_u8(d, &state) < 0)
		return -1;
	if (dr->state != DIR_UNKNOWN)
		return dec_fail(d, "report repeats a work_dir's record");
	dr->state = (int)state;
	if (state == DIR_OK)
		return 0;
	if (state == DIR_ESCAPE)
		return dec_str(d, &dr->path);
	if (state == DIR_MISSING) {
		int32_t e;
		if (dec_str(d, &dr->path) < 0 || dec_i32(d, &e) < 0)
			return -1;
		dr->errnum = e;
		return errno_ok(e) ? 0 : dec_fail(d, "report's errno is out of range");
	}
	if (state != DIR_DENIED)
		return dec_fail(d, "report's work_dir state is unknown");
	char *missing = NULL;
	uint32_t mode;
	uint32_t uid;
	int bad = dec_str(d, &dr->path) < 0 || dec_str(d, &missing) < 0 || dec_u32(d, &mode) < 0 ||
		  dec_u32(d, &uid) < 0;
	if (!bad && ((strcmp(missing, "r") != 0 && strcmp(missing, "x") != 0 &&
		      strcmp(missing, "rx") != 0) ||
		     !mode_ok(mode)))
		bad = dec_fail(d, "report's denied work_dir record is out of range");
	if (!bad) {
		memcpy(dr->missing, missing, strlen(missing) + 1);
		dr->mode = mode;
		dr->uid = uid;
	}
	free(missing);
	return bad ? -1 : 0;
}

/* ITEM u32 I str(path) u32 FLAGS u32 MODE u32 UID */
static int item_record(struct dec *d, struct helper_report *r)
{
	struct dir_result *dr = dir_at(d, r);
	if (!dr)
		return -1;
	struct scan_item *it = realloc(dr->items, (dr->nitems + 1) * sizeof *it);
	if (!it)
		return dec_fail(d, "out of memory");
	dr->items = it;
	it = &it[dr->nitems++];
	memset(it, 0, sizeof *it);
	uint32_t flags, mode, uid;
	if (dec_str(d, &it->path) < 0 || dec_u32(d, &flags) < 0 || dec_u32(d, &mode) < 0 ||
	    dec_u32(d, &uid) < 0)
		return -1;
	if (flags < 1 || flags > 7 || !mode_ok(mode))
		return dec_fail(d, "report's scan item is out of range");
	it->flags = flags;
	it->mode = mode;
	it->uid = uid;
	return 0;
}

/* SCAN u32 I u64 TOTAL u64 ENTRIES u8 INCOMPLETE */
static int scan_record(struct dec *d, struct helper_report *r)
{
	struct dir_result *dr = dir_at(d, r);
	uint64_t total, entries;
	int inc = 0;
	if (!dr || dec_u64(d, &total) < 0 || dec_u64(d, &entries) < 0 || dec_bool(d, &inc) < 0)
		return -1;
	if (dr->scanned)
		return dec_fail(d, "report repeats a scan's summary");
	dr->total = total;
	dr->entries = entries;
	dr->incomplete = inc;
	dr->scanned = 1;
	return 0;
}

static int helper_record(struct dec *d, unsigned int tag, struct helper_report *r)
{
	switch (tag) {
	case REC_ESC:
		return esc_record(d, r);
	case REC_GIDS:
		return gids_record(d, r);
	case REC_DIR:
		return dir_record(d, r);
	case REC_ITEM:
		return item_record(d, r);
	case REC_SCAN:
		return scan_record(d, r);
	case REC_BWRAP:
		return bwrap_record(d, r);
	case REC_LIFETIME:
		return lifetime_record(d, r);
	case REC_PROBE:
		return probe_record(d, r);
	case REC_ANCHOR:
		return anchor_record(d, r);
	case REC_ANCHORS:
		return anchors_record(d, r);
	case REC_PASSWD:
		return run_record(d, "report repeats its passwd record", &r->passwd_seen,
				  &r->passwd_rc, &r->passwd_out);
	case REC_DOAS:
		return run_record(d, "report repeats its doas record", &r->doas_seen, &r->doas_rc,
				  &r->doas_out);
	case REC_RLIMITS:
		return rlimits_record(d, r);
	case REC_CMD:
		return report_cmd_record(d, &r->cmds);
	case REC_ESC_KNOWN:
		if (r->esc_known)
			return dec_fail(d, "report repeats its esc-known record");
		r->esc_known = 1;
		return 0;
	default:
		return dec_fail(d, "report record unknown to a helper's report");
	}
}

/* ACCT u8 ok str(reason) | PIDNS i32 ERRNO str(why) */
static int session_record(struct dec *d, unsigned int tag, struct session_report *s)
{
	if (tag == REC_ACCT) {
		int ok = 0;
		if (s->acct != SESSION_ACCT_NONE)
			return dec_fail(d, "report repeats the account's verdict");
		if (dec_bool(d, &ok) < 0 || dec_str(d, &s->reason) < 0)
			return -1;
		if (ok && *s->reason)
			return dec_fail(d, "report's passing account has a reason");
		s->acct = ok ? SESSION_ACCT_OK : SESSION_ACCT_FAIL;
		return 0;
	}
	if (tag == REC_PIDNS) {
		int32_t e;
		if (s->pidns_seen)
			return dec_fail(d, "report repeats the PID namespace's verdict");
		if (dec_i32(d, &e) < 0 || dec_str(d, &s->pidns_why) < 0)
			return -1;
		if (!errno_ok(e))
			return dec_fail(d, "report's errno is out of range");
		if (!e && *s->pidns_why)
			return dec_fail(d, "report's working PID namespace has a reason");
		s->pidns_seen = 1;
		s->pidns_errno = e;
		return 0;
	}
	return dec_fail(d, "report record unknown to a session's report");
}

int report_decode(const void *body, size_t len, size_t ndirs, struct report *out,
		  const char **why)
{
	struct dec d;
	unsigned int origin;
	int rc = -1;
	memset(out, 0, sizeof *out);
	struct helper_report *r = &out->helper;
	r->true_rc = r->list_rc = r->tty_true_rc = r->tty_list_rc = -1;
	dec_init(&d, body, len);
	if (dec_u8(&d, &origin) < 0)
		goto done;
	if (origin != REPORT_FROM_SESSION && origin != REPORT_FROM_HELPER) {
		dec_fail(&d, "report origin unknown");
		goto done;
	}
	out->origin = (int)origin;
	if (origin == REPORT_FROM_HELPER) {
		r->ndirs = ndirs;
		if (ndirs > len || !(r->dirs = calloc(ndirs + 1, sizeof *r->dirs))) {
			dec_fail(&d, ndirs > len ? "report for more work_dirs than it can hold"
						 : "out of memory");
			r->ndirs = 0;
			goto done;
		}
	}
	while (d.left) {
		unsigned int tag;
		if (dec_u8(&d, &tag) < 0)
			goto done;
		if (origin == REPORT_FROM_HELPER ? helper_record(&d, tag, r) < 0
						 : session_record(&d, tag, &out->session) < 0)
			goto done;
	}
	if (origin == REPORT_FROM_HELPER) {
		/* The probes' records, or esc-known in place of all of them: never some of each. */
		int probes = r->esc_seen || r->esctty_seen || r->passwd_seen || r->doas_seen;
		int escalation = r->esc_known ? !probes : r->esc_seen && r->esctty_seen;
		if (!(escalation && r->anchors_seen && r->gids_seen)) {
			dec_fail(&d, "report lacks a required record (esc, esctty, gids, anchors), or "
				     "has probe records beside esc-known");
			goto done;
		}
		r->complete = 1;
	} else if (out->session.acct == SESSION_ACCT_NONE) {
		dec_fail(&d, "session report lacks the account's verdict");
		goto done;
	}
	rc = 0;
done:
	if (rc < 0) {
		report_free(out);
		if (why)
			*why = d.why ? d.why : "report invalid";
	}
	return rc;
}
