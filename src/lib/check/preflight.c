/*
 * preflight.c - every startup check of every project, before any spawn.
 *
 * Checks that depend on the user run once per user, and one sudo call per
 * user carries all of them: the helper proves that passwordless sudo works
 * (check 1) by answering at all, then probes escalation (check 2), and
 * each of that user's work_dirs (check 3 and the scan). Users are checked
 * concurrently by a small pool of threads, so a slow sudo for one project
 * does not hold up the others.
 */
#include "check/preflight.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "anchors.h"
#include "check/anchors_report.h"
#include "config/config_int.h"
#include "error.h"
#include "people/deny.h"
#include "check/escalation.h"
#include "exit_status.h"
#include "check/messages.h"
#include "names.h"
#include "payload.h"
#include "check/report.h"
#include "quote.h"
#include "session_acct.h"
#include "spawn/spawn_int.h"
#include "strv.h"
#include "config/sudo_allowed.h"
#include "spawn/sudo_call.h"
#include "check/sudo_list.h"
#include "wire.h"

enum outcome {
	OUT_OK,
	OUT_USER_MISSING,
	OUT_NOLOGIN,
	OUT_SHELL_MISSING,
	OUT_SUDO_MISSING,
	OUT_NOT_CONFIGURED,
	OUT_HELPER_FAILED,
	OUT_SUDO_FAILED,
	OUT_INTERNAL,
	OUT_PAM_ACCOUNT, /* pam backend: pam_acct_mgmt refused */
	OUT_SESSION_FAILED,
};

struct job {
	const char *user;
	const struct ruas_project *first; /* for the pam backend's service */
	int pam;
	char *pam_reason;
	const char *via; /* run sudo as this user first (root only), or NULL */
	size_t *projects; /* indexes into cfg->projects */
	size_t nprojects;
	size_t *dir_of;   /* per project: index into dirs */
	struct payload_dir *dirs;
	size_t ndirs;
	char **owned; /* scopes allocated for dirs */
	size_t nowned;
	unsigned int check_flags;
	char **probes; /* audit: paths to try to open as the user (borrowed) */
	size_t nprobes;
	/* results */
	enum outcome outcome;
	const char *internal; /* static description for OUT_INTERNAL */
	char *shell;
	struct group_hits groups; /* account_group_risks() */
	int groups_failed;
	unsigned int timeout_s;
	struct run_result rr;
	struct helper_report hr;
	/* root only: sudo -n -l -U USER */
	int want_rules; /* check 2 is wanted (not for the audit) */
	int root_ran, root_rc, root_cut;
	char *root_list;
	char *root_sudo_v; /* sudo -V as root, or NULL */
};

struct pool {
	const struct ruas_config *cfg;
	const struct runner *runner;
	struct job *jobs;
	size_t njobs;
	size_t next;
	pthread_mutex_t lock;
};

static int make_nonce(char *out, size_t outsz)
{
	unsigned char raw[16];
	struct buf b = BUF_INIT;
	size_t got = 0;
	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	if (hex_encode(&b, raw, sizeof raw) < 0 || b.len >= outsz) {
		buf_free(&b);
		return -1;
	}
	memcpy(out, b.data, b.len + 1);
	buf_free(&b);
	return 0;
}

/* When no report came back, tell why as precisely as the evidence allows. */
static enum outcome classify_failure(const struct job *j)
{
	const struct run_result *rr = &j->rr;
	const char *err = rr->err.data ? rr->err.data : "";
	const char *out = rr->out.data ? rr->out.data : "";
	int code = exit_status_code(rr->wait_status);

	if (rr->spawn_errno)
		return (rr->spawn_errno == ENOENT || rr->spawn_errno == EACCES ||
			rr->spawn_errno == ENOTDIR)
			       ? OUT_SUDO_MISSING
			       : OUT_SUDO_FAILED;
	if (rr->timed_out)
		return OUT_SUDO_FAILED;
	if (strstr(out, "This account is currently not available"))
		return OUT_NOLOGIN;
	if (code == 1 && strncmp(err, "sudo: unknown user", 18) == 0)
		return OUT_USER_MISSING;
	if (code == 1 && strncmp(err, "sudo: ", 6) == 0)
		return OUT_NOT_CONFIGURED;
	if (code == 126 || code == 127)
		return OUT_HELPER_FAILED;
	return OUT_SUDO_FAILED;
}

