/* SPDX-License-Identifier: ISC */
/*
 * ptyspawn.c - a supervisor that starts one agent with the default spawn
 * options, on whatever terminal it was given, and leaves the pty's relay
 * to the library; built by tests/integration/terminal.sh as an outside
 * program would be.
 *
 *   ptyspawn -c CONFIG PROJECT [ARG...]
 *
 * Exits with the agent's status. When the agent itself stops, it says
 * "ptyspawn: the agent stopped (signal N)" on stderr and, a second later,
 * continues it. When ruas_spawn() refuses, it prints
 * "ptyspawn: error CODE: MESSAGE" on stderr and exits 2.
 */
#include <poll.h>
#include <ruas.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Until the child ends: each stop of the agent reported, then continued. */
static int wait_continuing(ruas_child *child, int *code, ruas_error **err)
{
	int r;
	while ((r = ruas_child_try_wait(child, code, err)) == 1) {
		struct pollfd pf = {ruas_child_pidfd(child), POLLIN, 0};
		(void)poll(&pf, 1, 100);
		int sig;
		if (ruas_child_state(child, &sig) == RUAS_CHILD_STOPPED) {
			fprintf(stderr, "ptyspawn: the agent stopped (signal %d)\n", sig);
			sleep(1);
			if (ruas_child_signal(child, SIGCONT, err) < 0)
				return -1;
			while (ruas_child_state(child, NULL) == RUAS_CHILD_STOPPED)
				(void)poll(NULL, 0, 10);
		}
	}
	return r;
}

int main(int argc, char **argv)
{
	ruas_config *cfg = NULL;
	ruas_child *child;
	ruas_error *err = NULL;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	int code = 2;

	if (argc < 4 || strcmp(argv[1], "-c") != 0) {
		fputs("usage: ptyspawn -c CONFIG PROJECT [ARG...]\n", stderr);
		return 2;
	}
	if (ruas_config_load(&cfg, argv[2], NULL, &err) < 0 ||
	    ruas_spawn(&child, cfg, argv[3], (const char *const *)argv + 4, &o, &err) < 0)
		goto fail;
	if (ruas_child_pty_fd(child) != -1 || ruas_child_state_fd(child) != -1) {
		fputs("ptyspawn: the library relays, yet the pty's descriptors are the caller's\n",
		      stderr);
		return 2;
	}
	if (wait_continuing(child, &code, &err) < 0)
		goto fail;
	ruas_child_free(child);
	ruas_config_free(cfg);
	return code;
fail:
	fprintf(stderr, "ptyspawn: error %d: %s\n", (int)ruas_error_code(err),
		ruas_error_message(err));
	ruas_error_free(err);
	ruas_config_free(cfg);
	return 2;
}
