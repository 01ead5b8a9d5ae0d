/* SPDX-License-Identifier: ISC */
/*
 * command_check.h - is each project's command there for its target (issue
 * 28)? A project whose command the target's login PATH does not find passes
 * every other check and fails at ruas run with 127. The helper looks each
 * command up as the target (src/helper/exec/command_lookup.h) and reports
 * CMD records (helper_report_cmd.h); this judges them: a warning, or a
 * fatal finding with require_command (ruas.conf(5)).
 */
#ifndef RUAS_COMMAND_CHECK_H
#define RUAS_COMMAND_CHECK_H

#include <stddef.h>

#include "check/engine.h"
#include "check/findings.h"
#include "check/messages.h"
#include "config/config_int.h"

/* The distinct commands of one job, as the payload sends them, and each project's among them. */
struct job_commands {
	char **v;   /* owned, NULL-terminated: the first word, or work_dir/cmd for a relative one with '/' */
	size_t n;
	size_t *of; /* by the job's project order (job_projects' k): the index into v */
	size_t nof;
};

/* Adds p's command to c (once per distinct text), in the job's project order. -1 on OOM. */
int job_commands_add(struct job_commands *c, size_t nprojects, const struct ruas_project *p);
void job_commands_free(struct job_commands *c);

/* The text of the finding; fatal: require_command. */
struct words msg_command_missing(const char *project, const char *user, const char *command,
				 const struct cmd_result *cr, int fatal);

/* Each project's command of job j, judged into rep. -1 on OOM. */
int report_commands(const struct ruas_config *cfg, const struct job *j,
		    const struct job_projects *jp, const struct job_commands *c, ruas_report *rep);

#endif
