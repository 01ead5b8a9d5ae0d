/* SPDX-License-Identifier: ISC */
/*
 * killspawn.c - a supervisor that dies at the worst moment, built by
 * tests/integration/confine.sh as an outside program would be.
 *
 *   killspawn CONFIG PROJECT DELAY_MS
 *
 * Starts PROJECT once (no preflight, stdio /dev/null), prints "run=ID" as
 * soon as ruas_spawn() has returned, then SIGKILLs itself DELAY_MS
 * milliseconds later (0: at once), so that it never reaps the child and
 * the library never writes the run's end record: the helper must (an end
 * record with supervisor=lost). Exits 2 when the library refused (its
 * message on stderr); it never exits otherwise.
 */
#define _GNU_SOURCE
#include <ruas.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: killspawn CONFIG PROJECT DELAY_MS\n", stderr);
		return 2;
	}
	long delay = strtol(argv[3], NULL, 10);
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load(&cfg, argv[1], NULL, &err) != 0) {
		fprintf(stderr, "killspawn: %s\n", ruas_error_message(err));
		return 2;
	}
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0) {
		perror("killspawn: /dev/null");
		return 2;
	}
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_NONE;
	o.stdin_fd = null;
	o.stdout_fd = null;
	o.stderr_fd = null;
	ruas_child *c = NULL;
	if (ruas_spawn(&c, cfg, argv[2], NULL, &o, &err) != 0) {
		fprintf(stderr, "killspawn: %s\n", ruas_error_message(err));
		return 2;
	}
	struct timespec ts = {delay / 1000, (delay % 1000) * 1000000L};
	/* The run id first, whole, before the clock starts: the test joins on it. */
	char line[128];
	int n = snprintf(line, sizeof line, "run=%s\n", ruas_child_run_id(c));
	if (n > 0 && write(1, line, (size_t)n) != n)
		return 2;
	if (delay > 0)
		nanosleep(&ts, NULL);
	raise(SIGKILL);
	return 2;
}
