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

int setup_acl(const struct setup_args *a)
{
	struct setup_target t;
	int rc = setup_target_lookup(a, a->work_dir, "acl needs --work-dir DIR, an absolute path", &t);
	if (rc != SETUP_OK)
		return rc;
	const char *shown = t.shown, *wshown = t.pshown;

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
