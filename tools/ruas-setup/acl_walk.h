/* SPDX-License-Identifier: ISC */
/*
 * acl_walk.h - ruas-setup acl: grant one user rwX on a tree it can write,
 * by descriptor, so that the user's own symlinks and renames cannot point
 * the grant anywhere else.
 */
#ifndef RUAS_SETUP_ACL_H
#define RUAS_SETUP_ACL_H

#include <stdio.h>
#include <sys/types.h>

/* Levels entered below the root, as the helper's scan (SCAN_MAX_DEPTH). */
#define ACL_TREE_MAX_DEPTH 256

struct acl_tree_stats {
	unsigned long granted;  /* directories and regular files whose ACL grants the user */
	unsigned long changed;  /* ... of which had to be written */
	unsigned long other_fs; /* mount points (another filesystem or a bind mount), not entered */
	unsigned long foreign;  /* owned by neither the user nor work_dir's owner, not granted */
	unsigned long linked;   /* hard-linked files of another owner, not touched */
	unsigned long skipped;  /* symlinks, FIFOs, sockets, devices, and names that were
				   gone or no longer what readdir said when opened */
};

/*
 * Grants uid rw, plus x on directories and on files that have an execute bit
 * (setfacl's X), in the access ACL of root and of every directory and
 * regular file below it on the same filesystem, and u:uid:rwx in the default
 * ACL of every directory. Other entries are kept; the mask is recomputed;
 * an ACL that already says all that is not written (changed counts those
 * written). The user's own inodes are granted as they are (their owner
 * bits are what it gets): what it wrote, through the default ACL or not,
 * is left as it made it.
 * Not granted (reported on err, counted, not a failure): mounts below root,
 * and inodes owned by neither uid nor root's owner (moved in by the user).
 * root must be an absolute path without symlinks or "..". max_depth 0 means
 * ACL_TREE_MAX_DEPTH. Messages go to err, one line each, starting with
 * "ruas-setup: ". Returns 0, or -1 when anything was not granted (the rest
 * of the tree still is).
 */
int acl_grant_tree(const char *root, uid_t uid, unsigned int max_depth, FILE *err,
		   struct acl_tree_stats *st);

/*
 * Opens the directory path (absolute, not "/", without ".." or symlinks) one
 * component at a time from / with O_NOFOLLOW, as acl_grant_tree() opens its
 * root; O_RDONLY | O_DIRECTORY | O_CLOEXEC. label names it in messages
 * ("home"). The descriptor, or -1 after a message on err.
 */
int acl_open_dir(const char *path, const char *label, FILE *err);

#endif
