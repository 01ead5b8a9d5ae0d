/* SPDX-License-Identifier: ISC */
/*
 * engine.c - the job engine of every check (see engine.h).
 *
 * Checks that depend on the user run once per user, and one sudo call per
 * user carries all of them: the helper proves that passwordless sudo works
 * (check 1) by answering at all, then probes escalation (check 2), and
 * each of that user's work_dirs (check 3 and the scan). Users are checked
 * concurrently by a small pool of threads, so a slow sudo for one project
 * does not hold up the others.
 */
#include "check/engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "channel.h"
#include "check/anchors_known.h"
#include "check/report_names.h"
#include "error.h"
#include "exit_status.h"
#include "pam_service.h"
#include "payload.h"
#include "spawn/pam.h"
#include "spawn/sudo_call.h"
#include "check/sudo_list.h"
#include "helper_report.h"
#include "check/probe_cache.h"

/* The risky groups' gids (account.h), loaded once for all jobs by the first that needs them. */
struct risk_once {
	pthread_mutex_t mu;
	int state; /* 0 not yet, 1 loaded, -1 the database failed */
	struct group_risk_gids gids;
};

struct pool {
	const struct check_run *run;
	const struct runner *runner;
	struct job *jobs;
	size_t njobs;
	size_t next;
	pthread_mutex_t lock;
	struct risk_once risk;
};

/* When no report came back, tell why as precisely as the evidence allows. */
static enum outcome classify_failure(const struct job *j)
{
	const struct run_result *rr = &j->rr;
	const char *err = rr->err.data ? rr->err.data : "";
	int code = exit_status_code(rr->wait_status);

	if (rr->spawn_errno)
		return (rr->spawn_errno == ENOENT || rr->spawn_errno == EACCES ||
			rr->spawn_errno == ENOTDIR)
			       ? OUT_SUDO_MISSING
			       : OUT_SUDO_FAILED;
	if (rr->timed_out)
		return OUT_SUDO_FAILED;
	if (code == 1 && strncmp(err, "sudo: unknown user", 18) == 0)
		return OUT_USER_MISSING;
	/* sudo runs the helper itself (no login shell): its own words when it cannot. */
	if (code == 1 && (strncmp(err, "sudo: unable to execute ", 24) == 0 ||
			  (strncmp(err, "sudo: ", 6) == 0 && strstr(err, ": command not found"))))
		return OUT_HELPER_FAILED;
	/* Its rules' refusal; not sudo's own failure, which may end in the same words. */
	if (code == 1 && strncmp(err, "sudo: ", 6) == 0 && !sudo_failed_itself(err, j->spec->user))
		return OUT_NOT_CONFIGURED;
	if (code == 126 || code == 127)
		return OUT_HELPER_FAILED;
	return OUT_SUDO_FAILED;
}

/*
 * ruas-session's REPORT (its account's verdict, and whether root can make
 * the agent's PID namespace) comes before the helper's. Sets the outcome
 * unless the account passed.
 */
static enum outcome pam_verdict(struct job *j, const struct report *first)
{
	/* A spawn failure wins over any verdict, and a refusal over a missing one. */
	if (j->rr.spawn_errno || !first || first->origin != REPORT_FROM_SESSION) {
		j->outcome = OUT_SESSION_FAILED;
		return j->outcome;
	}
	const struct session_report *s = &first->session;
	if (s->pidns_seen) {
		j->pidns = s->pidns_errno ? SESSION_ACCT_FAIL : SESSION_ACCT_OK;
		j->pidns_why = s->pidns_errno ? strdup(s->pidns_why) : NULL;
	}
	if (s->acct == SESSION_ACCT_OK)
		return OUT_OK;
	j->pam_reason = strdup(s->reason ? s->reason : "");
	j->outcome = OUT_PAM_ACCOUNT;
	return j->outcome;
}

/*
 * Root reads the target's rules whatever listpw says. A requiretty that
 * binds root too is met with a pty, as the target's own probes do.
 */