/*
 * ruas-session prints its account verdict (session_acct.h) before the
 * helper's report. Sets the outcome unless the account passed.
 */
static enum outcome pam_verdict(struct job *j)
{
	enum session_acct acct = SESSION_ACCT_NONE;
	/* A spawn failure wins over any "fail" line, and "fail" over a missing "ok". */
	if (!j->rr.spawn_errno)
		acct = session_acct_parse(j->rr.out.data ? j->rr.out.data : "", &j->pam_reason);
	if (acct == SESSION_ACCT_OK)
		return OUT_OK;
	j->outcome = acct == SESSION_ACCT_FAIL ? OUT_PAM_ACCOUNT : OUT_SESSION_FAILED;
	return j->outcome;
}

/*
 * Root reads the target's rules whatever listpw says. A requiretty that
 * binds root too is met with a pty, as the target's own probes do.
 */
static void list_as_root(const char *sudo, const struct runner *runner, struct job *j)
{
	const char *argv[] = {"sudo", "-n", "-l", "-U", j->user, NULL};
	for (int pty = 0; pty < 2; pty++) {
		struct run_request req = {sudo, argv, sudo_call_envp, SUDO_OUTPUT_MAX,
					  ROOT_LIST_TIMEOUT_MS, pty};
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
				   ROOT_LIST_TIMEOUT_MS, 0};
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
	    sudo_listing_parse(j->root_list, j->user, &l, &why) < 0)
		return r; /* a listing that does not parse is check 2's to judge */
	r = anchors_root_path(l.secure_path, v, n);
	sudo_listing_free(&l);
	return r;
}

/* Groups the login session had beyond the group database (pam_group). */
static void session_groups(struct job *j)
{
	struct account acct;
	if (!j->want_rules || j->groups_failed)
		return;
	if (account_lookup(j->user, &acct) != ACCOUNT_FOUND) {
		j->groups_failed = 1;
		return;
	}
	if (account_session_group_risks(&acct, j->hr.gids, j->hr.ngids, &j->groups) < 0)
		j->groups_failed = 1;
	account_clear(&acct);
}

/* The programs of the job's target_sudo_allowed commands are anchors too. */
static int allowed_programs(const struct ruas_config *cfg, const struct job *j, char ***v,
			    size_t *n)
{
	int r = anchors_sudo_allowed(cfg->target_sudo_allowed, v, n);
	for (size_t k = 0; r == 0 && k < j->nprojects; k++)
		r = anchors_sudo_allowed(cfg->projects[j->projects[k]].target_sudo_allowed, v, n);
	return r;
}

static void run_job(const struct ruas_config *cfg, const struct runner *runner,
		    struct job *j)
{
	struct account acct;
	int lr = account_lookup(j->user, &acct);
	if (lr == ACCOUNT_MISSING) {
		j->outcome = OUT_USER_MISSING;
		return;
	}
	if (lr != ACCOUNT_FOUND) {
		j->outcome = OUT_INTERNAL;
		j->internal = "the user database could not be read";
		return;
	}
	j->shell = strdup(acct.shell);
	j->groups_failed = account_group_risks(&acct, &j->groups) < 0;
	int nologin = shell_refuses_login(acct.shell);
	int noshell = access(acct.shell, X_OK) < 0;
	account_clear(&acct);
	if (!j->shell) {
		j->outcome = OUT_INTERNAL;
		j->internal = "out of memory";
		return;
	}
	if (nologin) {
		j->outcome = OUT_NOLOGIN;
		return;
	}
	if (noshell) {
		j->outcome = OUT_SHELL_MISSING;
		return;
	}

