/* SPDX-License-Identifier: ISC */
/*
 * spawnopts.c - a supervisor that starts one agent with per-spawn values,
 * built by tests/integration/spawnopts.sh as an outside program would be.
 *
 *   spawnopts CONFIG PROJECT [-w WORK_DIR] [-s NAME=VALUE]... [-- ARG...]
 *
 * Exits with the agent's status; when ruas_spawn() refuses, prints
 * "spawnopts: error CODE: MESSAGE" on stderr and exits 2.
 */
#include <ruas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
	fputs("usage: spawnopts CONFIG PROJECT [-w WORK_DIR] [-s NAME=VALUE]... [-- ARG...]\n",
	      stderr);
	return 2;
}

int main(int argc, char **argv)
{
	ruas_config *cfg = NULL;
	ruas_child *child;
	ruas_error *err = NULL;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	const char **set = calloc((size_t)argc, sizeof *set);
	size_t nset = 0;
	int i = 3, code = 2;

	if (argc < 3 || !set)
		return usage();
	for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
		if (i + 1 >= argc)
			return usage();
		if (strcmp(argv[i], "-w") == 0)
			o.work_dir = argv[i + 1];
		else if (strcmp(argv[i], "-s") == 0)
			set[nset++] = argv[i + 1];
		else
			return usage();
	}
	if (nset)
		o.set_env = set;
	const char *const *args = i < argc ? (const char *const *)argv + i + 1 : NULL;
	if (ruas_config_load(&cfg, argv[1], NULL, &err) < 0)
		goto fail;
	if (ruas_spawn(&child, cfg, argv[2], args, &o, &err) < 0)
		goto fail;
	if (ruas_child_wait(child, &code, &err) < 0)
		goto fail;
	ruas_child_free(child);
	ruas_config_free(cfg);
	free(set);
	return code;
fail:
	fprintf(stderr, "spawnopts: error %d: %s\n", (int)ruas_error_code(err),
		ruas_error_message(err));
	ruas_error_free(err);
	ruas_config_free(cfg);
	free(set);
	return 2;
}
