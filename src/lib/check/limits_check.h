/* SPDX-License-Identifier: ISC */
/*
 * limits_check.h - the "limits" check (ruas.conf(5) LIMITS): a project's
 * open_files_max or file_size_max above the hard limit its runs get from
 * sudo, as the helper reported it, is fatal, since ruas-exec would refuse
 * every run of it; so are such limits when no report gave the hard ones.
 * The cgroup limits (memory_max, tasks_max, cpu_max) are fatal where the
 * run's own cgroup cannot be made as configured (src/lib/cgroup/judge.h).
 */
#ifndef RUAS_CHECK_LIMITS_CHECK_H
#define RUAS_CHECK_LIMITS_CHECK_H

#include <stddef.h>

#include "cgroup/run.h"
#include "config/config_int.h"
#include "helper_report.h"

/*
 * The findings of project p (index pi), whose checks ran as user with
 * report hr; pam: on the pam backend, whose check opens no PAM session (so
 * pam_limits did not run), an excess is a warning. -1 on OOM.
 */
int report_limits(ruas_report *rep, size_t pi, const struct ruas_project *p, const char *user,
		  const struct helper_report *hr, int pam);

/*
 * The cgroup limits of project p (index pi): whether a cgroup of each run's
 * own can be made where cfg says, judged as the supervisor (this process).
 * Nothing without such limits; -1 on OOM.
 */
int report_cgroup_limits(ruas_report *rep, size_t pi, const struct ruas_config *cfg,
			 const struct ruas_project *p);

/* Its cgroup limits by name, "memory_max, cpu_max" (memory_swap_max with memory_max). */
void cgroup_limit_keys(const struct run_limits *l, char *out, size_t n);

/* Its cgroup limits as the run's cgroup files take them (cpu_max over a 100 ms period). */
struct cgroup_limits cgroup_limits_of(const struct run_limits *l);

#endif