	char nonce[64];
	if (make_nonce(nonce, sizeof nonce) < 0) {
		j->outcome = OUT_INTERNAL;
		j->internal = "no random bytes for the report nonce";
		return;
	}
	struct payload p = {0};
	p.kind = PAYLOAD_CHECK;
	p.nonce = nonce;
	p.sudo_path = cfg->sudo;
	p.scan_cap = SCAN_REPORT_CAP;
	p.scan_seconds = cfg->scan_time_limit;
	p.dirs = j->dirs;
	p.ndirs = j->ndirs;
	p.check_flags = j->check_flags;
	p.probes = j->probes;
	p.nprobes = j->nprobes;

	struct sudo_call call;
	struct session_call sc;
	/* Root reads the rules first: their secure_path is an anchor too. */
	if (runner->root && j->want_rules)
		list_as_root(cfg->sudo, runner, j);
	int r = anchors_known(cfg, &p.anchors, &p.nanchors) < 0 ||
			allowed_programs(cfg, j, &p.anchors, &p.nanchors) < 0 ||
			root_secure_path(j, &p.anchors, &p.nanchors) < 0
		? RUAS_ERR_NOMEM
		: j->pam ? session_argv_build(&sc, cfg, j->first, &p, SESSION_CHECK)
			 : sudo_call_build_via(&call, cfg->sudo, j->via, j->user, cfg->helper, &p);
	for (size_t i = 0; i < p.nanchors; i++)
		free(p.anchors[i]);
	free(p.anchors);
	if (r < 0) {
		j->outcome = OUT_INTERNAL;
		j->internal = r == RUAS_ERR_TOOLONG
				      ? "the work_dirs of this user are too long to pass "
					"to the helper in one argument"
				      : "out of memory";
		return;
	}
	/* The probes, then each work_dir's scan, plus a margin; at most two days. */
	unsigned long long t = 60ull + (unsigned long long)cfg->scan_time_limit * j->ndirs;
	j->timeout_s = t > MAX_CHECK_SECONDS ? MAX_CHECK_SECONDS : (unsigned int)t;
	struct run_request req = {j->pam ? cfg->session_helper : cfg->sudo,
				  j->pam ? sc.argv : call.argv, sudo_call_envp,
				  SUDO_OUTPUT_MAX, j->timeout_s * 1000u, 0};
	r = runner->run(runner->ctx, &req, &j->rr);
	j->pam ? session_argv_free(&sc) : sudo_call_free(&call);
	if (r < 0) {
		j->outcome = OUT_INTERNAL;
		j->internal = "running sudo failed (pipes, memory or wait)";
		return;
	}
	if (j->pam && pam_verdict(j) != OUT_OK)
		return;
	if (helper_report_parse(j->rr.out.data ? j->rr.out.data : "", j->rr.out.len,
				nonce, j->ndirs, &j->hr) == 0) {
		j->outcome = OUT_OK;
		session_groups(j);
		return;
	}
	j->outcome = j->hr.complete ? OUT_INTERNAL
		     : j->pam	    ? OUT_SESSION_FAILED
				    : classify_failure(j);
	if (j->outcome == OUT_INTERNAL)
		j->internal = "the ruas helper sent a malformed report (are the "
			      "library and ruas-exec from the same version?)";
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
		run_job(pl->cfg, pl->runner, &pl->jobs[i]);
	}
}

/* Runs every job on up to max_parallel threads; -1 on OOM. */
static int run_pool(const struct ruas_config *cfg, const struct runner *runner,
		    struct job *jobs, size_t njobs, unsigned int max_parallel)
{
	struct pool pl = {cfg, runner, jobs, njobs, 0, PTHREAD_MUTEX_INITIALIZER};
	size_t nthreads = max_parallel ? max_parallel : DEFAULT_MAX_PARALLEL;
	if (nthreads > njobs)
		nthreads = njobs;
	pthread_t *tids = calloc(nthreads + 1, sizeof *tids);
	if (!tids)
		return -1;
	size_t started = 0;
	for (; started < nthreads; started++)
		if (pthread_create(&tids[started], NULL, worker, &pl) != 0)
			break;
	if (started == 0 && njobs > 0)
		worker(&pl); /* no thread could start: do the work here */
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return 0;
}

