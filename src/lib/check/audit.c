/* SPDX-License-Identifier: ISC */
/*
 * audit.c - ruas_audit(): what each person of the people block can read of
 * the others' and the supervisor's, probed as its run_as_user.
 */
#include "check/preflight.h"
#include "audit/summary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "check/findings.h"
#include "check/report.h"
#include "config/config_int.h"
#include "error.h"
#include "people/deny.h"
#include "strv.h"

static const char *const secret_names[] = {".ssh", ".claude", ".config", ".netrc",
					   ".aws", ".git-credentials", ".gnupg",
					   ".docker/config.json", NULL};

/* The supervisor's own secrets that exist: no agent should read them. */
static int supervisor_secrets(const struct ruas_config *cfg, struct deny_list *d)
{
	struct account a;
	if (account_lookup_uid(cfg->supervisor_uid, &a) != ACCOUNT_FOUND)
		return 0;
	int r = 0;
	for (const char *const *n = secret_names; r == 0 && *n; n++) {
		struct buf b = BUF_INIT;
		struct stat st;
		buf_printf(&b, "%s/%s", a.home, *n);
		if (b.data && lstat(b.data, &st) == 0)
			r = strv_push(&d->paths, &d->n, buf_detach(&b));
		buf_free(&b);
	}
	account_clear(&a);
	return r;
}

/* What the audit keeps of each person besides the spec. */
struct audit {
	size_t n;
	struct job_spec *specs;
	const char **names;
	struct deny_list *lists; /* the paths probed */
	size_t *ndeny;           /* lists[i]'s deny rules; the rest are the supervisor's secrets */
	char *const *allowed; /* the global target_sudo_allowed */
};

/* A spec per person: its deny list and the supervisor's secrets to probe. */
static int audit_plan(const struct ruas_config *cfg, struct audit *a, ruas_error **err)
{
	const struct ruas_people *pp = cfg->people;
	size_t n = a->n = pp->nmembers;
	a->specs = calloc(n + 1, sizeof *a->specs);
	a->names = calloc(n + 1, sizeof *a->names);
	a->lists = calloc(n + 1, sizeof *a->lists);
	a->ndeny = calloc(n + 1, sizeof *a->ndeny);
	a->allowed = cfg->target_sudo_allowed;
	if (!a->specs || !a->names || !a->lists || !a->ndeny)
		return RUAS_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ruas_person *m = &pp->members[i];
		struct job_spec *s = &a->specs[i];
		int rc = deny_list_compute(cfg, m->id, &a->lists[i], err);
		if (rc < 0)
			return rc;
		a->names[i] = m->id;
		a->ndeny[i] = a->lists[i].n;
		if (supervisor_secrets(cfg, &a->lists[i]) < 0)
			return RUAS_ERR_NOMEM;
		s->user = m->run_as_user;
		s->pam_service = DEFAULT_PAM_SERVICE;
		s->pam = geteuid() == 0;
		s->probes = a->lists[i].paths;
		s->nprobes = a->lists[i].n > 256 ? 256 : a->lists[i].n;
		s->allowed = &a->allowed;
		s->nallowed = 1;
	}
	return 0;
}

static void audit_free(struct audit *a)
{
	for (size_t i = 0; a->lists && i < a->n; i++)
		deny_list_free(&a->lists[i]);
	free(a->specs);
	free(a->names);
	free(a->lists);
	free(a->ndeny);
}

int audit_run(ruas_report **out, const ruas_config *cfg, unsigned int max_parallel,
	      const struct runner *runner, ruas_error **err)
{
	const struct ruas_people *pp = cfg->people;
	*out = NULL;
	if (!pp)
		return error_set(err, RUAS_ERR_CONFIG, cfg->path, 0, 0,
				 "%s has no people block: nothing to audit", cfg->path);
	const struct check_run run = check_run_of(cfg);
	struct audit a = {0};
	struct job *jobs = NULL;
	ruas_report *rep = NULL;
	int rc = audit_plan(cfg, &a, err);
	if (rc == 0 && (!(rep = report_new(a.names, a.n)) ||
			!(jobs = jobs_run(&run, runner, a.specs, a.n, max_parallel))))
		rc = RUAS_ERR_NOMEM;
	for (size_t i = 0; jobs && i < a.n; i++)
		if (report_person(&run, pp, i, &jobs[i], &a.lists[i], a.ndeny[i], rep) < 0)
			rc = RUAS_ERR_NOMEM;
	jobs_free(jobs, a.n);
	audit_free(&a);
	if (rc < 0) {
		ruas_report_free(rep);
		return rc == RUAS_ERR_NOMEM
			       ? error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory")
			       : rc;
	}
	*out = rep;
	return 0;
}

int ruas_audit(ruas_report **out, const ruas_config *cfg,
	       const ruas_preflight_options *opts, ruas_error **err)
{
	struct runner real = {run_capture, NULL, geteuid() == 0, NULL};
	if (!out || !cfg)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_audit: out and cfg are required");
	if (error_options_version(err, "ruas_audit", opts ? &opts->version : NULL, 1,
				  RUAS_PREFLIGHT_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	struct audit_dest d;
	int r = audit_summary_dest(&d, cfg, opts, "ruas_audit", err);
	if (r == 0)
		r = runner_nofile_floor("ruas_audit", err);
	if (r == 0)
		r = audit_run(out, cfg, opts ? opts->max_parallel : 0, &real, err);
	return audit_summary_finish(r, cfg, &d, out, AUDIT_AUDIT, "ruas_audit", err);
}
