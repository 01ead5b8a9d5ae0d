/* SPDX-License-Identifier: ISC */
/*
 * anchor_probe.h - judging the trust anchors as the target user: the judge
 * is anchor_probe.c, check mode's list of anchors and its records
 * anchor_check.c; the table is src/common/anchors_table.c.
 */
#ifndef RUAS_ANCHOR_PROBE_H
#define RUAS_ANCHOR_PROBE_H

#include <stddef.h>
#include <sys/types.h>

#include "anchors.h"
#include "payload.h"
#include "buf.h"
#include "helper_report.h"

struct anchor_finding {
	const char *path;   /* what the target can write (read, own) */
	char how;           /* 'o' owned by the target, 'w' writable, 'r' readable (devices),
			       'd' a default ACL entry grants it write, 'c' not fully judged (a cap) */
	int rel;            /* enum anchor_rel_wire (helper_report.h): self, parent, inside, link */
	const char *id;
	unsigned int mode;  /* permission bits */
	uid_t uid;
	gid_t gid;
	int acl;            /* it has a POSIX access ACL */
	const char *anchor; /* the anchor it endangers (== path for REL_SELF) */
};

typedef void (*anchor_emit_fn)(void *ctx, const struct anchor_finding *f);

struct anchor_item {
	const char *path; /* absolute path or glob(7) pattern */
	const struct anchor_def *def;
};

/*
 * Judges each item as the calling user (its real uid and groups, through
 * access(2); ACLs count, a read-only file system does not), calls emit for
 * each failing path and returns how many there were. A missing path is
 * fine; a path that cannot be reached is fine (nor can it be written).
 * `self` is the calling user's name (ANCHOR_SKIP_SELF), or NULL.
 *
 * The owner test uses lstat(2). A symlink's own mode means nothing, so a
 * symlink anchor is judged by where it leads (link), and the directories
 * above the link itself are judged as its parents. A directory above an
 * anchor that is writable but sticky (like /tmp) is fine unless the target
 * owns it: there it can rename only its own entries, and those are judged
 * themselves.
 *
 * judged (njudged entries, "DEPTH PATH", as the payload's judged_trees):
 * trees the library judges itself; a tree item whose resolved path is one
 * of them, to at least its depth, is judged itself but not walked.
 */
size_t anchors_probe(const struct anchor_item *items, size_t n, const char *self,
		     char *const *judged, size_t njudged, anchor_emit_fn emit, void *ctx);

/*
 * The value of `secure_path=` in `sudo -l` output (`\:` unescaped), malloc'd,
 * or NULL when there is none.
 */
char *anchors_secure_path(const char *listing);

/* Check mode: judges the table and the payload's anchors, appends the records to report. */
void check_anchors(struct buf *report, const struct payload *p, const char *sudo_listing);

#endif