static int same_strv(char **a, char **b)
{
	for (; *a && *b; a++, b++)
		if (strcmp(*a, *b) != 0)
			return 0;
	return !*a && !*b;
}

/* Groups projects by run_as_user, first appearance first; one dir per distinct work_dir. */
static int plan_jobs(const struct ruas_config *cfg, struct job **out, size_t *njobs)
{
	struct job *jobs = calloc(cfg->nprojects + 1, sizeof *jobs);
	size_t n = 0;
	if (!jobs)
		return -1;
	for (size_t i = 0; i < cfg->nprojects; i++) {
		const struct ruas_project *p = &cfg->projects[i];
		if (!p->run_as_user)
			continue;
		int pam = project_backend(p) == BACKEND_PAM;
		struct job *j = NULL;
		for (size_t k = 0; k < n && !j; k++)
			if (strcmp(jobs[k].user, p->run_as_user) == 0 && jobs[k].pam == pam &&
			    (!pam || strcmp(jobs[k].first->pam_service, p->pam_service) == 0))
				j = &jobs[k];
		if (!j) {
			j = &jobs[n++];
			j->user = p->run_as_user;
			j->want_rules = 1;
			j->first = p;
			j->pam = pam;
			j->projects = calloc(cfg->nprojects, sizeof *j->projects);
			j->dir_of = calloc(cfg->nprojects, sizeof *j->dir_of);
			j->dirs = calloc(cfg->nprojects, sizeof *j->dirs);
			j->owned = calloc(cfg->nprojects + 1, sizeof *j->owned);
			if (!j->projects || !j->dir_of || !j->dirs || !j->owned) {
				*out = jobs;
				*njobs = n;
				return -1;
			}
		}
		char *scope = p->person ? people_scope(cfg->people, p->person) : NULL;
		if (p->person && !scope) {
			*out = jobs;
			*njobs = n;
			return -1;
		}
		if (p->person && cfg->people->enforce_bwrap)
			j->check_flags |= CHECK_BWRAP;
		size_t d = 0;
		while (d < j->ndirs && !(strcmp(j->dirs[d].work_dir, p->work_dir) == 0 &&
					 same_strv(j->dirs[d].prune, p->scan_prune) &&
					 strcmp(j->dirs[d].scope, scope ? scope : "") == 0))
			d++;
		if (d == j->ndirs) {
			j->dirs[d].work_dir = p->work_dir; /* borrowed */
			j->dirs[d].prune = p->scan_prune;
			j->dirs[d].nprune = p->nprune;
			j->dirs[d].scope = scope ? scope : (char *)"";
			if (scope)
				j->owned[j->nowned++] = scope;
			j->ndirs++;
		} else {
			free(scope);
		}
		j->dir_of[j->nprojects] = d;
		j->projects[j->nprojects++] = i;
	}
	*out = jobs;
	*njobs = n;
	return 0;
}

static void free_jobs(struct job *jobs, size_t n)
{
	for (size_t i = 0; jobs && i < n; i++) {
		free(jobs[i].projects);
		free(jobs[i].dir_of);
		free(jobs[i].dirs);
		for (size_t k = 0; k < jobs[i].nowned; k++)
			free(jobs[i].owned[k]);
		free(jobs[i].owned);
		free(jobs[i].shell);
		group_hits_clear(&jobs[i].groups);
		free(jobs[i].pam_reason);
		free(jobs[i].root_list);
		free(jobs[i].root_sudo_v);
		run_result_free(&jobs[i].rr);
		helper_report_free(&jobs[i].hr);
	}
	free(jobs);
}