static void list_as_root(const char *sudo, const struct runner *runner, struct job *j)
{
	const char *argv[] = {"sudo", "-n", "-l", "-U", j->spec->user, NULL};
	for (int pty = 0; pty < 2; pty++) {
		struct run_request req = {sudo, argv, sudo_call_envp, SUDO_OUTPUT_MAX,
					  ROOT_LIST_TIMEOUT_MS, pty, NULL};
		struct run_result rr;
		if (runner->run(runner->ctx, &req, &rr) < 0) {
			run_result_free(&rr);
			j->root_rc = -1;
			break;
		}
		struct buf all = BUF_INIT;
		buf_adds(&all, rr.out.data ? rr.out.data : "");
		buf_adds(&all, rr.err.data ? rr.err.data : "");
		free(j->root_list);
		j->root_list = buf_detach(&all);
		buf_free(&all);
		j->root_rc = rr.spawn_errno ? -rr.spawn_errno : exit_status_code(rr.wait_status);
		j->root_cut = rr.out.len >= SUDO_OUTPUT_MAX || rr.err.len >= SUDO_OUTPUT_MAX;
		run_result_free(&rr);
		if (j->root_rc == 0 || !j->root_list || !strstr(j->root_list, "tty"))
			break;
	}
	j->root_ran = 1;
	/* sudo -V, as root, prints the sudoers Defaults in force, secure_path among them. */
	const char *vargv[] = {"sudo", "-V", NULL};
	struct run_request vreq = {sudo, vargv, sudo_call_envp, SUDO_OUTPUT_MAX,
				   ROOT_LIST_TIMEOUT_MS, 0, NULL};
	struct run_result vr;
	if (runner->run(runner->ctx, &vreq, &vr) == 0 && !vr.spawn_errno &&
	    exit_status_code(vr.wait_status) == 0 && vr.out.data)
		j->root_sudo_v = strdup(vr.out.data);
	run_result_free(&vr);
}

/* The secure_path of root's listing of the target's rules, as anchors. */
static int root_secure_path(const struct job *j, char ***v, size_t *n)
{
	static const char line[] = "Value to override user's $PATH with: ";
	int r = 0;
	/* The global one, from sudo -V; the target's own Defaults, from its listing. */
	const char *g = j->root_sudo_v ? strstr(j->root_sudo_v, line) : NULL;
	if (g) {
		char *path = strndup(g + strlen(line), strcspn(g + strlen(line), "\n"));
		r = path ? anchors_root_path(path, v, n) : -1;
		free(path);
	}
	struct sudo_listing l = {0};
	const char *why;
	if (r < 0 || !j->root_ran || j->root_rc != 0 || !j->root_list ||
	    sudo_listing_parse(j->root_list, j->spec->user, &l, &why) < 0)
		return r; /* a listing that does not parse is check 2's to judge */
	r = anchors_root_path(l.secure_path, v, n);
	sudo_listing_free(&l);
	return r;
}

/*
 * The risky groups' gids, looked up by the first job that needs them while
 * the others are in their sudo calls (NULL when the database failed: each
 * job then looks them up itself).
 */
static const struct group_risk_gids *risk_gids(struct risk_once *o)
{
	pthread_mutex_lock(&o->mu);
	if (!o->state)
		o->state = group_risk_gids_load(&o->gids) == 0 ? 1 : -1;
	pthread_mutex_unlock(&o->mu);
	return o->state > 0 ? &o->gids : NULL;
}

/*
 * The user's risky groups, judged once its call is done (beside the other
 * jobs' calls): those of the group database, then those its sudo or PAM
 * session had beyond them (pam_group).
 */
static void job_groups(struct risk_once *o, struct job *j)
{
	const struct group_risk_gids *known = risk_gids(o);
	errno = 0;
	j->groups_failed = account_group_risks(&j->acct, known, &j->groups) < 0;
	if (j->outcome == OUT_OK && j->spec->want_rules && !j->groups_failed &&
	    account_session_group_risks(&j->acct, j->hr.gids, j->hr.ngids, known, &j->groups) < 0)
		j->groups_failed = 1;
	/* Out of descriptors is said as such (the database itself may be fine). */
	if (j->groups_failed && (errno == EMFILE || errno == ENFILE))
		j->groups_failed = errno;
}

/* The programs of the job's target_sudo_allowed commands are anchors too. */
static int allowed_programs(const struct job_spec *s, char ***v, size_t *n)
{
	int r = 0;
	for (size_t k = 0; r == 0 && k < s->nallowed; k++)
		r = anchors_sudo_allowed(s->allowed[k], v, n);
	return r;
}

static void set_internal(struct job *j, const char *what)
{
	j->outcome = OUT_INTERNAL;
	j->internal = what;
}

/* With the errno of the call that failed, whose words the message gives (EMFILE: the limit). */
static void set_internal_errno(struct job *j, const char *what, int errnum)
{
	set_internal(j, what);
	j->internal_errno = errnum;
}

