/* SPDX-License-Identifier: ISC */
/* login_env.c - see login_env.h. */
#include "login_env.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* What one variable may hold and still leave room for the agent's exec (MAX_ARG_STRLEN). */
#define VALUE_MAX (128u * 1024u - 64u)

int sudo_command_of(const char *shell, char *const *argv, size_t max, char **out)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s -c ", shell);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			buf_addc(&b, ' ');
		for (const char *c = argv[i]; *c; c++) {
			if (isspace((unsigned char)*c))
				buf_addc(&b, '\\');
			buf_addc(&b, *c);
		}
	}
	if (b.oom) {
		buf_free(&b);
		return -1;
	}
	if (b.len > max) {
		b.len = max;
		b.data[max] = '\0';
	}
	*out = buf_detach(&b);
	return *out ? 0 : -1;
}

int login_env_prepare(const char *shell, char *const *argv)
{
	char *cmd;
	if (!getenv("SUDO_COMMAND"))
		return 0;
	if (sudo_command_of(shell, argv, VALUE_MAX, &cmd) < 0) {
		fputs("ruas-exec: out of memory\n", stderr);
		return -1;
	}
	int r = setenv("SUDO_COMMAND", cmd, 1);
	free(cmd);
	if (r < 0)
		fprintf(stderr, "ruas-exec: cannot set SUDO_COMMAND: %s\n", strerror(errno));
	return r;
}