static char *pam_failure_text(const struct ruas_config *cfg, const struct job *j,
			      const char *project)
{
	const char *err = j->rr.err.data ? j->rr.err.data : "";
	struct buf what = BUF_INIT, fix = BUF_INIT;
	char *text;
	switch (j->outcome) {
	case OUT_PAM_ACCOUNT:
		return msg_pam_account(project, j->user, j->first->pam_service,
				       j->pam_reason ? j->pam_reason : "refused");
	case OUT_USER_MISSING:
		buf_printf(&what, "user \"%s\" does not exist", j->user);
		buf_printf(&fix, "Create it, for example with: ruas-setup useradd --target %s | sh",
			   j->user);
		break;
	case OUT_NOLOGIN:
	case OUT_SHELL_MISSING:
		buf_adds(&what, "its login shell ");
		quote_display_dq(&what, j->shell ? j->shell : "?");
		buf_adds(&what, j->outcome == OUT_NOLOGIN ? " refuses logins"
							  : " does not exist or is not executable");
		buf_printf(&fix, "Give it a real login shell, for example: usermod -s /bin/bash %s",
			   j->user);
		break;
	case OUT_SESSION_FAILED:
	case OUT_HELPER_FAILED:
		return msg_pam_failed(project, j->user, cfg->session_helper,
				      exit_status_code(j->rr.wait_status), j->rr.spawn_errno != 0, err);
	default:
		return msg_internal(project, j->user,
				    j->internal ? j->internal : "unknown failure");
	}
	text = (what.oom || fix.oom) ? NULL
				     : msg_pam_unusable(project, j->user, what.data, fix.data);
	buf_free(&what);
	buf_free(&fix);
	return text;
}

static char *failure_text(const struct ruas_config *cfg, const struct job *j,
			  const char *project)
{
	const char *err = j->rr.err.data ? j->rr.err.data : "";
	int code = exit_status_code(j->rr.wait_status);
	if (j->pam)
		return pam_failure_text(cfg, j, project);
	switch (j->outcome) {
	case OUT_USER_MISSING:
		return msg_user_missing(project, j->user, cfg->supervisor_name);
	case OUT_NOLOGIN:
		return msg_nologin(project, j->user, j->shell ? j->shell : "?");
	case OUT_SHELL_MISSING:
		return msg_shell_missing(project, j->user, j->shell);
	case OUT_SUDO_MISSING:
		return msg_sudo_missing(project, j->user, cfg->sudo, cfg->path);
	case OUT_NOT_CONFIGURED:
		return msg_sudo_not_configured(project, j->user, cfg->supervisor_name, err);
	case OUT_HELPER_FAILED:
		return msg_helper_failed(project, j->user, cfg->helper, code, err);
	case OUT_SUDO_FAILED:
		return msg_sudo_failed(project, j->user, code, j->rr.timed_out,
				       j->timeout_s, err);
	default:
		return msg_internal(project, j->user, j->internal ? j->internal : "unknown failure");
	}
}

static int report_escalation(const struct job *j, size_t idx, ruas_report *rep,
			     char *const *allowed)
{
	const struct helper_report *hr = &j->hr;
	struct esc_evidence ev = {hr->true_rc,     hr->tty_true_rc, hr->list_rc,
				  hr->tty_list_rc, hr->list_out,    hr->tty_list_out,
				  j->root_ran,     j->root_rc,      j->root_list,
				  hr->list_cut,    hr->tty_list_cut, j->root_cut};
	return escalation_report(rep, idx, j->user, &ev, allowed);
}

