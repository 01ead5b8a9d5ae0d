/* SPDX-License-Identifier: ISC */
/*
 * preflight.c - ruas_preflight(): every startup check of every project,
 * before any spawn. Projects that share a user (and backend, and pam
 * service) share one job, and each distinct work_dir is probed once.
 */
#include "check/preflight.h"
#include "audit/summary.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "check/findings.h"
#include "check/host_jobs.h"
#include "check/fragments.h"
#include "check/host_notes.h"
#include "check/probe_cache.h"
#include "check/command_check.h"
#include "check/verdict.h"
#include "host/cache.h"
#include "check/lifetime.h"
#include "check/report.h"
#include "config/config_int.h"
#include "error.h"

/* What preflight keeps of each job besides its spec. */
struct planned {
	struct job_projects projects;
	char **owned; /* scopes allocated for the spec's dirs */
	size_t nowned;
	char *const **allowed; /* the spec's: the global list, then each project's */
	struct job_commands commands; /* the spec's commands */
};

struct plan {
	struct job_spec *specs;
	struct planned *more; /* specs[i]'s at i */
	size_t n;
};

struct check_run check_run_of(const struct ruas_config *cfg)
{
	struct check_run run = {
		.sudo = cfg->sudo,
		.helper = cfg->helper,
		.session_helper = cfg->session_helper,
		.config = cfg->path,
		.config_file = cfg->path,
		.supervisor_name = cfg->supervisor_name,
		.supervisor_uid = cfg->supervisor_uid,
		.scan_time_limit = cfg->scan_time_limit,
		.cfg = cfg,
	};
	return run;
}

static int same_strv(char **a, char **b)
{
	for (; *a && *b; a++, b++)
		if (strcmp(*a, *b) != 0)
			return 0;
	return !*a && !*b;
}

/* *k: the job of p's user, backend and pam service, made on first sight. -1 on OOM. */
static int job_of(const struct ruas_config *cfg, struct plan *pl, const struct ruas_project *p,
		  size_t *k)
{
	int pam = project_backend(p) == BACKEND_PAM;
	for (*k = 0; *k < pl->n; ++*k) {
		const struct job_spec *s = &pl->specs[*k];
		if (strcmp(s->user, p->run_as_user) == 0 && s->pam == pam &&
		    (!pam || strcmp(s->pam_service, p->pam_service) == 0))
			return 0;
	}
	struct job_spec *s = &pl->specs[pl->n];
	struct planned *m = &pl->more[pl->n++];
	s->user = p->run_as_user;
	s->want_rules = 1;
	s->pam_service = p->pam_service;
	s->pam = pam;
	m->projects.index = calloc(cfg->nprojects, sizeof *m->projects.index);
	m->projects.dir_of = calloc(cfg->nprojects, sizeof *m->projects.dir_of);
	s->dirs = calloc(cfg->nprojects, sizeof *s->dirs);
	m->owned = calloc(cfg->nprojects + 1, sizeof *m->owned);
	m->allowed = calloc(cfg->nprojects + 1, sizeof *m->allowed);
	if (!m->projects.index || !m->projects.dir_of || !s->dirs || !m->owned || !m->allowed)
		return -1;
	m->allowed[0] = cfg->target_sudo_allowed;
	s->allowed = m->allowed;
	s->nallowed = 1;
	return 0;
}

/* *d: p's dir among the job's, added on first sight (work_dir, prune and scope). -1 on OOM. */
static int dir_of(const struct ruas_config *cfg, struct job_spec *s, struct planned *m,
		  const struct ruas_project *p, size_t *d)
{
	char *scope = p->person ? people_scope(cfg->people, p->person) : NULL;
	if (p->person && !scope)
		return -1;
	*d = 0;
	while (*d < s->ndirs && !(strcmp(s->dirs[*d].work_dir, p->work_dir) == 0 &&
				  same_strv(s->dirs[*d].prune, p->scan_prune) &&
				  strcmp(s->dirs[*d].scope, scope ? scope : "") == 0))
		++*d;
	if (*d < s->ndirs) {
		free(scope);
		return 0;
	}
	s->dirs[*d].work_dir = p->work_dir; /* borrowed */
	s->dirs[*d].prune = p->scan_prune;
	s->dirs[*d].nprune = p->nprune;
	s->dirs[*d].scope = scope ? scope : (char *)"";
	if (scope)
		m->owned[m->nowned++] = scope;
	s->ndirs++;
	return 0;
}

