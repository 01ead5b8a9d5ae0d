/* SPDX-License-Identifier: ISC */
/*
 * targets.c - ruas_check_targets(): the checks that depend on a target user
 * alone, with no configuration: sudo of the helper to it works (as the supervisor when
 * one is named), it cannot escalate, it is in no root-equivalent group.
 */
#include "check/preflight.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "check/findings.h"
#include "check/host_jobs.h"
#include "check/report.h"
#include "config/config_int.h"
#include "config/sudo_allowed.h"
#include "error.h"
#include "names.h"
#include "quote.h"

/*
 * Check 1 as the supervisor: through sudo -u SUPERVISOR when not it already.
 * *via: that user, or NULL; *me: the name we run as (malloc'd), or NULL.
 */
static int check_as(const ruas_target_options *o, const char **via, char **me, ruas_error **err)
{
	struct account acct;
	*via = NULL;
	*me = NULL;
	if (account_lookup_uid(geteuid(), &acct) == ACCOUNT_FOUND) {
		*me = acct.name;
		acct.name = NULL;
		account_clear(&acct);
	}
	if (!o->supervisor || (*me && strcmp(o->supervisor, *me) == 0))
		return 0;
	int lr = account_lookup(o->supervisor, &acct);
	if (lr == ACCOUNT_FOUND)
		account_clear(&acct);
	if (lr != ACCOUNT_FOUND || geteuid() != 0) {
		free(*me);
		*me = NULL;
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 lr != ACCOUNT_FOUND ? "supervisor \"%s\" does not exist"
						     : "checking as supervisor \"%s\" needs root, or "
						       "running as that user",
				 o->supervisor);
	}
	*via = o->supervisor;
	return 0;
}

int targets_run(ruas_report **out, const char *const *targets,
		const ruas_target_options *o, const struct runner *runner,
		ruas_error **err)
{
	const char *via;
	char *me_name;
	size_t n = 0;
	*out = NULL;
	while (targets[n])
		n++;
	int rc = check_as(o, &via, &me_name, err);
	if (rc < 0)
		return rc;
	struct check_run run = {
		.sudo = o->sudo ? o->sudo : RUAS_SUDO_PATH,
		.helper = o->helper ? o->helper : RUAS_HELPER_PATH,
		.config = "the configuration",
		.supervisor_name = o->supervisor ? o->supervisor : me_name ? me_name : "root",
		.scan_time_limit = DEFAULT_SCAN_TIME_LIMIT,
	};
	/* The engine and the findings only read the list: the cast writes nothing. */
	char *const *allowed = (char *const *)o->sudo_allowed;

	/* No configuration, so no host_check_interval: the trees are walked now. */
	struct host_run host = {.fs_root = runner->fs_root, .seconds = DEFAULT_SCAN_TIME_LIMIT};
	struct job_spec *specs = calloc(n + 1, sizeof *specs);
	struct job *jobs = NULL;
	ruas_report *rep = report_new(targets, n);
	rc = RUAS_ERR_NOMEM;
	if (!specs || !rep)
		goto done;
	for (size_t i = 0; i < n; i++) {
		specs[i].user = targets[i];
		specs[i].via = via;
		specs[i].want_rules = 1;
		specs[i].allowed = &allowed;
		specs[i].nallowed = 1;
	}
	host_run_start(&host);
	run.judged_trees = host.judged;
	run.njudged_trees = host.njudged;
	if (!(jobs = jobs_run(&run, runner, specs, n, o->max_parallel)) ||
	    host_run_apply(&host, jobs, n) < 0)
		goto done;
	rc = 0;
	for (size_t i = 0; i < n; i++)
		if (report_target(&run, &jobs[i], i, allowed, rep) < 0)
			rc = RUAS_ERR_NOMEM;
done:
	host_run_free(&host);
	jobs_free(jobs, n);
	free(specs);
	free(me_name);
	if (rc < 0) {
		ruas_report_free(rep);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	*out = rep;
	return 0;
}

int ruas_check_targets(ruas_report **out, const char *const *targets,
		       const ruas_target_options *opts, ruas_error **err)
{
	struct runner real = {run_capture, NULL, geteuid() == 0, NULL};
	ruas_target_options defaults = RUAS_TARGET_OPTIONS_INIT;
	if (!out || !targets || !targets[0])
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_check_targets: out and at least one target are required");
	if (error_options_version(err, "ruas_check_targets", opts ? &opts->version : NULL, 1,
				  RUAS_TARGET_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	ruas_target_options o = defaults;
	if (opts) {
		/* Version 1 ends before sudo_allowed: read only what it has. */
		memcpy(&o, opts, opts->version == 1 ? offsetof(ruas_target_options, sudo_allowed)
						    : sizeof o);
		o.version = RUAS_TARGET_OPTIONS_VERSION;
	}
	for (const char *const *a = o.sudo_allowed; a && *a; a++) {
		const char *why = sudo_allowed_problem(*a);
		if (why) {
			struct buf q = BUF_INIT;
			quote_display_dq(&q, *a);
			int r = error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
					  "target_sudo_allowed: %s %s", q.data ? q.data : "", why);
			buf_free(&q);
			return r;
		}
	}
	for (const char *const *t = targets; *t; t++) {
		const char *why = user_name_problem(*t);
		if (why)
			return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
					 "target \"%s\" %s", *t, why);
	}
	if (runner_nofile_floor("ruas_check_targets", err) < 0)
		return RUAS_ERR_SYSTEM;
	return targets_run(out, targets, &o, &real, err);
}
