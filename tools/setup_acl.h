/*
 * setup_acl.h - ruas-setup acl: grant one user rwX on a tree it can write,
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
	unsigned long other_fs; /* mount points of another filesystem, not entered */
	unsigned long linked;   /* hard-linked files of another owner, not touched */
	unsigned long skipped;  /* symlinks, FIFOs, sockets, devices, and names that were
				   gone or no longer what readdir said when opened */
};

/*
 * Grants uid rw, plus x on directories and on files that have an execute bit
 * (setfacl's X), in the access ACL of root and of every directory and
 * regular file below it on the same filesystem, and u:uid:rwx in the default
 * ACL of every directory. Other entries are kept; the mask is recomputed.
 * root must be an absolute path without symlinks or "..". max_depth 0 means
 * ACL_TREE_MAX_DEPTH. Messages go to err, one line each, starting with
 * "ruas-setup: ". Returns 0, or -1 when anything was not granted (the rest
 * of the tree still is).
 */
int acl_grant_tree(const char *root, uid_t uid, unsigned int max_depth, FILE *err,
		   struct acl_tree_stats *st);

#endif
