/* SPDX-License-Identifier: ISC */
/*
 * command_lookup.h - is a project's command there for the target (issue
 * 28)? Looked up as this process (the target, in check mode) as execvp(3)
 * would: a command with a '/' is that path; otherwise each absolute
 * element of path_env, the PATH the login environment starts with (sudo's
 * secure_path, or ruas-session's), in order. Nothing of the target's runs
 * for it: no login shell, no login file. A relative PATH element (or an
 * empty one, the current directory) depends on where the agent starts, and
 * is not searched.
 */
#ifndef RUAS_COMMAND_LOOKUP_H
#define RUAS_COMMAND_LOOKUP_H

#include "helper_report_cmd.h"

struct cmd_lookup {
	int state;          /* enum cmd_state */
	char path[4096];    /* FOUND: the program; NOT_EXEC: the first there (or unreachable) but not runnable */
	const char *searched; /* the PATH searched: path_env, or confstr's default; "" for a path */
};

/* path_env NULL: PATH is not set, and execvp's default (confstr _CS_PATH) is searched. */
void command_lookup(const char *cmd, const char *path_env, struct cmd_lookup *out);

#endif
