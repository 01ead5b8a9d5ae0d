/*
 * scan.h - walk a tree as the target user and find what it cannot access.
 *
 * Symlinks are never followed, pruned names are not entered, and memory
 * stays bounded: only the `cap` smallest paths (strcmp order) are kept, so
 * the result is the same whatever order the directories list in.
 */
#ifndef RUAS_SCAN_H
#define RUAS_SCAN_H

#include <stddef.h>
#include <sys/types.h>

#include "wire.h"

/* 0 when allowed. The default is faccessat(..., AT_SYMLINK_NOFOLLOW). */
typedef int (*scan_access_fn)(int dirfd, const char *name, int amode, void *ctx);

struct scan_options {
	const char *const *prune; /* NULL-terminated names never entered */
	size_t cap;               /* paths kept in the result */
	unsigned int seconds;     /* time budget; 0 = none */
	scan_access_fn access;    /* NULL = faccessat */
	void *ctx;
	unsigned int max_depth;   /* levels entered below root; 0 = SCAN_MAX_DEPTH (wire.h) */
};


struct scan_result {
	struct scan_item *items; /* sorted, at most cap */
	size_t nitems;
	unsigned long long total;   /* flagged paths, each counted once */
	unsigned long long entries; /* entries visited */
	int incomplete;             /* stopped by the time budget, a descriptor limit or max_depth */
};

/* 0, or -1 with errno when root itself cannot be opened. */
int scan_tree(const char *root, const struct scan_options *opts,
	      struct scan_result *out);
void scan_result_free(struct scan_result *r);

/* The user name of uid, or its number as text; malloc'd, NULL on OOM. */
char *scan_owner_name(uid_t uid);

#endif
