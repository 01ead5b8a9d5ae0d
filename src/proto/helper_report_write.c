/* SPDX-License-Identifier: ISC */
/* report_write.c - the helpers' half of REPORT; see report_write.h and report.h. */
#include "helper_report_write.h"

#include <stdint.h>

#include "codec.h"

/* A string field: "?" for none, so that a record is never half-written. */
static void str_or(struct buf *b, const char *s)
{
	(void)enc_str(b, s ? s : "?");
}

void report_begin(struct buf *b, int origin)
{
	enc_u8(b, (unsigned int)origin);
}

void report_put_esc(struct buf *b, int tty, int true_rc, int list_rc, const char *list, int cut)
{
	enc_u8(b, REC_ESC);
	enc_u8(b, tty ? 1 : 0);
	enc_i32(b, true_rc);
	enc_i32(b, list_rc);
	(void)enc_str(b, list ? list : "");
	enc_u8(b, cut ? 1 : 0);
}

void report_put_gids(struct buf *b, gid_t egid, const gid_t *groups, int n)
{
	if (n < 0)
		return; /* no GIDS record: the decoder refuses the report */
	enc_u8(b, REC_GIDS);
	enc_u32(b, (uint32_t)n + 1);
	enc_u32(b, (uint32_t)egid);
	for (int i = 0; i < n; i++)
		enc_u32(b, (uint32_t)groups[i]);
}

void report_put_dir(struct buf *b, size_t idx, const struct dir_result *d)
{
	enc_u8(b, REC_DIR);
	enc_u32(b, (uint32_t)idx);
	switch (d->state) {
	case DIR_ESCAPE:
		enc_u8(b, DIR_ESCAPE);
		str_or(b, d->path);
		break;
	case DIR_DENIED:
		enc_u8(b, DIR_DENIED);
		str_or(b, d->path);
		str_or(b, d->missing);
		enc_u32(b, d->mode);
		enc_u32(b, d->uid);
		break;
	case DIR_MISSING:
		enc_u8(b, DIR_MISSING);
		str_or(b, d->path);
		enc_i32(b, d->errnum);
		break;
	default:
		enc_u8(b, DIR_OK);
		break;
	}
}

void report_put_item(struct buf *b, size_t idx, const struct scan_item *it)
{
	enc_u8(b, REC_ITEM);
	enc_u32(b, (uint32_t)idx);
	str_or(b, it->path);
	enc_u32(b, it->flags);
	enc_u32(b, it->mode);
	enc_u32(b, it->uid);
}

void report_put_scan(struct buf *b, size_t idx, unsigned long long total, unsigned long long entries,
		 int incomplete)
{
	enc_u8(b, REC_SCAN);
	enc_u32(b, (uint32_t)idx);
	enc_u64(b, total);
	enc_u64(b, entries);
	enc_u8(b, incomplete ? 1 : 0);
}

void report_put_bwrap(struct buf *b, int rc, const char *output)
{
	enc_u8(b, REC_BWRAP);
	enc_i32(b, rc);
	(void)enc_str(b, output ? output : "");
}

/* A command's exit code and output: PASSWD, DOAS. */
static void put_run(struct buf *b, unsigned int tag, int rc, const char *output)
{
	enc_u8(b, tag);
	enc_i32(b, rc);
	(void)enc_str(b, output ? output : "");
}

void report_put_passwd(struct buf *b, int rc, const char *output)
{
	put_run(b, REC_PASSWD, rc, output);
}

void report_put_doas(struct buf *b, int rc, const char *output)
{
	put_run(b, REC_DOAS, rc, output);
}

void report_put_esc_known(struct buf *b)
{
	enc_u8(b, REC_ESC_KNOWN);
}

void report_put_lifetime(struct buf *b, int errnum, const char *why)
{
	enc_u8(b, REC_LIFETIME);
	enc_i32(b, errnum);
	(void)enc_str(b, why ? why : "");
}

void report_put_rlimits(struct buf *b, unsigned long long nofile, unsigned long long fsize)
{
	enc_u8(b, REC_RLIMITS);
	enc_u64(b, nofile);
	enc_u64(b, fsize);
}

void report_put_probe(struct buf *b, size_t idx, int verdict)
{
	enc_u8(b, REC_PROBE);
	enc_u32(b, (uint32_t)idx);
	enc_u8(b, (unsigned int)verdict);
}

void report_put_anchor(struct buf *b, const struct report_anchor *a)
{
	enc_u8(b, REC_ANCHOR);
	str_or(b, a->path);
	enc_u8(b, (unsigned char)a->how);
	enc_u8(b, (unsigned int)a->rel);
	str_or(b, a->id);
	enc_u32(b, a->mode);
	enc_u32(b, a->uid);
	enc_u32(b, a->gid);
	enc_u8(b, a->acl ? 1 : 0);
	str_or(b, a->anchor);
}

void report_put_anchors(struct buf *b, size_t total)
{
	enc_u8(b, REC_ANCHORS);
	enc_u64(b, (uint64_t)total);
}

void report_put_acct(struct buf *b, int ok, const char *reason)
{
	enc_u8(b, REC_ACCT);
	enc_u8(b, ok ? 1 : 0);
	(void)enc_str(b, ok ? "" : reason ? reason : "");
}

void report_put_pidns(struct buf *b, int errnum, const char *why)
{
	enc_u8(b, REC_PIDNS);
	enc_i32(b, errnum);
	(void)enc_str(b, errnum ? why ? why : "" : "");
}
