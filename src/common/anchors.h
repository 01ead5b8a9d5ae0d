/* SPDX-License-Identifier: ISC */
/*
 * anchors.h - trust anchors: what root (or the supervisor) runs or trusts,
 * which a target user must not be able to write.
 *
 * The list is data (src/common/anchors_table.c, documented as a table in
 * docs/security.md). ruas-exec judges every entry as the target user, in the
 * same sudo call as the other startup probes (src/helper/exec/anchor_probe.h), and reports
 * only the failing paths (helper_report.h: ANCHOR and ANCHORS); what is inside
 * the trees the library walks once for all targets (src/lib/host/table.h,
 * the payload's judged_trees); the library turns them into fatal findings
 * (src/lib/check/anchors_report.c). Entries whose path is NULL
 * are filled at run time: by the library through the payload (the
 * configuration, the supervisor's home, the session helper; see
 * anchors_known() in src/lib/check/anchors_known.h) or by the helper itself
 * (sudo, its own executable, the directories of root's PATH and sudo's
 * secure_path).
 */
#ifndef RUAS_ANCHORS_H
#define RUAS_ANCHORS_H

#include <stddef.h>

enum anchor_kind {
	ANCHOR_FILE = 1, /* the object itself */
	ANCHOR_DIR,      /* a directory: writable means entries can be created or renamed */
	ANCHOR_TREE,     /* a directory and what is in it, `depth` levels down */
	ANCHOR_SOCKET,   /* judged only when it is a socket; writable = connectable */
	ANCHOR_DEVICE,   /* judged only when it is a device; readable is fatal too */
};

enum {
	ANCHOR_SUPERVISOR = 1, /* the supervisor's, not root's: the fix chowns to it */
	ANCHOR_SKIP_SELF = 2,  /* entries named after the target (its own crontab) are its own */
	ANCHOR_STICKY_OK = 4,  /* a directory only as a parent: sticky (like /tmp) and writable is fine */
	ANCHOR_CAPPED = 8,     /* not a path to judge: the library hit a cap there, fatal as such */
};

#define ANCHOR_ID_MAX 32

/* Entries judged inside trees, in all: bounds the time a huge /root could take. */
#define ANCHOR_TREE_ENTRIES_MAX 20000u

struct anchor_def {
	const char *path; /* absolute path or glob(7) pattern; NULL: supplied at run time */
	enum anchor_kind kind;
	unsigned int depth; /* ANCHOR_TREE */
	unsigned int flags;
	const char *id;  /* on the wire; entries sharing an id share kind, why and fix */
	const char *why; /* completes "which root runs or trusts: ..." */
	const char *fix; /* advice beyond the generic chmod/chown/setfacl, or NULL */
};

extern const struct anchor_def anchor_table[];
extern const size_t anchor_table_len;

/* The first entry with this id, or NULL. */
const struct anchor_def *anchor_by_id(const char *id);

#endif
