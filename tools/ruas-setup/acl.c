/* SPDX-License-Identifier: ISC */
/*
 * acl.c - ruas-setup acl --target USER --work-dir DIR: the
 * command around acl_grant_tree() (acl_walk.c), which the script of
 * ruas-setup useradd runs instead of setfacl -R and find.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "ruas.h"
#include "acl_walk.h"
#include "args.h"
#include "trusted_tree.h"

int setup_acl(const struct setup_args *a)
{
	struct setup_target t;
	int rc = setup_target_lookup(a, a->work_dir, "acl needs --work-dir DIR, an absolute path", &t);
	if (rc != SETUP_OK)
		return rc;
	const char *shown = t.shown, *wshown = t.pshown;
	/* "/" is acl_grant_tree()'s to refuse, as the whole filesystem. */
	char norm[4096];
	const char *how = NULL, *tree = NULL;
	if (strcmp(a->work_dir, "/") != 0 && path_normalize(a->work_dir, norm, sizeof norm) == 0)
		tree = trusted_tree_conflict(norm, 1, &how);
	if (tree)
		return setup_fail(SETUP_FAILED, "work_dir %s %s %s, which root and the system "
				  "trust: granting %s rwX there would let it change what root "
				  "runs or reads; nothing was granted. Use a directory of its own, "
				  "such as /srv/ruas/%s",
				  wshown, how, tree, shown, shown);

	struct acl_tree_stats st;
	int r = acl_grant_tree(a->work_dir, t.pw.pw_uid, 0, stderr, &st);
	if (r < 0)
		return setup_fail(SETUP_FAILED, "%s: not every directory and file was granted "
				  "to %s (see above); fix that and run this again", wshown, shown);
	fprintf(stderr, "ruas-setup: %s: %s has rwX on %lu directories and files (%lu changed)",
		wshown, shown, st.granted, st.changed);
	if (st.other_fs)
		fprintf(stderr, "; %lu mount points not entered", st.other_fs);
	if (st.foreign)
		fprintf(stderr, "; %lu directories and files of other owners not granted",
			st.foreign);
	if (st.linked)
		fprintf(stderr, "; %lu hard-linked files of other owners not touched", st.linked);
	fputc('\n', stderr);
	return SETUP_OK;
}