static int report_job(const struct ruas_config *cfg, const struct job *j,
		      ruas_report *rep)
{
	int r = 0;
	for (size_t k = 0; k < j->nprojects; k++) {
		size_t pi = j->projects[k];
		const struct ruas_project *p = &cfg->projects[pi];
		if (j->outcome != OUT_OK) {
			r |= report_add(rep, pi, RUAS_SEVERITY_FATAL,
					j->outcome == OUT_PAM_ACCOUNT ? "account"
					: j->pam		       ? "pam"
								       : "sudo",
					failure_text(cfg, j, p->name));
		} else {
			const struct helper_report *hr = &j->hr;
			r |= report_escalation(j, pi, rep, p->target_sudo_allowed);
			const struct dir_result *d = &hr->dirs[j->dir_of[k]];
			if (d->state == DIR_ESCAPE)
				r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "containment",
						msg_escape(p->name, p->work_dir, p->person,
							   d->path ? d->path : "?"));
			else if (d->state == DIR_DENIED)
				r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir",
						msg_work_dir_denied(p->name, p->work_dir,
								    j->user, d));
			else if (d->state == DIR_MISSING)
				r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir",
						msg_work_dir_missing(p->name, p->work_dir,
								     j->user, d, cfg->path));
			else if (d->state != DIR_OK)
				r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir",
						msg_internal(p->name, j->user,
							     "the helper did not report on work_dir"));
			if (d->state == DIR_OK && d->total > 0)
				r |= report_add(rep, pi, RUAS_SEVERITY_WARNING, "scan",
						msg_scan(p->name, p->work_dir, j->user,
							 d->items, d->nitems, d->total));
			if (d->state == DIR_OK && d->incomplete)
				r |= report_add(rep, pi, RUAS_SEVERITY_WARNING, "scan",
						msg_scan_incomplete(p->name, p->work_dir,
								    d->entries,
								    cfg->scan_time_limit,
								    cfg->path));
		}
		r |= report_anchors(rep, pi, j->user, cfg->supervisor_name,
				    j->outcome == OUT_OK ? &j->hr : NULL);
		if (j->outcome == OUT_OK && p->person && cfg->people->enforce_bwrap &&
		    (!j->hr.bwrap_seen || j->hr.bwrap_rc != 0))
			r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "bwrap",
					msg_bwrap(p->name, j->user,
						  j->hr.bwrap_out ? j->hr.bwrap_out : ""));
		r |= report_groups(rep, pi, p->name, j->user, &j->groups, j->groups_failed);
	}
	return r;
}

/* People who share one OS user are kept apart by deny rules alone. */
static int report_shared_users(const struct ruas_config *cfg, ruas_report *rep)
{
	const struct ruas_people *pp = cfg->people;
	int r = 0;
	for (size_t i = 0; pp && i < cfg->nprojects; i++) {
		const struct ruas_project *p = &cfg->projects[i];
		if (!p->person)
			continue;
		struct buf others = BUF_INIT;
		for (size_t k = 0; k < pp->nmembers; k++)
			if (strcmp(pp->members[k].id, p->person) != 0 &&
			    strcmp(pp->members[k].run_as_user, p->run_as_user) == 0)
				buf_printf(&others, "%s\"%s\"", others.len ? ", " : "",
					   pp->members[k].id);
		if (others.len)
			r |= report_add(rep, i, RUAS_SEVERITY_WARNING, "people",
					msg_shared_user(p->name, p->person, p->run_as_user,
							others.data, pp->enforce_bwrap));
		buf_free(&others);
	}
	return r;
}

int preflight_run(ruas_report **out, const ruas_config *cfg,
		  unsigned int max_parallel, const struct runner *runner,
		  ruas_error **err)
{
	struct job *jobs = NULL;
	size_t njobs = 0;
	ruas_report *rep = NULL;
	const char **names = calloc(cfg->nprojects + 1, sizeof *names);
	int rc = RUAS_ERR_NOMEM;

	*out = NULL;
	if (!names || plan_jobs(cfg, &jobs, &njobs) < 0)
		goto done;
	for (size_t i = 0; i < cfg->nprojects; i++)
		names[i] = cfg->projects[i].name;
	if (!(rep = report_new(names, cfg->nprojects)))
		goto done;

	if (run_pool(cfg, runner, jobs, njobs, max_parallel) < 0)
		goto done;
	rc = 0;
	for (size_t i = 0; i < njobs; i++)
		if (report_job(cfg, &jobs[i], rep) < 0)
			rc = RUAS_ERR_NOMEM;
	if (report_shared_users(cfg, rep) < 0)
		rc = RUAS_ERR_NOMEM;
done:
	free(names);
	free_jobs(jobs, njobs);
	if (rc < 0) {
		ruas_report_free(rep);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM,
				 "preflight: out of memory");
	}
	*out = rep;
	return 0;
}