/* Groups projects by run_as_user, first appearance first. -1 on OOM. */
static int plan_jobs(const struct ruas_config *cfg, struct plan *pl)
{
	pl->specs = calloc(cfg->nprojects + 1, sizeof *pl->specs);
	pl->more = calloc(cfg->nprojects + 1, sizeof *pl->more);
	if (!pl->specs || !pl->more)
		return -1;
	for (size_t i = 0; i < cfg->nprojects; i++) {
		const struct ruas_project *p = cfg->projects[i];
		size_t k, d;
		if (!p->run_as_user)
			continue;
		if (job_of(cfg, pl, p, &k) < 0 || dir_of(cfg, &pl->specs[k], &pl->more[k], p, &d) < 0)
			return -1;
		struct job_spec *s = &pl->specs[k];
		struct job_projects *jp = &pl->more[k].projects;
		if (p->person && cfg->people->enforce_bwrap)
			s->check_flags |= CHECK_BWRAP;
		/* The sudo backend's PID namespace is the target's own to make. */
		if (!s->pam && project_lifetime(p) != LIFETIME_CFG_SUBREAPER)
			s->check_flags |= CHECK_USERNS;
		jp->dir_of[jp->n] = d;
		jp->index[jp->n++] = i;
		pl->more[k].allowed[s->nallowed++] = p->target_sudo_allowed;
		if (job_commands_add(&pl->more[k].commands, cfg->nprojects, p) < 0)
			return -1;
		s->commands = pl->more[k].commands.v;
		s->ncommands = pl->more[k].commands.n;
	}
	return 0;
}

static void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct planned *m = &pl->more[i];
		free(pl->specs[i].dirs);
		free(m->projects.index);
		free(m->projects.dir_of);
		for (size_t k = 0; k < m->nowned; k++)
			free(m->owned[k]);
		free(m->owned);
		free(m->allowed);
		job_commands_free(&m->commands);
	}
	free(pl->specs);
	free(pl->more);
}

/*
 * The kept verdict's key (verdict.h), made on a thread of its own while the
 * jobs run, not after them: a change from the moment the key is taken on is
 * another key, and the next preflight checks anew. (Made after the jobs, as
 * before, a change between a file's judgment and the key was kept unseen;
 * now only one between its judgment and the key's start is.)
 */
struct key_run {
	const ruas_config *cfg;
	struct buf k;
	int ok;
	int started;
	pthread_t th;
};

static void *key_main(void *arg)
{
	struct key_run *kr = arg;
	/*
	 * The directory the check keeps its walk, probes and verdict in, made
	 * first when missing: making it changes the supervisor's home, which
	 * is in the key.
	 */
	int dir = host_cache_dir();
	if (dir >= 0)
		close(dir);
	kr->ok = verdict_key(kr->cfg, &kr->k) == 0;
	return NULL;
}

static void key_start(struct key_run *kr)
{
	kr->started = pthread_create(&kr->th, NULL, key_main, kr) == 0;
	if (!kr->started)
		key_main(kr);
}

static void key_join(struct key_run *kr)
{
	if (kr->started)
		pthread_join(kr->th, NULL);
	kr->started = 0;
}

/* What a check says of the host once (host_notes.h): never kept, judged at each check. */
static int host_notes(ruas_report *rep, const ruas_config *cfg, const char *fs_root)
{
	return report_proc_cmdlines(rep, fs_root) | report_not_judged(rep, fs_root) |
	       report_setup_fragments(rep, cfg, fs_root);
}

/* The jobs' shared part (engine.h); probe_host: the probes' host key, made here. */
static struct check_run preflight_check_run(const ruas_config *cfg, const struct runner *runner,
					    unsigned int flags, struct buf *probe_host)
{
	struct check_run run = check_run_of(cfg);
	/* A test's fake tree (fs_root) is never kept in the host's place. */
	run.keep_probes = runner->fs_root ? 0 : cfg->host_check_interval;
	run.fresh_probes = (flags & PREFLIGHT_FRESH_HOST) != 0;
	run.after_job = findings_after_job;
	run.pam_dir = cfg->pam_dir;
	if (run.keep_probes && probe_cache_host_key(probe_host) == 0)
		run.probe_host_key = probe_host;
	return run;
}

/*
 * A kept passing verdict into *out, when asked for and nothing it stood on
 * has changed: 1; 0 when there is none to give back; <0 on OOM.
 */
static int reused(ruas_report **out, const ruas_config *cfg, unsigned int flags,
		  const struct runner *runner, ruas_error **err)
{
	int real = !runner->fs_root && !(flags & PREFLIGHT_FRESH_HOST);
	if (!real || !(flags & PREFLIGHT_REUSE_VERDICT) || !(*out = verdict_reuse(cfg)))
		return 0;
	if (host_notes(*out, cfg, NULL) == 0)
		return 1;
	ruas_report_free(*out);
	*out = NULL;
	return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "preflight: out of memory");
}

