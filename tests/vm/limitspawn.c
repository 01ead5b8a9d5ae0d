/* SPDX-License-Identifier: ISC */
/*
 * limitspawn.c - a supervisor as an embedder writes one, for the VM's
 * limit tests (tests/vm/limits_guest.sh): it spawns a project through the
 * public API alone, without the startup checks (which walk the host's
 * trusted trees, too slow over the VM's 9p share), and says how the run
 * ended and which limit ended it.
 *
 *   limitspawn CONF PROJECT
 *
 * The agent's stdin is /dev/null, its stdout and stderr this process's.
 * Prints "exit=N limit=NAME" (NAME: none, memory, tasks, time) once the
 * run has ended, then what ruas run says of it (tools/ruas/limit_line.c,
 * the CLI's own code, on stdout here) and "status=N", the status ruas run
 * exits with, and exits 0; on a spawn error prints "error code=CODE
 * stage=STAGE errno=ERRNO message=MESSAGE" and exits 3; 2 for anything else.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ruas.h>
#include <stdio.h>
#include <unistd.h>

#include "limit_line.h"

static const char *limit_name(ruas_limit l)
{
	switch (l) {
	case RUAS_LIMIT_NONE:
		return "none";
	case RUAS_LIMIT_MEMORY:
		return "memory";
	case RUAS_LIMIT_TASKS:
		return "tasks";
	case RUAS_LIMIT_TIME:
		return "time";
	}
	return "unknown";
}

int main(int argc, char **argv)
{
	ruas_config *cfg = NULL;
	ruas_child *child = NULL;
	ruas_error *err = NULL;
	int rc = 2, code = -1, null = -1;
	if (argc != 3) {
		fprintf(stderr, "usage: limitspawn CONF PROJECT\n");
		return 2;
	}
	if (ruas_config_load(&cfg, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "limitspawn: %s\n", ruas_error_message(err));
		goto done;
	}
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0)
		goto done;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_NONE;
	o.stdin_fd = null;
	fflush(stdout);
	if (ruas_spawn(&child, cfg, argv[2], NULL, &o, &err) < 0) {
		printf("error code=%d stage=%d errno=%d message=%s\n", ruas_error_code(err),
		       (int)ruas_error_stage(err), ruas_error_errno(err), ruas_error_message(err));
		rc = 3;
		goto done;
	}
	if (ruas_child_wait(child, &code, &err) < 0) {
		fprintf(stderr, "limitspawn: %s\n", ruas_error_message(err));
		goto done;
	}
	printf("exit=%d limit=%s\n", code, limit_name(ruas_child_limit(child)));
	/* As ruas run ends (tools/ruas/run.c): its line, and its status. */
	int status = limit_line(stdout, ruas_config_project_find(cfg, argv[2]), argv[2],
				ruas_child_limit(child), code);
	printf("status=%d\n", status);
	rc = 0;
done:
	ruas_child_free(child);
	ruas_error_free(err);
	ruas_config_free(cfg);
	if (null >= 0)
		close(null);
	return rc;
}
