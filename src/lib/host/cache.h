/* SPDX-License-Identifier: ISC */
/*
 * cache.h - a walk of the trees (trees.h), kept for host_check_interval
 * seconds so that `ruas run` and an embedder's check before each spawn do
 * not walk /usr again.
 *
 * The walk's result does not depend on the projects or the targets (judge.c
 * applies each target's uid and groups afresh), only on the host's
 * permissions, which change when an administrator changes them. It is kept
 * in a file only the supervisor can write: /run/ruas for root, else
 * $XDG_RUNTIME_DIR/ruas or ~/.cache/ruas of the supervisor's passwd home,
 * each a directory of the supervisor's own with mode 0700, in a directory
 * no one else may write (anything else and nothing is read or kept). It is used only while the boot, the roots
 * (ld.so.conf's too), the mount table and the test's fs_root are those it
 * was made with, and for at most the interval (CLOCK_BOOTTIME).
 */
#ifndef RUAS_HOST_CACHE_H
#define RUAS_HOST_CACHE_H

#include "host/trees.h"

/*
 * The trees: a kept walk when interval > 0, fresh is 0 and one fits; else
 * a walk now (threads: every CPU; seconds: its time limit), kept when
 * interval > 0 and it finished. cache_dir: where to keep it (a test's),
 * NULL for host_cache_dir(). 0, or -1 when out of memory.
 */
int host_cache_walk(const char *fs_root, unsigned int seconds, unsigned int interval,
		    int fresh, const char *cache_dir, struct host_trees *out);

/*
 * The directory the walk is kept in, opened (O_DIRECTORY, made when
 * missing), or -1 when there is none that only this user can write.
 */
int host_cache_dir(void);

#endif
