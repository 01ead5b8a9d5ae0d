/* SPDX-License-Identifier: ISC */
/*
 * test_limit_line.c - what ruas run says, and exits with, when a limit
 * ended a run (tools/ruas/limit_line.c): the line names the project, the
 * limit and its value as the configuration holds it; 124 for wall_time_max
 * whatever the run ended with, 137 for memory_max unless it exited 0
 * after all; tasks_max is said
 * but changes no status; no limit, no line.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limit_line.h"
#include "ruas.h"

static const char conf[] =
	"projects = ( { name = \"p.q@x\"; run_as_user = \"nobody\"; work_dir = \"/srv\"; "
	"command = [\"true\"]; memory_max = \"64M\"; tasks_max = 20; wall_time_max = 2; } );\n";

static int said(const ruas_project *p, ruas_limit limit, int rc, char **text)
{
	size_t n = 0;
	FILE *out = open_memstream(text, &n);
	assert_non_null(out);
	int r = limit_line(out, p, "p.q@x", limit, rc);
	assert_int_equal(fclose(out), 0);
	return r;
}

static const struct {
	ruas_limit limit;
	int rc;     /* what the run ended with */
	int status; /* what ruas run exits with */
	const char *line;
} cases[] = {
	{RUAS_LIMIT_MEMORY, 1, 137,
	 "ruas: project \"p.q@x\": memory_max (67108864 bytes) reached: the kernel killed a "
	 "process of the run (exit status 137)\n"},
	/* A run that lost a process to it and still succeeded keeps its 0. */
	{RUAS_LIMIT_MEMORY, 0, 0,
	 "ruas: project \"p.q@x\": memory_max (67108864 bytes) reached: the kernel killed a "
	 "process of the run (which went on, and exited 0)\n"},
	{RUAS_LIMIT_TIME, 143, 124,
	 "ruas: project \"p.q@x\": wall_time_max (2 s) reached: the run was terminated (exit "
	 "status 124)\n"},
	/* timeout(1)'s 124 whatever the run ended with, 0 too. */
	{RUAS_LIMIT_TIME, 0, 124,
	 "ruas: project \"p.q@x\": wall_time_max (2 s) reached: the run was terminated (exit "
	 "status 124)\n"},
	{RUAS_LIMIT_TASKS, 3, 3,
	 "ruas: project \"p.q@x\": tasks_max (20) reached: a fork of the run was refused\n"},
	{RUAS_LIMIT_TASKS, 0, 0,
	 "ruas: project \"p.q@x\": tasks_max (20) reached: a fork of the run was refused\n"},
	{RUAS_LIMIT_NONE, 5, 5, ""},
	{RUAS_LIMIT_NONE, 0, 0, ""},
};

static void test_limit_lines(void **state)
{
	(void)state;
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.skip_owner_check = 1;
	if (ruas_config_load_buffer(&cfg, conf, strlen(conf), "limit.conf", &o, &err) != 0)
		fail_msg("%s", ruas_error_message(err));
	const ruas_project *p = ruas_config_project_find(cfg, "p.q@x");
	assert_non_null(p);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *t = NULL;
		int r = said(p, cases[i].limit, cases[i].rc, &t);
		if (r != cases[i].status || strcmp(t, cases[i].line) != 0)
			fail_msg("case %zu (limit %d, rc %d): status %d, line \"%s\"", i,
				 (int)cases[i].limit, cases[i].rc, r, t);
		free(t);
	}
	ruas_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
