/* SPDX-License-Identifier: ISC */
/*
 * report_write.h - the helpers' half of REPORT: one function per record of
 * report.h, each appending to the body in b, which report_begin() started
 * with the origin. The caller sends b once, as one REPORT message, when
 * it is whole (b->oom says whether it is).
 */
#ifndef RUAS_PROTO_HELPER_REPORT_WRITE_H
#define RUAS_PROTO_HELPER_REPORT_WRITE_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "helper_report.h"

void report_begin(struct buf *b, int origin);

/* ESC: sudo -n true, sudo -n -l and its output, cut or not; tty 0 or 1. */
void report_put_esc(struct buf *b, int tty, int true_rc, int list_rc, const char *list, int cut);
/* GIDS: egid, then the n supplementary groups; n < 0 (unreadable) writes no record. */
void report_put_gids(struct buf *b, gid_t egid, const gid_t *groups, int n);
/*
 * DIR I: DIR_ESCAPE (d->path says why), DIR_DENIED, DIR_MISSING, and OK for
 * any other state. A NULL path is written as "?"; the owner as its uid.
 */
void report_put_dir(struct buf *b, size_t idx, const struct dir_result *d);
void report_put_item(struct buf *b, size_t idx, const struct scan_item *it);
void report_put_scan(struct buf *b, size_t idx, unsigned long long total, unsigned long long entries,
		 int incomplete);
void report_put_bwrap(struct buf *b, int rc, const char *output);
/* PASSWD: what `passwd -S` said of the target's own password, and its exit code. */
void report_put_passwd(struct buf *b, int rc, const char *output);
/* DOAS: what `doas -n true` did as the target, where doas is installed. */
void report_put_doas(struct buf *b, int rc, const char *output);
/* In place of the escalation probes' records, when the payload said CHECK_ESC_KNOWN. */
void report_put_esc_known(struct buf *b);
/* LIFETIME: can the target make the agent's PID namespace (errnum 0: yes)? */
void report_put_lifetime(struct buf *b, int errnum, const char *why);
/* RLIMITS: the hard RLIMIT_NOFILE and RLIMIT_FSIZE the helper has (UINT64_MAX: none). */
void report_put_rlimits(struct buf *b, unsigned long long nofile, unsigned long long fsize);
/* PROBE K: verdict is an enum probe_verdict other than PROBE_UNKNOWN. */
void report_put_probe(struct buf *b, size_t idx, int verdict);

/* An anchor record to write (the decoder fills struct anchor_hit, which owns its strings). */
struct report_anchor {
	const char *path;
	char how;    /* as anchor_hit.how */
	int rel;     /* enum anchor_rel_wire */
	const char *id;
	unsigned int mode;
	unsigned int uid;
	unsigned int gid;
	int acl;
	const char *anchor;
};
void report_put_anchor(struct buf *b, const struct report_anchor *a);
/* ANCHORS TOTAL: required, after the anchor records. */
void report_put_anchors(struct buf *b, size_t total);

/* ruas-session's: the account's verdict (reason when refused), and the PID namespace's. */
void report_put_acct(struct buf *b, int ok, const char *reason);
void report_put_pidns(struct buf *b, int errnum, const char *why);

#endif
