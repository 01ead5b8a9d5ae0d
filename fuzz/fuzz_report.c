/* SPDX-License-Identifier: ISC */
/*
 * fuzz_report - REPORT's decoder (src/proto/helper_report.h) on arbitrary
 * bytes: the first byte is how many work_dirs the check's payload sent
 * (report_decode()'s ndirs), the rest the body. Properties:
 *
 *   - the decoder never crashes, leaks or reads out of bounds, and what it
 *     accepts keeps the header's invariants (a helper's report complete,
 *     with both ESC records, GIDS and ANCHORS; at most ANCHOR_REPORT_CAP
 *     anchors, a total no smaller than the list; fields in range);
 *   - what it accepts is what the writers can say. The writers are one
 *     per record (helper_report_write.h) and the decoder takes the records
 *     in any order, which the decoded struct report does not keep (which
 *     of ESC and GIDS came first, how items of two work_dirs interleaved),
 *     so the byte-for-byte check of the other decoders cannot be made
 *     here. Instead the body is rebuilt from the decoded value with
 *     report_begin() and report_put_*() in one fixed order (rebuild()),
 *     and:
 *       1. the rebuilt body has exactly the input's length: every record
 *          came back, each of its own size, so no accepted byte was
 *          dropped or normalised away (a permutation of the records is
 *          all the two may differ by);
 *       2. it decodes (with the same ndirs) to the very same value;
 *       3. rebuilt again from that value, it is the same bytes: the fixed
 *          order is a canonical form.

 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fuzz_check.h"
#include "helper_report.h"
#include "helper_report_write.h"

static void rebuild_helper(struct buf *b, const struct helper_report *r)
{
	if (r->esc_known) {
		report_put_esc_known(b);
	} else {
		report_put_esc(b, 0, r->true_rc, r->list_rc, r->list_out, r->list_cut);
		report_put_esc(b, 1, r->tty_true_rc, r->tty_list_rc, r->tty_list_out,
			       r->tty_list_cut);
	}
	gid_t *groups = malloc(r->ngids * sizeof *groups);
	CHECK(groups && r->ngids >= 1);
	for (size_t i = 1; i < r->ngids; i++)
		groups[i - 1] = (gid_t)r->gids[i];
	report_put_gids(b, (gid_t)r->gids[0], groups, (int)(r->ngids - 1));
	free(groups);
	for (size_t i = 0; i < r->ndirs; i++) {
		const struct dir_result *d = &r->dirs[i];
		if (d->state != DIR_UNKNOWN)
			report_put_dir(b, i, d);
		for (size_t k = 0; k < d->nitems; k++)
			report_put_item(b, i, &d->items[k]);
		if (d->scanned)
			report_put_scan(b, i, d->total, d->entries, d->incomplete);
	}
	if (r->bwrap_seen)
		report_put_bwrap(b, r->bwrap_rc, r->bwrap_out);
	if (r->passwd_seen)
		report_put_passwd(b, r->passwd_rc, r->passwd_out);
	if (r->doas_seen)
		report_put_doas(b, r->doas_rc, r->doas_out);
	if (r->lifetime_seen)
		report_put_lifetime(b, r->lifetime_errno, r->lifetime_why);
	if (r->rlimits_seen)
		report_put_rlimits(b, r->hard_nofile, r->hard_fsize);
	for (size_t k = 0; k < REPORT_MAX_PROBES; k++)
		if (r->probes[k] != PROBE_UNKNOWN)
			report_put_probe(b, k, r->probes[k]);
	for (size_t k = 0; k < r->nanchors; k++) {
		const struct anchor_hit *h = &r->anchors[k];
		struct report_anchor a = {h->path, h->how, h->rel, h->id,    h->mode,
					  h->uid,  h->gid, h->acl, h->anchor};
		report_put_anchor(b, &a);
	}
	report_put_anchors(b, (size_t)r->anchors_total);
}

/* The body of r in the fixed order: every field the value holds, once. */
static void rebuild(struct buf *b, const struct report *r)
{
	report_begin(b, r->origin);
	if (r->origin == REPORT_FROM_HELPER) {
		rebuild_helper(b, &r->helper);
		return;
	}
	report_put_acct(b, r->session.acct == SESSION_ACCT_OK, r->session.reason);
	if (r->session.pidns_seen)
		report_put_pidns(b, r->session.pidns_errno, r->session.pidns_why);
}