/* The account as the user database has it: it exists and can log in. 0 to go on. */
static int account_ready(struct job *j)
{
	int lr = account_lookup(j->spec->user, &j->acct);
	if (lr == ACCOUNT_MISSING) {
		j->outcome = OUT_USER_MISSING;
		return -1;
	}
	if (lr != ACCOUNT_FOUND) {
		set_internal_errno(j, "the user database could not be read", errno);
		return -1;
	}
	int nologin = shell_refuses_login(j->acct.shell);
	int noshell = access(j->acct.shell, X_OK) < 0;
	if (nologin || noshell) {
		j->outcome = nologin ? OUT_NOLOGIN : OUT_SHELL_MISSING;
		return -1;
	}
	return 0;
}

/*
 * The one call that carries every probe: sudo's, or ruas-session's (pam),
 * and the channel that carries its payload (channel.h).
 */
struct job_call {
	struct sudo_call call;
	const char *session_argv[4];
	struct buf payload;
	struct buf session;
	struct run_channel ch;
};

static void job_call_free(struct job_call *c)
{
	buf_free(&c->payload);
	buf_free(&c->session);
}

/*
 * The call around the payload p: sudo -n [-u VIA --] sudo -n -u USER --
 * ruas-exec --channel-fd 0, or ruas-session --channel-fd 3 with its own
 * SESSION first. 0 or RUAS_ERR_*.
 */
static int call_around(const struct check_run *run, const struct job_spec *s,
		       const struct payload *p, struct job_call *c)
{
	c->ch.payload = &c->payload;
	if (payload_encode(p, &c->payload) < 0 || c->payload.len > CHANNEL_MAX_BODY)
		return c->payload.oom ? RUAS_ERR_NOMEM : RUAS_ERR_TOOLONG;
	if (s->pam) {
		c->session_argv[0] = run->session_helper;
		c->session_argv[1] = "--channel-fd";
		c->session_argv[2] = "3";
		c->ch.fd_no = 3;
		c->ch.session = &c->session;
		return session_payload_build(&c->session, run->cfg, s->user, s->pam_service,
					     SESSION_CHECK, LIFETIME_SUBREAPER, "", 0, NULL, 0);
	}
	c->ch.fd_no = 0;
	sudo_call_build_via(&c->call, run->sudo, s->via, s->user, run->helper);
	return 0;
}

/* The payload's anchors, then the call around the payload: 0 or RUAS_ERR_*. */
static int call_build(const struct check_run *run, const struct job *j, struct payload *p,
		      struct job_call *c)
{
	const struct job_spec *s = j->spec;
	const struct anchors_source known = {run->config_file, run->helper, run->session_helper,
					     run->supervisor_name, run->supervisor_uid};
	int r = anchors_known(&known, &p->anchors, &p->nanchors) < 0 ||
			allowed_programs(s, &p->anchors, &p->nanchors) < 0 ||
			root_secure_path(j, &p->anchors, &p->nanchors) < 0
		? RUAS_ERR_NOMEM
		: call_around(run, s, p, c);
	for (size_t i = 0; i < p->nanchors; i++)
		free(p->anchors[i]);
	free(p->anchors);
	p->anchors = NULL;
	p->nanchors = 0;
	return r;
}

/* Runs the call: 0 when j->rr holds its result. */
static int call_run(const struct check_run *run, const struct runner *runner, struct job *j,
		    struct job_call *c)
{
	const struct job_spec *s = j->spec;
	/* The probes, then each work_dir's scan, plus a margin; at most two days. */
	unsigned long long t = 60ull + (unsigned long long)run->scan_time_limit * s->ndirs;
	j->timeout_s = t > MAX_CHECK_SECONDS ? MAX_CHECK_SECONDS : (unsigned int)t;
	struct run_request req = {s->pam ? run->session_helper : run->sudo,
				  s->pam ? c->session_argv : c->call.argv, sudo_call_envp,
				  SUDO_OUTPUT_MAX, j->timeout_s * 1000u, 0, &c->ch};
	int r = runner->run(runner->ctx, &req, &j->rr);
	job_call_free(c);
	return r;
}

/*
 * The REPORTs that came back over the channel, in order: at most two (the
 * pam backend's session report, then the helper's). The number decoded,
 * or -1 when what came is not whole messages, or not reports.
 */
