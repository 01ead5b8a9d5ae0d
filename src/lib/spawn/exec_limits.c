/* SPDX-License-Identifier: ISC */
/* exec_limits.c - see exec_limits.h. */
#include "spawn/exec_limits.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The bytes one string takes on the new stack: its own and its pointer. */
static size_t cost(size_t len)
{
	return len + 1 + sizeof(char *);
}

static int too_long(const struct ruas_project *p, ruas_error **err, const char *fmt_what,
		    size_t index, const char *name, size_t len)
{
	if (name)
		return error_set(err, RUAS_ERR_TOOLONG, NULL, 0, E2BIG,
				 "project \"%s\": variable %s is %zu bytes, more than the %zu that "
				 "one string of an exec may be (MAX_ARG_STRLEN): pass it in a file",
				 p->name, name, len, EXEC_STRING_MAX - 1);
	return error_set(err, RUAS_ERR_TOOLONG, NULL, 0, E2BIG,
			 "project \"%s\": %s %zu of the command is %zu bytes, more than the %zu "
			 "that one argument of an exec may be (MAX_ARG_STRLEN): pass it in a file "
			 "or on stdin",
			 p->name, fmt_what, index, len, EXEC_STRING_MAX - 1);
}

int exec_limits_check(const struct ruas_project *p, char *const *argv, size_t argc,
		      char *const *names, char *const *values, size_t n, int login_env,
		      ruas_error **err)
{
	/*
	 * The two NULLs. Not the file name, which the kernel copies too and
	 * only the exec's path lookup knows: right at the limit an exec can
	 * still fail, which is then the start's E2BIG (RUAS_STAGE_EXEC).
	 */
	size_t total = sizeof(char *) * 2;
	for (size_t i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);
		if (len + 1 > EXEC_STRING_MAX)
			return too_long(p, err, "argument", i, NULL, len);
		total += cost(len);
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = values ? strlen(names[i]) + 1 + strlen(values[i]) : strlen(names[i]);
		if (len + 1 > EXEC_STRING_MAX) {
			char name[64];
			const char *eq = values ? NULL : strchr(names[i], '=');
			size_t nl = eq ? (size_t)(eq - names[i]) : strlen(names[i]);
			snprintf(name, sizeof name, "%.*s", (int)(nl < 48 ? nl : 48), names[i]);
			return too_long(p, err, NULL, i, name, len);
		}
		total += cost(len);
	}
	/*
	 * With a login environment the target's stack limit is its login's,
	 * which this process cannot see: the usual one. Without (legacy mode)
	 * the command inherits this process's, whose limit sysconf() knows.
	 */
	long own = login_env ? -1 : sysconf(_SC_ARG_MAX);
	size_t limit = own > 0 ? (size_t)own
			       : EXEC_TOTAL_MAX - (login_env ? EXEC_LOGIN_ENV_RESERVE : 0);
	if (total > limit)
		return error_set(err, RUAS_ERR_TOOLONG, NULL, 0, E2BIG,
				 "project \"%s\": the command's %zu arguments and %zu variables "
				 "take %zu bytes, more than the %zu an exec takes%s (2 MiB with the "
				 "usual 8 MiB stack): pass the large ones in a file or on stdin",
				 p->name, argc, n, total, limit,
				 login_env ? " beside the target's login environment" : "");
	return 0;
}
