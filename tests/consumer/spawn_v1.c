/* SPDX-License-Identifier: ISC */
/*
 * spawn_v1.c - a supervisor as it was written against version 1 of
 * ruas_spawn_options, which ended after env: it must keep working
 * unchanged. Its struct ends at a page the library cannot read, so a
 * library that read the version-2 descriptors from it would crash.
 *
 *   spawn_v1 CONF PROJECT    spawns PROJECT with the argument "arg-v1" and
 *                            SPAWN_V1_VALUE=from-v1 in opts->env, the agent on
 *                            this process's own stdio; exits with its code.
 */
#define _GNU_SOURCE
#include <ruas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ruas_spawn_options of version 1, as an old header declared it. */
struct spawn_options_v1 {
	unsigned int version;
	const char *const *env;
};

/* The struct at the very end of a readable page, the next one unreadable. */
static struct spawn_options_v1 *at_page_end(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || mprotect(mem + page, (size_t)page, PROT_NONE) < 0) {
		perror("mmap");
		exit(2);
	}
	return (struct spawn_options_v1 *)(mem + page) - 1;
}

static _Noreturn void die(ruas_error *err)
{
	fprintf(stderr, "spawn_v1: %s\n", ruas_error_message(err));
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *const env[] = {"SPAWN_V1_VALUE=from-v1", NULL};
	const char *args[] = {"arg-v1", NULL};
	ruas_config *cfg;
	ruas_child *child;
	ruas_error *err = NULL;
	int code;
	if (argc != 3) {
		fprintf(stderr, "usage: spawn_v1 CONF PROJECT\n");
		return 2;
	}
	struct spawn_options_v1 *o = at_page_end();
	o->version = 1;
	o->env = env;
	if (ruas_config_load(&cfg, argv[1], NULL, &err) < 0)
		die(err);
	if (ruas_spawn(&child, cfg, argv[2], args, (const ruas_spawn_options *)o, &err) < 0)
		die(err);
	if (ruas_child_wait(child, &code, &err) < 0)
		die(err);
	ruas_child_free(child);
	ruas_config_free(cfg);
	return code;
}
