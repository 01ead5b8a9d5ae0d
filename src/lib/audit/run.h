/* SPDX-License-Identifier: ISC */
/*
 * run.h - one spawn's audit trail: its run id, its start record and its end
 * record (include/ruas.h "audit", docs/audit.md).
 *
 * A run is made before anything starts, so that an audit_log that cannot
 * be written stops the spawn (fail closed) rather than leaving a run
 * unrecorded; its start is recorded once the agent is on its way, its end
 * once, whoever reaps the child.
 */
#ifndef RUAS_AUDIT_RUN_H
#define RUAS_AUDIT_RUN_H

#include <sys/types.h>

#include "config/config_int.h"
#include "people/deny.h"
#include "ruas.h"
#include "spawn/values.h"

struct audit_run;

/* What a start record tells of a spawn. */
struct audit_spawn {
	const struct ruas_config *cfg;
	const struct ruas_project *p;
	const char *const *args; /* the caller's, after the command */
	const char *const *env;  /* the environment the allowlisted values come from */
	const struct spawn_values *v;
	const struct deny_list *deny; /* NULL without a person */
	pid_t pid;                    /* what ruas_spawn() started */
};

/*
 * A new run of project p: a fresh run id, the sink (NULL: syslog), the
 * configuration's audit_log opened. NULL with *r and *err set: the sink is
 * invalid (RUAS_ERR_INVALID), the log cannot be written (RUAS_ERR_SYSTEM,
 * naming the project, the path, what was wrong and the fix), or out of
 * memory.
 */
struct audit_run *audit_run_new(const struct ruas_config *cfg, const struct ruas_project *p,
				const ruas_audit_sink *sink, int *r, ruas_error **err);
/* "32 hex digits". */
const char *audit_run_id(const struct audit_run *a);
/*
 * The payload's audit_facility (payload.h): the facility plus 1 when the
 * run's records go to syslog, so that the helper may record the end itself
 * should the supervisor die; else 0.
 */
unsigned int audit_run_helper_facility(const struct audit_run *a);
/*
 * The start record. 0, or a ruas_code with *err set when the audit_log
 * could not be written (the caller then ends the run: nothing runs
 * unrecorded).
 */
int audit_run_start(struct audit_run *a, const struct audit_spawn *s, ruas_error **err);
/*
 * Once the agent runs: how its run is held ("pidns", "subreaper", or "none"
 * without run_as_user: static strings) and its pid as this host sees it
 * (0: unknown), which the end record names.
 */
void audit_run_started(struct audit_run *a, const char *lifetime, long agent_pid);
/*
 * The end record, once (later calls do nothing): exit_code as the wait
 * gives it, the signal that ended the agent (0: none), the processes
 * killed when it ended (-1: unknown), whether the agent's program started
 * (1, or 0: exit_code is then the helper's own, never the agent's; -1:
 * unknown), the limit that ended it ("none", "time", "memory", "tasks":
 * static; NULL: unknown), and what the run's own cgroup counted: its peak
 * memory in bytes and its CPU time in microseconds (-1: no cgroup, or not
 * known).
 */
void audit_run_end(struct audit_run *a, int exit_code, int term_signal, long survivors,
		   int started, const char *limit, long long memory_peak, long long cpu_usec);
/*
 * A request for a credential of the run (docs/credentials.md), from any
 * thread: its name (as asked; NULL when it was no name), granted or not,
 * why not (NULL when granted), and the requester's pid as this host sees
 * it (0: unknown). Never a value.
 */
struct audit_credential {
	const char *project, *person, *target; /* person NULL: none */
	const char *name;
	int granted;
	const char *why;
	long pid;
};
void audit_run_credential(struct audit_run *a, const struct audit_credential *c);
/* Closes the log and frees a (NULL: nothing). */
void audit_run_free(struct audit_run *a);

#endif
