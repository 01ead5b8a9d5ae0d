/* SPDX-License-Identifier: ISC */
/* limit_line.h - what ruas run says, and exits with, when a limit of the project's ended a run. */
#ifndef RUAS_TOOLS_LIMIT_LINE_H
#define RUAS_TOOLS_LIMIT_LINE_H

#include <stdio.h>

#include "ruas.h"

/*
 * For a run of project p (named project) that ended with status rc and
 * limit: one line on out naming the limit and its value, and the status
 * ruas run exits with: 124 for wall_time_max, as timeout(1); 137 for
 * memory_max, as a shell says of the SIGKILL the kernel sent (0 when the
 * run lost a process to it and still exited 0); rc for
 * tasks_max (a fork failed, and the run went on) and for none (no line).
 */
int limit_line(FILE *out, const ruas_project *p, const char *project, ruas_limit limit, int rc);

#endif
