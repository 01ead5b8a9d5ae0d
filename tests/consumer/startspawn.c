/* SPDX-License-Identifier: ISC */
/*
 * startspawn.c - a supervisor that tells its user how a start went, as a
 * chat bridge would, with the agent's stderr thrown away (stderr=DEVNULL):
 * whatever the reason, it must be in the spawn's error.
 *
 *   startspawn CONF PROJECT WORK_DIR [ARG...]
 *
 * spawns PROJECT (in the per-spawn WORK_DIR unless it is "-") with ARGs; an
 * ARG "@big:N" is N bytes of 'x', made here (no exec could pass it to this
 * program). The agent's stdout is this process's, its stdin and stderr
 * /dev/null. On a spawn error it prints
 *   error code=CODE stage=STAGE errno=ERRNO file=FILE
 *   message=MESSAGE
 * and exits 3; otherwise it says on stderr "startspawn: spawned in N ms"
 * (how long ruas_spawn() took), waits and prints "exit=N", and exits 0.
 * With STARTSPAWN_PTY=1 in its environment the agent gets a pty of its own
 * (RUAS_PTY_ALWAYS), relayed by the library.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ruas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Everything is freed on every path: the sanitizer build's leak check
 * aborts a program that leaks, before stdout's buffer reaches the test. */
int main(int argc, char **argv)
{
	ruas_config *cfg = NULL;
	ruas_child *child = NULL;
	ruas_error *err = NULL;
	char **args = NULL;
	int null = -1, rc = 2;
	if (argc < 4) {
		fprintf(stderr, "usage: startspawn CONF PROJECT WORK_DIR [ARG...]\n");
		return 2;
	}
	if (ruas_config_load(&cfg, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "startspawn: %s\n", ruas_error_message(err));
		goto done;
	}
	args = calloc((size_t)argc, sizeof *args);
	if (!args)
		goto done;
	for (int i = 4; i < argc; i++) {
		size_t n;
		if (sscanf(argv[i], "@big:%zu", &n) == 1) {
			args[i - 4] = malloc(n + 1);
			if (!args[i - 4])
				goto done;
			memset(args[i - 4], 'x', n);
			args[i - 4][n] = '\0';
		} else {
			args[i - 4] = argv[i];
		}
	}
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		goto done;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	const char *pty = getenv("STARTSPAWN_PTY");
	o.pty = pty && strcmp(pty, "1") == 0 ? RUAS_PTY_ALWAYS : RUAS_PTY_NONE;
	/* On a pty the agent's stdio is the pty, which the library relays to this process's. */
	if (o.pty == RUAS_PTY_NONE) {
		o.stdin_fd = null;
		o.stderr_fd = null;
	}
	o.work_dir = strcmp(argv[3], "-") == 0 ? NULL : argv[3];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ruas_spawn(&child, cfg, argv[2], (const char *const *)args, &o, &err) < 0) {
		printf("error code=%d stage=%d errno=%d file=%s\nmessage=%s\n", ruas_error_code(err),
		       (int)ruas_error_stage(err), ruas_error_errno(err),
		       ruas_error_file(err) ? ruas_error_file(err) : "", ruas_error_message(err));
		rc = 3;
		goto done;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "startspawn: spawned in %lld ms\n",
		(long long)(t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
	int code = -1;
	if (ruas_child_wait(child, &code, &err) < 0) {
		fprintf(stderr, "startspawn: %s\n", ruas_error_message(err));
		goto done;
	}
	printf("exit=%d\n", code);
	rc = 0;
done:
	ruas_child_free(child);
	ruas_config_free(cfg);
	ruas_error_free(err);
	if (null >= 0)
		close(null);
	for (int i = 4; args && i < argc; i++)
		if (args[i - 4] != argv[i])
			free(args[i - 4]);
	free(args);
	return rc;
}
