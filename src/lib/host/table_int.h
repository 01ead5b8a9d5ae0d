/* SPDX-License-Identifier: ISC */
/*
 * table_int.h - the walk of the table's trees (table.h), shared by table.c
 * (which lists and drives) and table_walk.c (which walks one tree).
 */
#ifndef RUAS_HOST_TABLE_INT_H
#define RUAS_HOST_TABLE_INT_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "host/table.h"
#include "path_set.h"

#define TABLE_DEVS_MAX 16

struct tw {
	struct host_table *tt;
	const struct host_table_tree *t; /* the tree being walked */
	struct host_entry *e;
	size_t n, cap;
	/*
	 * 'j' judged as an object, 'p' judged as a directory above one, 'd' a
	 * directory met while resolving (path_follow's), 'u' a directory
	 * recorded as not walked.
	 */
	struct path_set seen;
	size_t entries; /* of this tree: at most ANCHOR_TREE_ENTRIES_MAX */
	int capped, late, nomem;
	struct timespec deadline; /* tv_sec 0: none */
	/* File systems met, and whether their mode bits decide (fs_kind.h). */
	dev_t dev[TABLE_DEVS_MAX];
	unsigned char dev_ok[TABLE_DEVS_MAX];
	size_t ndev;
};

/* Walks w->t (its root already judged) to its depth. */
void table_walk_tree(struct tw *w);

/*
 * Keeps path as not judged (HOST_ENTRY_UNJUDGED): why (static or copied)
 * names the reason; st NULL when not even lstat worked.
 */
void table_unjudged(struct tw *w, const char *path, const struct stat *st, const char *why);

/* Keeps the object at path as w->t's, when anyone but root could write it. */
void table_record(struct tw *w, const char *path, const struct stat *st, unsigned int flags,
		  int rel, const char *anchor);

#endif
