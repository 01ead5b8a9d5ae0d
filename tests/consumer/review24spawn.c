/* SPDX-License-Identifier: ISC */
/*
 * review24spawn.c - a plain embedder for tests/integration/review24.sh: no
 * preflight (ruas_spawn() does not repeat the checks), the agent's stdio
 * the program's own, no pty.
 *
 *   review24spawn CONFIG PROJECT [ARG...]
 *
 * Prints "exit=N signal=S" on stderr once ruas_child_wait() returned, and
 * exits 0; 2 when the library refused (its message on stderr).
 */
#define _GNU_SOURCE
#include <ruas.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: review24spawn CONFIG PROJECT [ARG...]\n", stderr);
		return 2;
	}
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load(&cfg, argv[1], NULL, &err) != 0) {
		fprintf(stderr, "review24spawn: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return 2;
	}
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_NONE;
	ruas_child *c = NULL;
	if (ruas_spawn(&c, cfg, argv[2], (const char *const *)argv + 3, &o, &err) != 0) {
		fprintf(stderr, "review24spawn: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		ruas_config_free(cfg);
		return 2;
	}
	int code = -1;
	if (ruas_child_wait(c, &code, &err) != 0) {
		fprintf(stderr, "review24spawn: wait: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		ruas_child_free(c);
		ruas_config_free(cfg);
		return 2;
	}
	fprintf(stderr, "exit=%d signal=%d\n", code, ruas_child_term_signal(c));
	ruas_child_free(c);
	ruas_config_free(cfg);
	return 0;
}