int preflight_run(ruas_report **out, const ruas_config *cfg,
		  unsigned int max_parallel, unsigned int flags, const struct runner *runner,
		  ruas_error **err)
{
	int kept = reused(out, cfg, flags, runner, err);
	if (kept != 0)
		return kept < 0 ? kept : 0;
	struct buf probe_host = BUF_INIT;
	struct check_run run = preflight_check_run(cfg, runner, flags, &probe_host);
	/* The trees root trusts, walked beside the sudo calls (check/host_jobs.h). */
	struct host_run host = {.fs_root = runner->fs_root,
				.seconds = cfg->scan_time_limit,
				/* A test's fake tree is never kept in the host's place. */
				.interval = runner->fs_root ? 0 : cfg->host_check_interval,
				.fresh = (flags & PREFLIGHT_FRESH_HOST) != 0};
	struct key_run key = {.cfg = cfg, .k = BUF_INIT};
	struct plan pl = {0};
	struct job *jobs = NULL;
	ruas_report *rep = NULL;
	const char **names = calloc(cfg->nprojects + 1, sizeof *names);
	int rc = RUAS_ERR_NOMEM;

	*out = NULL;
	if (!names || plan_jobs(cfg, &pl) < 0)
		goto done;
	/* Projects without a user to check (or a kept verdict) need no sudo: no floor. */
	if (pl.n > 0 && !runner->fs_root && runner_nofile_floor("ruas_preflight", err) < 0) {
		rc = RUAS_ERR_SYSTEM;
		goto done;
	}
	for (size_t i = 0; i < cfg->nprojects; i++)
		names[i] = cfg->projects[i]->name;
	if (!(rep = report_new(names, cfg->nprojects)))
		goto done;

	/* A test's fake tree is never kept in the host's place. */
	if (!runner->fs_root)
		key_start(&key);
	host_run_start(&host);
	run.judged_trees = host.judged;
	run.njudged_trees = host.njudged;
	if (!(jobs = jobs_run(&run, runner, pl.specs, pl.n, max_parallel)))
		goto done;
	if (host_run_apply(&host, jobs, pl.n) < 0)
		goto done;
	rc = 0;
	for (size_t i = 0; i < pl.n; i++) {
		if (report_job(cfg, &run, &jobs[i], &pl.more[i].projects, rep) < 0)
			rc = RUAS_ERR_NOMEM;
		if (report_job_lifetime(runner->fs_root, &jobs[i], &pl.more[i].projects, rep) < 0)
			rc = RUAS_ERR_NOMEM;
		if (report_commands(cfg, &jobs[i], &pl.more[i].projects, &pl.more[i].commands,
				    rep) < 0)
			rc = RUAS_ERR_NOMEM;
	}
	if (report_helper_readable(cfg, run.helper, rep) < 0 || report_shared_users(cfg, rep) < 0 ||
	    report_root_password(cfg, rep) < 0 || host_notes(rep, cfg, runner->fs_root) < 0)
		rc = RUAS_ERR_NOMEM;
done:
	key_join(&key);
	host_run_free(&host);
	buf_free(&probe_host);
	free(names);
	jobs_free(jobs, pl.n);
	plan_free(&pl);
	if (rc < 0) {
		buf_free(&key.k);
		ruas_report_free(rep);
		return rc == RUAS_ERR_SYSTEM ? rc /* the floor's, said */
					     : error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM,
							 "preflight: out of memory");
	}
	*out = rep;
	if (key.ok)
		verdict_keep(cfg, &key.k, rep);
	buf_free(&key.k);
	return 0;
}

static unsigned int preflight_flags(const ruas_preflight_options *opts)
{
	if (!opts || opts->version < 3)
		return 0;
	return (opts->fresh_host ? PREFLIGHT_FRESH_HOST : 0u) |
	       (opts->reuse_verdict ? PREFLIGHT_REUSE_VERDICT : 0u);
}

int ruas_preflight(ruas_report **out, const ruas_config *cfg,
		   const ruas_preflight_options *opts, ruas_error **err)
{
	struct runner real = {run_capture, NULL, geteuid() == 0, NULL};
	if (!out || !cfg)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_preflight: out and cfg are required");
	if (error_options_version(err, "ruas_preflight", opts ? &opts->version : NULL, 1,
				  RUAS_PREFLIGHT_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	struct audit_dest d;
	int r = audit_summary_dest(&d, cfg, opts, "ruas_preflight", err);
	if (r == 0)
		r = preflight_run(out, cfg, opts ? opts->max_parallel : 0, preflight_flags(opts), &real,
				  err);
	return audit_summary_finish(r, cfg, &d, out, AUDIT_CHECK, "ruas_preflight", err);
}
