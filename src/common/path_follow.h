/* SPDX-License-Identifier: ISC */
/*
 * path_follow.h - a path resolved one component at a time, as the kernel
 * resolves it, telling the caller of every symlink on the way.
 *
 * realpath() shows only where a chain of links ends; whoever writes a
 * directory above any link of the chain (or owns it) repoints the chain.
 * The trust-anchor judges (the helper's, as the target, and the library's
 * for the table's trees, as the supervisor) resolve with this and judge
 * the directories above each link it reports.
 */
#ifndef RUAS_PATH_FOLLOW_H
#define RUAS_PATH_FOLLOW_H

#include "path_set.h"

struct path_follow_cb {
	/*
	 * Each symlink before it is followed (`link`: its path, its
	 * directories resolved); first: it is the first of this resolution.
	 */
	void (*link)(void *ctx, const char *link, int first);
	/*
	 * Or NULL. The resolution stopped at a component that could not be
	 * looked at (errno err, not ENOENT or ENOTDIR: a directory this
	 * process may not search): `dir` is the resolved directory that holds it.
	 */
	void (*stop)(void *ctx, const char *dir, int err);
	void *ctx;
};

/*
 * `path` (absolute) resolved: a malloc'd path with no symlink in it, or
 * NULL on a loop (more than 40 links), a path too long, one that cannot be
 * reached (an error other than ENOENT or ENOTDIR: cb->stop says where) or
 * out of memory. A missing component (or a file where a directory should
 * be) ends the walk and the rest is kept as written: whoever may write
 * what exists could create the rest. *linked:
 * was any link followed. dirs (NULL: none) remembers the directories met,
 * tagged 'd', so that the many links sharing them cost no lstat.
 */
char *path_follow(const char *path, struct path_set *dirs, const struct path_follow_cb *cb,
		  int *linked);

/*
 * The directories above `path` (absolute), "/" first, one per call (*pos
 * starts at 0): 1 with dir (PATH_MAX bytes) set, 0 when there are no more
 * or the path is too long.
 */
int path_above_next(const char *path, size_t *pos, char *dir);

#endif
