/* SPDX-License-Identifier: ISC */
/*
 * table.h - the anchor table's trees (src/common/anchors_table.c:
 * /etc/sudoers.d, /etc/pam.d, cron's and systemd's directories, root's
 * PATH, the libraries...), walked once per check as the supervisor and
 * judged for every target (verdict.h), where each target's helper used to
 * walk them again as that target: for 8 targets, 8 walks of /usr/bin and
 * the libraries (about 7,400 lstat, 3,100 access and 1,500 readlink each).
 *
 * Walked at every check, never kept: what became writable a second ago is
 * seen at once, as when the helpers walked them. What is kept of an entry
 * and how a target's rights on it are judged are the walk's (trees.h:
 * owner, group and other bits, ACLs and their mask, default ACLs,
 * read-only mounts); the target's groups are those its login session had
 * (the helper reports them). Symlinks are followed as the helper follows
 * them (path_follow.h): the directories above every link of a chain and
 * above where it ends, and where it ends, are judged as the link's.
 *
 * The payload names the trees walked here (judged_trees): the helper still
 * judges each tree's own path and the directories above it, and walks
 * every tree it is not told of (a directory of root's PATH from login.defs
 * or sudo's secure_path that the table does not name).
 */
#ifndef RUAS_HOST_TABLE_H
#define RUAS_HOST_TABLE_H

#include <stddef.h>

#include "anchors.h"
#include "host/trees.h"

struct host_table_tree {
	char *path;   /* resolved: no symlink in it (path_follow.h) */
	char *anchor; /* as the table names it (a glob's match), for the findings */
	unsigned int depth;
	const struct anchor_def *def;
};

struct host_table {
	struct host_table_tree *tree;
	size_t ntrees;
	/* What the walk kept: roots are unused; e sorted by path, one entry per path. */
	struct host_trees found;
};

/*
 * The table's trees on this host (zeroing tt first): globs matched, each
 * path resolved, each resolved path once (at its deepest depth); a tree
 * that does not exist is left to the helper. 0, or -1 when out of memory.
 */
int host_table_list(struct host_table *tt);

/* Adds one tree (path resolved by the caller): host_table_list's, a test's. 0 or -1. */
int host_table_add(struct host_table *tt, const char *path, const char *anchor,
		   unsigned int depth, const struct anchor_def *def);

/* The trees as the payload's judged_trees, "DEPTH PATH", NULL-terminated; NULL: OOM. */
char **host_table_names(const struct host_table *tt);

/*
 * Walks the trees, each to at most ANCHOR_TREE_ENTRIES_MAX entries (past
 * it, the directory where it stopped is one entry marked HOST_ENTRY_CAPPED),
 * for at most `seconds` in all (0: no limit; past it, each tree not walked
 * whole is one entry marked HOST_ENTRY_LATE). What cannot be looked at is
 * kept as not judged (HOST_ENTRY_HIDDEN, HOST_ENTRY_UNJUDGED), never passed
 * over. 0, or -1 when out of memory.
 */
int host_table_walk(struct host_table *tt, unsigned int seconds);

void host_table_free(struct host_table *tt);

#endif
