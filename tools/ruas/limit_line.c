/* SPDX-License-Identifier: ISC */
/* limit_line.c - see limit_line.h. */
#include "limit_line.h"

#include "args.h"

int limit_line(FILE *out, const ruas_project *p, const char *project, ruas_limit limit, int rc)
{
	switch (limit) {
	case RUAS_LIMIT_TIME:
		fprintf(out,
			"ruas: project \"%s\": wall_time_max (%u s) reached: the run was "
			"terminated (exit status 124)\n",
			project, ruas_project_wall_time_max(p));
		return EXIT_WALL_TIME;
	case RUAS_LIMIT_MEMORY:
		/* A run that went on to succeed after losing a process is its own success. */
		fprintf(out,
			"ruas: project \"%s\": memory_max (%s bytes) reached: the kernel killed "
			"a process of the run %s\n",
			project, ruas_project_memory_max(p),
			rc == 0 ? "(which went on, and exited 0)" : "(exit status 137)");
		return rc == 0 ? 0 : EXIT_MEMORY;
	case RUAS_LIMIT_TASKS:
		fprintf(out,
			"ruas: project \"%s\": tasks_max (%u) reached: a fork of the run was "
			"refused\n",
			project, ruas_project_tasks_max(p));
		return rc;
	case RUAS_LIMIT_NONE:
	default:
		return rc;
	}
}