int ruas_preflight(ruas_report **out, const ruas_config *cfg,
		   const ruas_preflight_options *opts, ruas_error **err)
{
	struct runner real = {run_capture, NULL, geteuid() == 0};
	if (!out || !cfg)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_preflight: out and cfg are required");
	if (error_options_version(err, "ruas_preflight", opts ? &opts->version : NULL,
				  RUAS_PREFLIGHT_OPTIONS_VERSION, RUAS_PREFLIGHT_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	return preflight_run(out, cfg, opts ? opts->max_parallel : 0, &real, err);
}

/* ------------------------------------------------------------- targets */

/* Findings about a target alone: reachable through sudo, no escalation, groups. */
static int report_target(const struct ruas_config *cfg, const struct job *j,
			 size_t idx, ruas_report *rep)
{
	int r = report_anchors(rep, idx, j->user, cfg->supervisor_name,
			       j->outcome == OUT_OK ? &j->hr : NULL);
	if (j->outcome != OUT_OK)
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "sudo",
				failure_text(cfg, j, NULL));
	else
		r |= report_escalation(j, idx, rep, cfg->target_sudo_allowed);
	r |= report_groups(rep, idx, NULL, j->user, &j->groups, j->groups_failed);
	return r;
}

int targets_run(ruas_report **out, const char *const *targets,
		const ruas_target_options *o, const struct runner *runner,
		ruas_error **err)
{
	struct ruas_config cfg;
	size_t n = 0;
	*out = NULL;
	while (targets[n])
		n++;
	memset(&cfg, 0, sizeof cfg);
	cfg.path = (char *)"the configuration";
	cfg.sudo = (char *)(o->sudo ? o->sudo : RUAS_SUDO_PATH);
	cfg.helper = (char *)(o->helper ? o->helper : RUAS_HELPER_PATH);
	cfg.scan_time_limit = DEFAULT_SCAN_TIME_LIMIT;
	cfg.target_sudo_allowed = (char **)o->sudo_allowed;

	/* Check 1 as the supervisor: through sudo -u SUPERVISOR when not it already. */
	const char *via = NULL;
	struct account me;
	char *me_name = NULL;
	if (account_lookup_uid(geteuid(), &me) == ACCOUNT_FOUND) {
		me_name = me.name;
		me.name = NULL;
		account_clear(&me);
	}
	if (o->supervisor && (!me_name || strcmp(o->supervisor, me_name) != 0)) {
		struct account sup;
		int lr = account_lookup(o->supervisor, &sup);
		if (lr == ACCOUNT_FOUND)
			account_clear(&sup);
		if (lr != ACCOUNT_FOUND || geteuid() != 0) {
			free(me_name);
			return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
					 lr != ACCOUNT_FOUND
						 ? "supervisor \"%s\" does not exist"
						 : "checking as supervisor \"%s\" needs root, or "
						   "running as that user",
					 o->supervisor);
		}
		via = o->supervisor;
	}
	cfg.supervisor_name = (char *)(o->supervisor ? o->supervisor
						      : me_name ? me_name : "root");

	struct job *jobs = calloc(n + 1, sizeof *jobs);
	ruas_report *rep = report_new(targets, n);
	int rc = RUAS_ERR_NOMEM;
	if (!jobs || !rep)
		goto done;
	for (size_t i = 0; i < n; i++) {
		jobs[i].user = targets[i];
		jobs[i].via = via;
		jobs[i].want_rules = 1;
	}
	if (run_pool(&cfg, runner, jobs, n, o->max_parallel) < 0)
		goto done;
	rc = 0;
	for (size_t i = 0; i < n; i++)
		if (report_target(&cfg, &jobs[i], i, rep) < 0)
			rc = RUAS_ERR_NOMEM;
done:
	free_jobs(jobs, n);
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
	struct runner real = {run_capture, NULL, geteuid() == 0};
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
	return targets_run(out, targets, &o, &real, err);
}

