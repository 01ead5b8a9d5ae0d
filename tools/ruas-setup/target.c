/* SPDX-License-Identifier: ISC */
/*
 * target.c - the target account of the verbs that act on one user's
 * files as root (acl, home): a plain name, an existing user, not root.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "ruas.h"
#include "args.h"

int setup_target_lookup(const struct setup_args *a, const char *path, const char *usage,
			struct setup_target *t)
{
	const char *user = a->targets[0];
	const char *why = ruas_user_name_problem(user);
	if (why)
		return setup_fail(SETUP_USAGE, "target \"%s\" %s",
				  escape_name(user, t->shown, sizeof t->shown), why);
	if (!path || path[0] != '/')
		return setup_fail(SETUP_USAGE, "%s", usage);
	escape_name(user, t->shown, sizeof t->shown);
	escape_name(path, t->pshown, sizeof t->pshown);

	struct passwd *res = NULL;
	int e = getpwnam_r(user, &t->pw, t->mem, sizeof t->mem, &res);
	if (e != 0 || !res)
		return setup_fail(SETUP_FAILED, "no user \"%s\"%s%s; create it first "
				  "(ruas-setup useradd)", t->shown, e ? ": " : "", e ? strerror(e) : "");
	if (t->pw.pw_uid == 0)
		return setup_fail(SETUP_USAGE, "target \"%s\" has uid 0 (it is root); refusing",
				  t->shown);
	return SETUP_OK;
}
