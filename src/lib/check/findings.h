/* SPDX-License-Identifier: ISC */
/*
 * findings.h - the engine's results (engine.h) as findings in a report:
 * one function per entry point, in the order the findings are reported.
 */
#ifndef RUAS_FINDINGS_H
#define RUAS_FINDINGS_H

#include <stddef.h>

#include "check/engine.h"
#include "ruas.h"

struct deny_list;
struct outlives;

/* The projects one job checks: indexes into cfg->projects, and each one's dir of the spec. */
struct job_projects {
	size_t *index;
	size_t *dir_of;
	size_t n;
};

/*
 * ruas_preflight()'s check_run.after_job: the user's PAM stacks (and
 * polkit's rules) judged for it into j->ways, and what outlives its runs
 * into j->lt, on the job's own thread. lt is looked at after the job's
 * call: where pam_systemd is in the login's stack, that login has started
 * the user manager that every run would start.
 */
void findings_after_job(const struct check_run *run, const struct runner *runner,
			struct job *j);

/* ruas_preflight(): the findings of each project of the job. -1 on OOM. */
int report_job(const struct ruas_config *cfg, const struct check_run *run, const struct job *j,
	       const struct job_projects *jp, ruas_report *rep);
/*
 * ruas_preflight(): what outlives a run of user (lifetime.h), as one warning
 * on each project of the job; nothing when lt holds nothing. -1 on OOM.
 */
int report_lifetime(const struct job_projects *jp, const char *user, const struct outlives *lt,
		    ruas_report *rep);
/* The same, judged now unless findings_after_job() did (fs_root: the runner's). */
int report_job_lifetime(const char *fs_root, const struct job *j, const struct job_projects *jp,
			ruas_report *rep);
/* ruas_preflight(): a helper that other users can read, on each project that runs it (fatal). */
int report_helper_readable(const struct ruas_config *cfg, const char *helper, ruas_report *rep);
/* root has no password (check/password.h): fatal for every project with a run_as_user. */
int report_root_password(const struct ruas_config *cfg, ruas_report *rep);
/* ruas_preflight(): people who share one OS user are kept apart by deny rules alone. */
int report_shared_users(const struct ruas_config *cfg, ruas_report *rep);

/* ruas_check_targets(): findings about target idx alone (allowed: target_sudo_allowed). */
int report_target(const struct check_run *run, const struct job *j, size_t idx,
		  char *const *allowed, ruas_report *rep);

/*
 * ruas_audit(): person idx of pp, probed with the paths of its deny list,
 * whose first ndeny are the deny rules and the rest the supervisor's secrets.
 */
int report_person(const struct check_run *run, const struct ruas_people *pp, size_t idx,
		  const struct job *j, const struct deny_list *list, size_t ndeny,
		  ruas_report *rep);

#endif