static int take_reports(struct job *j, struct report reps[2], const char **why)
{
	const char *data = j->rr.chan.data, *body;
	size_t off = 0, blen;
	int type, n = 0, r;
	/* pam: ruas-session's, then the helper's; sudo: the helper's alone. */
	const int max = j->spec->pam ? 2 : 1;
	*why = "the channel broke off inside a message";
	if (j->rr.chan_cut)
		return -1;
	while ((r = channel_next(data, j->rr.chan.len, &off, &type, &body, &blen)) == 1) {
		if (type != CHANNEL_REPORT || n == max) {
			*why = "the helper sent a message that is not a report, or one too many";
			return -1;
		}
		if (report_decode(body, blen, j->spec->ndirs, &reps[n], why) < 0)
			return -1;
		n++;
		if (reps[n - 1].origin == REPORT_FROM_HELPER &&
		    report_names_fill(&reps[n - 1].helper) < 0) {
			*why = "out of memory";
			return -1;
		}
		/*
		 * On sudo, a report of ruas-session's origin is no one's to send;
		 * on pam, judge_output() takes each only in its place.
		 */
		if (!j->spec->pam && reps[n - 1].origin != REPORT_FROM_HELPER) {
			*why = "a report of another origin than the helper's";
			return -1;
		}
	}
	return r == 0 ? n : -1;
}

/* The outcome from what came back: the helper's report, or why there is none. */
static void judge_output(struct job *j)
{
	struct report reps[2];
	const char *why = NULL;
	memset(reps, 0, sizeof reps);
	int n = take_reports(j, reps, &why);
	if (n < 0) {
		for (int i = 0; i < 2; i++)
			report_free(&reps[i]);
		set_internal(j, "the ruas helper sent a malformed report (are the library and "
				"ruas-exec from the same version?)");
		return;
	}
	if (j->rr.hello_version && j->rr.hello_version != PAYLOAD_VERSION) {
		for (int i = 0; i < 2; i++)
			report_free(&reps[i]);
		set_internal(j, "the ruas helper speaks another payload version than this library "
				"(ruas-exec and libruas must come from one release: reinstall ruas)");
		return;
	}
	const struct report *mine = NULL;
	int pam_ok = !j->spec->pam || pam_verdict(j, n > 0 ? &reps[0] : NULL) == OUT_OK;
	for (int i = 0; i < n; i++)
		if (reps[i].origin == REPORT_FROM_HELPER)
			mine = &reps[i];
	if (pam_ok && mine && (!j->spec->pam || mine == &reps[1])) {
		j->hr = mine->helper; /* the job's now */
		memset(&reps[mine - reps].helper, 0, sizeof mine->helper);
		j->outcome = OUT_OK;
	} else if (pam_ok) {
		j->outcome = j->spec->pam ? OUT_SESSION_FAILED : classify_failure(j);
	}
	for (int i = 0; i < 2; i++)
		report_free(&reps[i]);
}

/*
 * pam: the service file PAM will read, before anything runs: a missing one
 * is not an error to PAM, which runs /etc/pam.d/other instead. 0, or -1
 * with the outcome set.
 */
static int pam_service_ready(const struct check_run *run, struct job *j)
{
	char why[512];
	int r = j->spec->pam ? pam_service_problem(run->cfg ? run->cfg->pam_dir : NULL,
						    j->spec->pam_service, why, sizeof why)
			     : 0;
	if (r == 0)
		return 0;
	/* Out of descriptors says nothing of the service file. */
	if (r == PAM_SERVICE_NO_FD) {
		set_internal_errno(j, "its PAM service file could not be opened", errno);
		return -1;
	}
	j->pam_reason = strdup(why);
	if (j->pam_reason)
		j->outcome = OUT_PAM_SERVICE;
	else
		set_internal(j, "out of memory");
	return -1;
}

static void run_job_call(const struct check_run *run, const struct runner *runner, struct job *j,
			 const struct payload *pp);

static void run_job(const struct check_run *run, const struct runner *runner, struct job *j)
{
	const struct job_spec *s = j->spec;
	if (pam_service_ready(run, j) < 0 || account_ready(j) < 0)
		return;
	struct payload p = {0};
	p.kind = PAYLOAD_CHECK;
	p.user = (char *)s->user; /* borrowed, as all of p: payload_encode() only reads them */
	p.sudo_path = (char *)run->sudo; /* borrowed: payload_encode() only reads it */
	p.scan_cap = SCAN_REPORT_CAP;
	p.scan_seconds = run->scan_time_limit;
	p.dirs = s->dirs;
	p.ndirs = s->ndirs;
	p.check_flags = s->check_flags;
	p.probes = s->probes;
	p.nprobes = s->nprobes;
	p.commands = s->commands;
	p.ncommands = s->ncommands;
	p.judged_trees = (char **)run->judged_trees; /* borrowed: payload_encode() only reads them */
	p.njudged_trees = run->njudged_trees;

	/* The target's probes, kept from a check whose key still holds (probe_cache.h). */
	struct buf key = BUF_INIT;
	struct helper_report kept;
	memset(&kept, 0, sizeof kept);
	int keep = run->keep_probes && run->probe_host_key && !runner->fs_root &&
		   probe_cache_key(run->probe_host_key, s->user, &key) == 0;
	int known = keep && !run->fresh_probes &&
		    probe_cache_load(&key, s->user, run->keep_probes, &kept) == 1;
	if (known) {
		p.check_flags |= CHECK_ESC_KNOWN;
		p.known_listing = kept.list_out ? kept.list_out : (char *)"";
	}
	run_job_call(run, runner, j, &p);
	if (j->outcome == OUT_OK && j->hr.esc_known != known)
		set_internal(j, "the ruas helper's report and the kept probes disagree (are the "
				"library and ruas-exec from the same version?)");
	else if (known && j->outcome == OUT_OK)
		probe_cache_give(&j->hr, &kept);
	else if (keep && j->outcome == OUT_OK)
		probe_cache_store(&key, s->user, &j->hr);
	helper_report_free(&kept);
	buf_free(&key);
}

