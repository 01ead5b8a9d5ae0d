/* SPDX-License-Identifier: ISC */
/*
 * verdict.h - the walk's entries (trees.h) judged for one target, as the
 * same anchor hits the helper reports for the table, so that one text
 * (src/lib/check/anchors_report.c) explains both.
 */
#ifndef RUAS_HOST_VERDICT_H
#define RUAS_HOST_VERDICT_H

#include <stddef.h>
#include <sys/types.h>

#include "helper_report.h"
#include "host/trees.h"

/*
 * Appends to hr's anchors what `user` (uid, and its groups, the primary one
 * among them) can write, owns or can enter without the supervisor having
 * judged it, in t; none that the helper already listed; at most
 * ANCHOR_REPORT_CAP listed in all, every one counted in anchors_total. A
 * walk that did not finish is one hit of its own ('t'). Entries of the
 * table's trees (table.h) are named by the table's id and their anchor, as
 * the helper names them, and each path once. `also` (NULL: none): more
 * kept directories, which the user must be able to enter too to reach an
 * entry. Owners and groups are named. 0, or -1 when out of memory.
 */
int host_verdict_add(const struct host_trees *t, const struct host_trees *also,
		     const char *user, uid_t uid, const gid_t *groups, size_t ngroups,
		     unsigned int seconds, struct helper_report *hr);

/*
 * Appends a hit 'u' to hr: path was not judged for its user, for the
 * reason why (id: the table's entry it belongs to). 0, or -1 on OOM.
 */
int host_verdict_unjudged(struct helper_report *hr, const char *path, const char *id,
			  const char *why);

/* The table's id (src/common/anchors_table.c) for a tree's root. */
const char *host_root_id(const char *root);

#endif