static void valid_dir(const struct dir_result *d)
{
	CHECK(d->state >= DIR_UNKNOWN && d->state <= DIR_ESCAPE);
	if (d->state == DIR_DENIED)
		CHECK(d->path && !d->owner && d->mode <= 07777 &&
		      (!strcmp(d->missing, "r") || !strcmp(d->missing, "x") ||
		       !strcmp(d->missing, "rx")));
	if (d->state == DIR_MISSING)
		CHECK(d->path && d->errnum >= 0 && d->errnum <= 4095);
	if (d->state == DIR_ESCAPE)
		CHECK(d->path != NULL);
	CHECK(!d->nitems == !d->items);
	for (size_t k = 0; k < d->nitems; k++)
		CHECK(d->items[k].path && !d->items[k].owner && d->items[k].flags >= 1 &&
		      d->items[k].flags <= 7 && d->items[k].mode <= 07777);
	CHECK(d->incomplete == 0 || d->incomplete == 1);
}

static void valid_helper(const struct helper_report *r, size_t ndirs)
{
	CHECK(r->complete && r->gids_seen && r->anchors_seen);
	/* The escalation probes' records, or esc-known in place of all of them. */
	if (r->esc_known)
		CHECK(!r->esc_seen && !r->esctty_seen && !r->passwd_seen && !r->doas_seen);
	else
		CHECK(r->esc_seen && r->esctty_seen && r->list_out && r->tty_list_out);
	CHECK(r->ngids >= 1 && r->gids);
	CHECK(r->ndirs == ndirs && r->dirs);
	for (size_t i = 0; i < r->ndirs; i++)
		valid_dir(&r->dirs[i]);
	CHECK(!r->bwrap_seen || r->bwrap_out);
	CHECK(!r->passwd_seen || r->passwd_out);
	CHECK(!r->doas_seen || r->doas_out);
	CHECK(!r->lifetime_seen ||
	      (r->lifetime_why && r->lifetime_errno >= 0 && r->lifetime_errno <= 4095));
	for (size_t k = 0; k < REPORT_MAX_PROBES; k++)
		CHECK(r->probes[k] >= PROBE_UNKNOWN && r->probes[k] <= PROBE_MISSING);
	CHECK(r->nanchors <= ANCHOR_REPORT_CAP && r->anchors_total >= r->nanchors);
	CHECK(r->anchors_total == r->nanchors || r->nanchors == ANCHOR_REPORT_CAP);
	for (size_t k = 0; k < r->nanchors; k++) {
		const struct anchor_hit *a = &r->anchors[k];
		CHECK(a->path[0] == '/' && a->anchor[0] == '/' && a->how && strchr("owrdc", a->how));
		CHECK(a->rel >= AREL_SELF && a->rel <= AREL_LINK && a->mode <= 07777);
		CHECK(a->id[0] && strspn(a->id, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
					  strlen(a->id));
		/* Numbers only: the library names them (report_names.h). */
		CHECK(!a->owner && !a->group && (a->acl == 0 || a->acl == 1));
	}
}

static void valid(const struct report *r, size_t ndirs)
{
	if (r->origin == REPORT_FROM_HELPER) {
		valid_helper(&r->helper, ndirs);
		CHECK(r->session.acct == SESSION_ACCT_NONE && !r->session.reason &&
		      !r->session.pidns_seen && !r->session.pidns_why);
		return;
	}
	CHECK(r->origin == REPORT_FROM_SESSION && !r->helper.complete && !r->helper.dirs);
	const struct session_report *s = &r->session;
	CHECK((s->acct == SESSION_ACCT_OK || s->acct == SESSION_ACCT_FAIL) && s->reason);
	CHECK(!s->pidns_seen || (s->pidns_why && s->pidns_errno >= 0 && s->pidns_errno <= 4095));
}

static void same_dir(const struct dir_result *a, const struct dir_result *b)
{
	CHECK(a->state == b->state && a->mode == b->mode && a->errnum == b->errnum);
	same_str(a->path, b->path);
	same_str(a->owner, b->owner);
	CHECK(memcmp(a->missing, b->missing, sizeof a->missing) == 0);
	CHECK(a->nitems == b->nitems);
	for (size_t k = 0; k < a->nitems; k++) {
		same_str(a->items[k].path, b->items[k].path);
		same_str(a->items[k].owner, b->items[k].owner);
		CHECK(a->items[k].flags == b->items[k].flags && a->items[k].mode == b->items[k].mode);
	}
	CHECK(a->total == b->total && a->entries == b->entries && a->incomplete == b->incomplete &&
	      a->scanned == b->scanned);
}

static void same_anchor(const struct anchor_hit *a, const struct anchor_hit *b)
{
	same_str(a->path, b->path);
	same_str(a->owner, b->owner);
	same_str(a->group, b->group);
	same_str(a->anchor, b->anchor);
	CHECK(a->how == b->how && a->rel == b->rel && a->mode == b->mode && a->acl == b->acl);
	CHECK(strcmp(a->id, b->id) == 0);
}

static void same_helper(const struct helper_report *a, const struct helper_report *b)
{
	CHECK(a->complete == b->complete && a->esc_known == b->esc_known &&
	      a->bwrap_seen == b->bwrap_seen &&
	      a->bwrap_rc == b->bwrap_rc && a->lifetime_seen == b->lifetime_seen &&
	      a->lifetime_errno == b->lifetime_errno);
	same_str(a->bwrap_out, b->bwrap_out);
	CHECK(a->passwd_seen == b->passwd_seen && a->passwd_rc == b->passwd_rc);
	same_str(a->passwd_out, b->passwd_out);
	CHECK(a->doas_seen == b->doas_seen && a->doas_rc == b->doas_rc);
	same_str(a->doas_out, b->doas_out);
	same_str(a->lifetime_why, b->lifetime_why);
	CHECK(a->rlimits_seen == b->rlimits_seen && a->hard_nofile == b->hard_nofile &&
	      a->hard_fsize == b->hard_fsize);
	CHECK(memcmp(a->probes, b->probes, sizeof a->probes) == 0);
	CHECK(a->esc_seen == b->esc_seen && a->true_rc == b->true_rc && a->list_rc == b->list_rc &&
	      a->list_cut == b->list_cut);
	same_str(a->list_out, b->list_out);
	CHECK(a->esctty_seen == b->esctty_seen && a->tty_true_rc == b->tty_true_rc &&
	      a->tty_list_rc == b->tty_list_rc && a->tty_list_cut == b->tty_list_cut);
	same_str(a->tty_list_out, b->tty_list_out);
	CHECK(a->gids_seen == b->gids_seen && a->ngids == b->ngids);
	CHECK(!a->ngids || memcmp(a->gids, b->gids, a->ngids * sizeof *a->gids) == 0);
	CHECK(a->ndirs == b->ndirs && !a->dirs == !b->dirs);
	for (size_t i = 0; i < a->ndirs; i++)
		same_dir(&a->dirs[i], &b->dirs[i]);
	CHECK(a->anchors_seen == b->anchors_seen && a->anchors_total == b->anchors_total &&
	      a->nanchors == b->nanchors);
	for (size_t k = 0; k < a->nanchors; k++)
		same_anchor(&a->anchors[k], &b->anchors[k]);
}

static void same_report(const struct report *a, const struct report *b)
{
	CHECK(a->origin == b->origin);
	CHECK(a->session.acct == b->session.acct && a->session.pidns_seen == b->session.pidns_seen &&
	      a->session.pidns_errno == b->session.pidns_errno);
	same_str(a->session.reason, b->session.reason);
	same_str(a->session.pidns_why, b->session.pidns_why);
	same_helper(&a->helper, &b->helper);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report r, q;
	const char *why = NULL;
	if (size < 1)
		return 0;
	size_t ndirs = data[0], len = size - 1;
	const uint8_t *body = data + 1;
	if (report_decode(body, len, ndirs, &r, &why) < 0) {
		CHECK(why != NULL);
		return 0;
	}
	valid(&r, ndirs);
	struct buf b1 = BUF_INIT, b2 = BUF_INIT;
	rebuild(&b1, &r);
	CHECK(!b1.oom && b1.len == len); /* 1 */
	CHECK(report_decode(b1.data, b1.len, ndirs, &q, &why) == 0);
	same_report(&r, &q); /* 2 */
	rebuild(&b2, &q);
	same_bytes(&b2, b1.data, b1.len); /* 3 */
	report_free(&r);
	report_free(&q);
	buf_free(&b1);
	buf_free(&b2);
	return 0;
}