/* The call of run_job() once its payload is made: the helper's REPORT judged into j. */
static void run_job_call(const struct check_run *run, const struct runner *runner, struct job *j,
			 const struct payload *pp)
{
	const struct job_spec *s = j->spec;
	struct payload p = *pp;
	/* Root reads the rules first: their secure_path is an anchor too. */
	if (runner->root && s->want_rules)
		list_as_root(run->sudo, runner, j);
	struct job_call c;
	memset(&c, 0, sizeof c);
	int r = call_build(run, j, &p, &c);
	if (r < 0) {
		job_call_free(&c);
		set_internal(j, r == RUAS_ERR_TOOLONG ? "the work_dirs and paths of this user are too "
							"long to pass to the helper (about 8 MiB "
							"at most)"
						       : "out of memory");
		return;
	}
	if (call_run(run, runner, j, &c) < 0) {
		set_internal_errno(j, s->pam ? "running ruas-session failed" : "running sudo failed",
				   errno);
		return;
	}
	/* Only a program that is not there or may not be run is sudo's or ruas-session's to fix. */
	int e = j->rr.spawn_errno;
	if (e && e != ENOENT && e != EACCES && e != ENOTDIR) {
		set_internal_errno(j, s->pam ? "ruas-session could not be started"
					     : "sudo could not be started", e);
		return;
	}
	judge_output(j);
}

static void *worker(void *arg)
{
	struct pool *pl = arg;
	for (;;) {
		pthread_mutex_lock(&pl->lock);
		size_t i = pl->next < pl->njobs ? pl->next++ : pl->njobs;
		pthread_mutex_unlock(&pl->lock);
		if (i == pl->njobs)
			return NULL;
		run_job(pl->run, pl->runner, &pl->jobs[i]);
		if (pl->jobs[i].acct.name) /* its passwd entry was read */
			job_groups(&pl->risk, &pl->jobs[i]);
		if (pl->run->after_job)
			pl->run->after_job(pl->run, pl->runner, &pl->jobs[i]);
	}
}

struct job *jobs_run(const struct check_run *run, const struct runner *runner,
		     const struct job_spec *specs, size_t n, unsigned int max_parallel)
{
	struct job *jobs = calloc(n + 1, sizeof *jobs);
	struct pool pl = {run, runner, jobs, n, 0, PTHREAD_MUTEX_INITIALIZER,
			  {PTHREAD_MUTEX_INITIALIZER, 0, {0}}};
	size_t nthreads = max_parallel ? max_parallel : DEFAULT_MAX_PARALLEL;
	if (nthreads > n)
		nthreads = n;
	pthread_t *tids = calloc(nthreads + 1, sizeof *tids);
	if (!jobs || !tids) {
		free(jobs);
		free(tids);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		jobs[i].spec = &specs[i];
	size_t started = 0;
	for (; started < nthreads; started++)
		if (pthread_create(&tids[started], NULL, worker, &pl) != 0)
			break;
	if (started == 0 && n > 0)
		worker(&pl); /* no thread could start: do the work here */
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	group_risk_gids_clear(&pl.risk.gids);
	return jobs;
}

void jobs_free(struct job *jobs, size_t n)
{
	for (size_t i = 0; jobs && i < n; i++) {
		account_clear(&jobs[i].acct);
		group_hits_clear(&jobs[i].groups);
		free(jobs[i].pam_reason);
		free(jobs[i].pidns_why);
		free(jobs[i].root_list);
		free(jobs[i].root_sudo_v);
		run_result_free(&jobs[i].rr);
		helper_report_free(&jobs[i].hr);
		pam_ways_free(&jobs[i].ways);
		pam_ways_free(&jobs[i].doas_ways);
	}
	free(jobs);
}
