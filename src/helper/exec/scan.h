/* SPDX-License-Identifier: ISC */
/*
 * scan.h - walk a tree as the target user and find what it cannot access.
 *
 * Symlinks are never followed, pruned names are not entered, and memory
 * stays bounded: only the `cap` smallest paths (strcmp order) are kept, so
 * the result is the same whatever order the directories list in, and
 * whatever number of threads walk it (scan_pool.c): items, total, entries
 * and incomplete do not depend on `threads` for a tree that does not change
 * during the walk.
 */
#ifndef RUAS_SCAN_H
#define RUAS_SCAN_H

#include <stddef.h>
#include <sys/types.h>

#include "helper_report.h"

/*
 * Workers when scan_options.threads is 0: the CPUs this process may run on,
 * at most SCAN_MAX_THREADS. The queue of directories handed between them
 * has SCAN_QUEUE_PER_WORKER slots per worker (fewer left workers idle while
 * the others were deep in a large directory). Each worker holds at most
 * max_depth + 1 open directories, its queue slots one each, and the user
 * lookup of a reported entry two more: SCAN_FDS_PER_WORKER beyond
 * max_depth. Workers are cut until all of them fit in RLIMIT_NOFILE beside
 * what is already open and SCAN_FD_RESERVE, so EMFILE cannot end a walk
 * that one thread would finish (see worker_count() in scan_pool.c).
 */
#define SCAN_MAX_THREADS 8u
#define SCAN_QUEUE_PER_WORKER 4u
#define SCAN_FDS_PER_WORKER (1u + SCAN_QUEUE_PER_WORKER + 2u)
#define SCAN_FD_RESERVE 16u

/*
 * 0 when allowed. The default is faccessat(..., AT_SYMLINK_NOFOLLOW). With
 * more than one thread it is called from several threads at once.
 */
typedef int (*scan_access_fn)(int dirfd, const char *name, int amode, void *ctx);

struct scan_options {
	const char *const *prune; /* NULL-terminated names never entered */
	size_t cap;               /* paths kept in the result */
	unsigned int seconds;     /* time budget; 0 = none */
	scan_access_fn access;    /* NULL = faccessat */
	void *ctx;
	unsigned int max_depth;   /* levels entered below root; 0 = SCAN_MAX_DEPTH (helper_report.h) */
	unsigned int threads;     /* workers; 0 = min(CPUs, SCAN_MAX_THREADS); capped by RLIMIT_NOFILE */
};


struct scan_result {
	struct scan_item *items; /* sorted, at most cap */
	size_t nitems;
	unsigned long long total;   /* flagged paths, each counted once */
	unsigned long long entries; /* entries visited */
	int incomplete;             /* stopped by the time budget, a descriptor limit or max_depth */
	unsigned int threads;       /* workers that walked it */
	unsigned long long handoffs; /* directories handed from one worker to another */
};

/* 0, or -1 with errno when root itself cannot be opened. */
int scan_tree(const char *root, const struct scan_options *opts,
	      struct scan_result *out);
void scan_result_free(struct scan_result *r);

#endif
