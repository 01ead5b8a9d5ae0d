/* SPDX-License-Identifier: ISC */
/*
 * require_command.c - require_command (issue 28): whether a project whose
 * command the target's login PATH does not find fails ruas check (true) or
 * only warns (false, the default). A top-level default and each project's
 * own, as core_dumps.
 */
#include "config/loader.h"

int ld_require_command(struct loader *ld, const struct src *s, int *out)
{
	struct src_val v;
	int r = src_bool(ld, s, "require_command", "require_command must be true or false", &v);
	if (r < 0)
		return r;
	if (v.present && v.num != 0 && v.num != 1)
		return ld_fail_at(ld, v.line, "require_command must be true or false (1 or 0)");
	if (v.present)
		*out = v.num;
	return 0;
}
