/* SPDX-License-Identifier: ISC */
/* command_lookup.c - see command_lookup.h. */
#include "command_lookup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* CMD_FOUND: a regular file this process may execute; CMD_NOT_EXEC: there, but not that; else MISSING. */
static int judge_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? CMD_MISSING : CMD_NOT_EXEC;
	if (S_ISREG(st.st_mode) && faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) == 0)
		return CMD_FOUND;
	return CMD_NOT_EXEC;
}

void command_lookup(const char *cmd, const char *path_env, struct cmd_lookup *out)
{
	static char default_path[256];
	out->state = CMD_MISSING;
	out->path[0] = '\0';
	out->searched = "";
	if (strchr(cmd, '/')) {
		snprintf(out->path, sizeof out->path, "%s", cmd);
		out->state = judge_path(cmd);
		return;
	}
	if (!path_env) {
		if (!default_path[0] && confstr(_CS_PATH, default_path, sizeof default_path) == 0)
			snprintf(default_path, sizeof default_path, "/bin:/usr/bin");
		path_env = default_path;
	}
	out->searched = path_env;
	int not_exec = 0;
	for (const char *e = path_env; e;) {
		const char *colon = strchr(e, ':');
		size_t len = colon ? (size_t)(colon - e) : strlen(e);
		char cand[4096];
		if (len > 0 && e[0] == '/' &&
		    snprintf(cand, sizeof cand, "%.*s/%s", (int)len, e, cmd) < (int)sizeof cand) {
			int st = judge_path(cand);
			if (st == CMD_FOUND) {
				out->state = CMD_FOUND;
				snprintf(out->path, sizeof out->path, "%s", cand);
				return;
			}
			if (st == CMD_NOT_EXEC && !not_exec) {
				not_exec = 1;
				snprintf(out->path, sizeof out->path, "%s", cand);
			}
		}
		e = colon ? colon + 1 : NULL;
	}
	if (not_exec)
		out->state = CMD_NOT_EXEC;
}
