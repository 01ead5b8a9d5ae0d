/* SPDX-License-Identifier: ISC */
/*
 * limit_cgroup.h - a run's own cgroup, from the spawn's side.
 *
 * A project with memory_max, tasks_max or cpu_max gets a cgroup v2 of its
 * own for each run, made before anything starts, where the startup check
 * judges it can be (cgroup/place.h): where the check would refuse, the
 * spawn refuses with the same words. The first process of the run (sudo
 * or ruas-session) starts inside it (clone_into.h), so nothing of the run
 * is ever outside it. When the run is reaped the kernel's counts say which
 * limit struck; then the whole cgroup is killed at once (cgroup.kill), so
 * nothing the helper missed survives, and removed.
 */
#ifndef RUAS_SPAWN_LIMIT_CGROUP_H
#define RUAS_SPAWN_LIMIT_CGROUP_H

#include <stdint.h>

#include "config/config_int.h"
#include "error.h"

struct limit_cgroup;

/* How long a run's end waits for its killed cgroup to empty. */
#define CGROUP_END_WAIT_MS 10000

/*
 * The run's cgroup for project p of cfg, named after run_id: 0 with *out
 * NULL when p has no cgroup limit, or the cgroup made with its limits
 * written; else a ruas_code with *err: RUAS_ERR_CONFIG where the check's
 * "limits" finding would be fatal, RUAS_ERR_SYSTEM where making it failed.
 */
int limit_cgroup_make(const struct ruas_config *cfg, const struct ruas_project *p,
		      const char *run_id, struct limit_cgroup **out, ruas_error **err);

/*
 * What the kernel counted, read as the run is reaped: a limit struck only
 * where the project set it and the run's own cgroup says its own limit
 * struck (an OOM kill of the host's, or an ancestor's limit, is none of
 * the project's). peak_bytes, cpu_usec: UINT64_MAX when not known.
 */
struct limit_counts {
	int memory; /* its memory.max was hit and the OOM killer killed in it */
	int tasks;  /* a fork refused at its pids.max */
	uint64_t peak_bytes, cpu_usec;
};
void limit_cgroup_counts(const struct limit_cgroup *lc, struct limit_counts *k);

/*
 * The end of the run's cgroup: everything in it killed at once
 * (cgroup.kill), waited for at most wait_ms, then the directory removed
 * and lc freed: 1. 0 when something of it still runs after wait_ms (a
 * process stuck in the kernel): lc is kept for a later call, unless last,
 * when it is freed all the same (the directory stays, still killed). NULL:
 * 1.
 */
int limit_cgroup_end(struct limit_cgroup *lc, int wait_ms, int last);

/* Its path beneath the cgroup v2 mount, as /proc/PID/cgroup names it ("/ruas/run-ID"). */
const char *limit_cgroup_path(const struct limit_cgroup *lc);

/* The directory's descriptor, for clone_into_cgroup(). */
int limit_cgroup_fd(const struct limit_cgroup *lc);

#endif