/* --------------------------------------------------------------- audit */

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

static int on_list(const struct deny_list *d, size_t upto, const char *path)
{
	for (size_t i = 0; i < upto; i++)
		if (strcmp(d->paths[i], path) == 0)
			return 1;
	return 0;
}

int audit_run(ruas_report **out, const ruas_config *cfg, unsigned int max_parallel,
	      const struct runner *runner, ruas_error **err)
{
	const struct ruas_people *pp = cfg->people;
	*out = NULL;
	if (!pp)
		return error_set(err, RUAS_ERR_CONFIG, cfg->path, 0, 0,
				 "%s has no people block: nothing to audit", cfg->path);
	size_t n = pp->nmembers;
	struct job *jobs = calloc(n + 1, sizeof *jobs);
	struct deny_list *lists = calloc(n + 1, sizeof *lists);
	size_t *ndeny = calloc(n + 1, sizeof *ndeny);
	struct ruas_project *fake = calloc(n + 1, sizeof *fake);
	const char **names = calloc(n + 1, sizeof *names);
	ruas_report *rep = NULL;
	int rc = RUAS_ERR_NOMEM;
	if (!jobs || !lists || !ndeny || !fake || !names)
		goto done;
	for (size_t i = 0; i < n; i++) {
		const struct ruas_person *m = &pp->members[i];
		names[i] = m->id;
		if ((rc = deny_list_compute(cfg, m->id, &lists[i], err)) < 0)
			goto done;
		ndeny[i] = lists[i].n;
		rc = RUAS_ERR_NOMEM;
		if (supervisor_secrets(cfg, &lists[i]) < 0)
			goto done;
		fake[i].run_as_user = m->run_as_user;
		fake[i].pam_service = (char *)DEFAULT_PAM_SERVICE;
		jobs[i].user = m->run_as_user;
		jobs[i].first = &fake[i];
		jobs[i].pam = geteuid() == 0;
		jobs[i].probes = lists[i].paths;
		jobs[i].nprobes = lists[i].n > 256 ? 256 : lists[i].n;
	}
	if (!(rep = report_new(names, n)) || run_pool(cfg, runner, jobs, n, max_parallel) < 0)
		goto done;
	rc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ruas_person *m = &pp->members[i];
		const struct job *j = &jobs[i];
		int r = 0;
		if (j->outcome != OUT_OK) {
			r |= report_add(rep, i, RUAS_SEVERITY_FATAL, "audit", failure_text(cfg, j, m->id));
		} else {
			for (size_t k = 0; k < j->nprobes; k++) {
				if (j->hr.probes[k] != PROBE_READABLE)
					continue;
				/* bwrap masks what is on the deny list for the agent's whole tree. */
				if (pp->enforce_bwrap && on_list(&lists[i], ndeny[i], lists[i].paths[k]))
					continue;
				r |= report_add(rep, i, RUAS_SEVERITY_WARNING, "audit",
						msg_audit_readable(m->id, m->run_as_user, lists[i].paths[k],
								   k >= ndeny[i]));
			}
		}
		for (size_t k = 0; k < n; k++)
			if (k != i && strcmp(pp->members[k].run_as_user, m->run_as_user) == 0)
				r |= report_add(rep, i, RUAS_SEVERITY_WARNING, "people",
						msg_audit_shared(m->id, pp->members[k].id, m->run_as_user,
								 pp->enforce_bwrap));
		if (r < 0)
			rc = RUAS_ERR_NOMEM;
	}
done:
	for (size_t i = 0; jobs && i < n; i++) {
		jobs[i].probes = NULL;
		deny_list_free(&lists[i]);
	}
	free_jobs(jobs, n);
	free(lists);
	free(ndeny);
	free(fake);
	free(names);
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
	struct runner real = {run_capture, NULL, geteuid() == 0};
	if (!out || !cfg)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_audit: out and cfg are required");
	return audit_run(out, cfg, opts ? opts->max_parallel : 0, &real, err);
}
