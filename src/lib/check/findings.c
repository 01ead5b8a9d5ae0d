/* SPDX-License-Identifier: ISC */
/*
 * findings.c - what the engine found, as findings: a failure text when the
 * checks could not run, else the findings of each check, in a fixed order.
 */
#include "check/findings.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check/anchors_report.h"
#include "check/escalation.h"
#include "check/lifetime.h"
#include "check/limits_check.h"
#include "check/messages.h"
#include "check/pam_stack.h"
#include "check/polkit.h"
#include "check/doas_conf.h"
#include "check/password.h"
#include "check/report.h"
#include "exit_status.h"
#include "helper_file.h"
#include "people/deny.h"
#include "quote.h"
#include "trusted_tree.h"
#include "helper_report.h"

static struct words pam_failure_text(const struct check_run *run, const struct job *j,
				     const char *project)
{
	const char *user = j->spec->user;
	const char *err = j->rr.err.data ? j->rr.err.data : "";
	struct buf what = BUF_INIT, fix = BUF_INIT;
	struct words w = {NULL, NULL};
	switch (j->outcome) {
	case OUT_PAM_ACCOUNT:
		return msg_pam_account(project, user, j->spec->pam_service,
				       j->pam_reason ? j->pam_reason : "refused");
	case OUT_PAM_SERVICE:
		return msg_pam_service(project, user, j->spec->pam_service, j->pam_reason);
	case OUT_USER_MISSING:
		buf_printf(&what, "user \"%s\" does not exist", user);
		buf_printf(&fix, "Create it, for example with: ruas-setup useradd --target %s | sh",
			   user);
		break;
	case OUT_NOLOGIN:
	case OUT_SHELL_MISSING:
		buf_adds(&what, "its login shell ");
		quote_display_dq(&what, j->acct.shell ? j->acct.shell : "?");
		buf_adds(&what, j->outcome == OUT_NOLOGIN ? " refuses logins"
							  : " does not exist or is not executable");
		buf_printf(&fix, "Give it a real login shell, for example: usermod -s /bin/bash %s",
			   user);
		break;
	case OUT_SESSION_FAILED:
	case OUT_HELPER_FAILED:
		return msg_pam_failed(project, user, run->session_helper,
				      exit_status_code(j->rr.wait_status), j->rr.spawn_errno != 0, err);
	default:
		return msg_internal_errno(project, user, j->internal ? j->internal : "unknown failure",
					  j->internal_errno);
	}
	if (!what.oom && !fix.oom)
		w = msg_pam_unusable(project, user, what.data, fix.data);
	buf_free(&what);
	buf_free(&fix);
	return w;
}

/* Why the checks of j could not run; project NULL: a target alone. */
static struct words failure_text(const struct check_run *run, const struct job *j, const char *project)
{
	const char *user = j->spec->user;
	const char *err = j->rr.err.data ? j->rr.err.data : "";
	int code = exit_status_code(j->rr.wait_status);
	if (j->spec->pam)
		return pam_failure_text(run, j, project);
	switch (j->outcome) {
	case OUT_USER_MISSING:
		/* Found before sudo was asked: sudo's "unknown user" was a failure to read it. */
		if (j->acct.name)
			return msg_user_unread(project, user, (unsigned long)j->acct.uid, err);
		return msg_user_missing(project, user, run->supervisor_name);
	case OUT_NOLOGIN:
		return msg_nologin(project, user, j->acct.shell ? j->acct.shell : "?");
	case OUT_SHELL_MISSING:
		return msg_shell_missing(project, user, j->acct.shell);
	case OUT_SUDO_MISSING:
		return msg_sudo_missing(project, user, run->sudo, run->config);
	case OUT_NOT_CONFIGURED:
		return msg_sudo_not_configured(project, user, run->supervisor_name, err);
	case OUT_HELPER_FAILED:
		return msg_helper_failed(project, user, run->helper, code, err);
	case OUT_SUDO_FAILED:
		return msg_sudo_failed(project, user, code, j->rr.timed_out, j->timeout_s, err);
	default:
		return msg_internal_errno(project, user, j->internal ? j->internal : "unknown failure",
					  j->internal_errno);
	}
}

/*
 * The file a failure is about, where there is one: the login shell, sudo,
 * the helpers, the PAM service's file (written into b). NULL: none.
 */
static const char *failure_path(const struct check_run *run, const struct job *j,
				struct buf *b)
{
	switch (j->outcome) {
	case OUT_NOLOGIN:
	case OUT_SHELL_MISSING:
		return j->acct.shell;
	case OUT_SUDO_MISSING:
		return j->spec->pam ? NULL : run->sudo;
	case OUT_HELPER_FAILED:
	case OUT_SESSION_FAILED:
		return j->spec->pam ? run->session_helper : run->helper;
	case OUT_PAM_ACCOUNT:
	case OUT_PAM_SERVICE:
		if (!j->spec->pam_service)
			return NULL;
		buf_adds(b, run->pam_dir ? run->pam_dir : "/etc/pam.d");
		buf_addc(b, '/');
		buf_adds(b, j->spec->pam_service);
		return b->oom ? NULL : b->data;
	default:
		return NULL;
	}
}

/* The failure of j as project's fatal finding (check: its id). -1 on OOM. */
static int report_failure(ruas_report *rep, size_t idx, const char *check,
			  const struct check_run *run, const struct job *j, const char *project)
{
	struct buf b = BUF_INIT;
	const char *path = failure_path(run, j, &b);
	int r = b.oom ? -1 : 0;
	r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, check, j->spec->user, path,
			failure_text(run, j, project));
	buf_free(&b);
	return r;
}

static int report_escalation(const struct job *j, size_t idx, ruas_report *rep,
			     char *const *allowed)
{
	const struct helper_report *hr = &j->hr;
	struct esc_evidence ev = {hr->true_rc,     hr->tty_true_rc, hr->list_rc,
				  hr->tty_list_rc, hr->list_out,    hr->tty_list_out,
				  j->root_ran,     j->root_rc,      j->root_list,
				  hr->list_cut,    hr->tty_list_cut, j->root_cut};
	return escalation_report(rep, idx, j->spec->user, &ev, allowed);
}

/*
 * A work_dir in (or above) a tree that root trusts, as written with its
 * ".." taken lexically (what sudo and the shell would reach), or as it
 * resolves through symlinks: fatal, whatever the target may do there.
 */
static int report_trusted_tree(const struct ruas_project *p, size_t pi, ruas_report *rep)
{
	char norm[4096], *real = realpath(p->work_dir, NULL);
	const char *how = NULL, *tree = NULL, *shown = NULL;
	if (path_normalize(p->work_dir, norm, sizeof norm) == 0 &&
	    (tree = trusted_tree_conflict(norm, 0, &how)) != NULL)
		shown = norm;
	else if (real && (tree = trusted_tree_conflict(real, 0, &how)) != NULL)
		shown = real;
	int r = tree ? report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir", p->run_as_user,
				  p->work_dir, msg_work_dir_trusted(p->name, p->work_dir, shown, how, tree))
		     : 0;
	free(real);
	return r;
}

/* Check 2, then check 3 and the scan of the project's work_dir. */
/* An empty password of the target's (passwd -S, as the helper ran it): fatal; unjudged: a warning. */
static int report_password(ruas_report *rep, size_t idx, const char *project, const char *user,
			   const struct helper_report *hr)
{
	switch (password_verdict(hr, user)) {
	case PASSWORD_EMPTY:
		return report_add(rep, idx, RUAS_SEVERITY_FATAL, "password", user, NULL,
				  msg_password_empty(project, user));
	case PASSWORD_UNJUDGED:
		return report_add(rep, idx, RUAS_SEVERITY_WARNING, "password", user, NULL,
				  msg_password_unjudged(project, user, hr->passwd_rc,
							hr->passwd_out));
	default:
		return 0;
	}
}

/*
 * The user as PAM's, polkit's and doas's judges see it (pam_stack.h): 1
 * with *a and *u (free with pam_user_clear), 0 when it has no passwd entry
 * (its own finding says so). Groups that cannot be read are none.
 */
static int pam_user_of(const char *user, struct account *a, struct pam_user *u)
{
	gid_t *gids = NULL;
	int ngids = 0;
	if (account_lookup(user, a) != ACCOUNT_FOUND)
		return 0;
	if (account_gids(a, &gids, &ngids) < 0)
		ngids = 0;
	*u = (struct pam_user){a->name, a->uid, a->gid, gids, (size_t)ngids};
	return 1;
}

static void pam_user_clear(struct account *a, struct pam_user *u)
{
	free((void *)u->gids);
	account_clear(a);
}

/*
 * The PAM stacks (su, sudo, doas, pkexec's) and polkit's rules that let
 * user u in without a password, judged once per user (dir: where PAM reads
 * services), added to *ways (empty to begin with; free it). 0, or -1 on OOM.
 */
static int pam_ways_for(const struct pam_user *u, const char *dir, struct pam_ways *ways)
{
	int r = pam_ways_up(dir, u, ways);
	return r == 0 ? polkit_ways_up(NULL, u, ways) : r;
}

/*
 * The same, the user looked up by name: none when it has no passwd entry
 * (its own finding says so).
 */
static int pam_ways_of(const char *user, const char *dir, struct pam_ways *ways)
{
	struct pam_user u;
	struct account a;
	ways->v = NULL;
	ways->n = 0;
	if (!pam_user_of(user, &a, &u))
		return 0;
	int r = pam_ways_for(&u, dir, ways);
	pam_user_clear(&a, &u);
	return r;
}

/* Each of them: fatal, naming its line. */
static int report_pam_ways(ruas_report *rep, size_t idx, const char *project, const char *user,
			   const struct pam_ways *ways)
{
	int r = 0;
	for (size_t i = 0; i < ways->n; i++) {
		const struct pam_way *w = &ways->v[i];
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, w->file,
				strcmp(w->service, "polkit") == 0
					? msg_polkit_way(project, user, w->file, w->line, w->text, w->why)
					: msg_pam_way(project, user, w->service, w->file, w->line,
						      w->text, w->why));
	}
	return r;
}

/* doas.conf's rules that let user up (root: `doas -n true` worked). 0 with *ways, or -1 on OOM. */
static int doas_ways_of(const char *user, int root, struct pam_ways *ways)
{
	struct pam_user u;
	struct account a;
	ways->v = NULL;
	ways->n = 0;
	if (!pam_user_of(user, &a, &u))
		return 0;
	int r = doas_ways_up(NULL, &u, root, ways);
	pam_user_clear(&a, &u);
	return r;
}

/*
 * doas, where it is installed: `doas -n true` that succeeded as the target
 * is root for it; a nopass rule of doas.conf (when the supervisor can read
 * it) to another user, or for one command, is a way up too. known: the
 * job's, judged after its call (NULL: judged now).
 */
static int report_doas(ruas_report *rep, size_t idx, const char *project, const char *user,
		       const struct helper_report *hr, const struct pam_ways *known)
{
	int root = hr->doas_seen && hr->doas_rc == 0;
	int r = root ? report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user,
				  "/etc/doas.conf", msg_doas_root(project, user))
		     : 0;
	struct pam_ways mine = {NULL, 0};
	const struct pam_ways *ways = known;
	if (!ways) {
		r |= doas_ways_of(user, root, &mine);
		ways = &mine;
	}
	for (size_t i = 0; i < ways->n; i++)
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, ways->v[i].file,
				msg_doas_rule(project, user, ways->v[i].file, ways->v[i].line,
					      ways->v[i].text, ways->v[i].why));
	pam_ways_free(&mine);
	return r;
}

static int report_checks(const struct ruas_config *cfg, const struct job *j, size_t pi,
			 size_t dir, const struct pam_ways *ways, ruas_report *rep)
{
	const struct ruas_project *p = cfg->projects[pi];
	const char *user = j->spec->user;
	const struct dir_result *d = &j->hr.dirs[dir];
	const char *wd = p->work_dir;
	int r = report_escalation(j, pi, rep, p->target_sudo_allowed);
	r |= report_password(rep, pi, p->name, user, &j->hr) |
	     report_doas(rep, pi, p->name, user, &j->hr, j->doas_ready > 0 ? &j->doas_ways : NULL) |
	     report_pam_ways(rep, pi, p->name, user, ways);
	r |= report_trusted_tree(p, pi, rep);
	if (d->state == DIR_ESCAPE)
		r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "containment", user, wd,
				msg_escape(p->name, p->work_dir, p->person, d->path ? d->path : "?"));
	else if (d->state == DIR_DENIED)
		r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir", user, wd,
				msg_work_dir_denied(p->name, p->work_dir, user, d));
	else if (d->state == DIR_MISSING)
		r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir", user, wd,
				msg_work_dir_missing(p->name, p->work_dir, user, d, cfg->path));
	else if (d->state != DIR_OK)
		r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "work_dir", user, wd,
				msg_internal(p->name, user, "the helper did not report on work_dir"));
	if (d->state == DIR_OK && d->total > 0)
		r |= report_add(rep, pi, RUAS_SEVERITY_WARNING, "scan", user, wd,
				msg_scan(p->name, p->work_dir, user, d->items, d->nitems,
					 d->total));
	if (d->state == DIR_OK && d->incomplete)
		r |= report_add(rep, pi, RUAS_SEVERITY_WARNING, "scan", user, wd,
				msg_scan_incomplete(p->name, p->work_dir, d->entries,
						    cfg->scan_time_limit, cfg->path));
	return r;
}

/*
 * Who owns the agent's tree: the subreaper (as configured, or as auto picks
 * for target_sudo_allowed on the sudo backend) leaves a residual risk; a
 * PID namespace that cannot be made is fatal when required and a fallback
 * otherwise (pam: root's, as ruas-session said; sudo: the target's, as the
 * helper's probe said).
 */
static int report_lifetime_mode(const struct job *j, size_t pi, const struct ruas_project *p,
			   ruas_report *rep)
{
	const char *user = j->spec->user;
	int pam = j->spec->pam;
	if (p->lifetime == LIFETIME_CFG_SUBREAPER)
		return report_add(rep, pi, RUAS_SEVERITY_WARNING, "lifetime", user, NULL,
				  msg_lifetime_subreaper(p->name, user));
	if (project_lifetime(p) == LIFETIME_CFG_SUBREAPER)
		return report_add(rep, pi, RUAS_SEVERITY_WARNING, "lifetime", user, NULL,
				  msg_lifetime_sudo_allowed(p->name, user));
	int required = p->lifetime == LIFETIME_CFG_PIDNS;
	int r = 0;
	int ok = pam ? j->pidns == SESSION_ACCT_OK : j->hr.lifetime_seen && !j->hr.lifetime_errno;
	const char *why = pam ? j->pidns_why : j->hr.lifetime_why;
	if (!ok)
		r |= report_add(rep, pi, required ? RUAS_SEVERITY_FATAL : RUAS_SEVERITY_WARNING,
				"lifetime", user, NULL,
				msg_lifetime_unavailable(p->name, user, pam, required,
							 why ? why : "the helper did not say"));
	if (required && !pam && p->nsudo_allowed > 0)
		r |= report_add(rep, pi, RUAS_SEVERITY_WARNING, "lifetime", user, NULL,
				msg_lifetime_no_sudo(p->name));
	return r;
}

int report_job(const struct ruas_config *cfg, const struct check_run *run, const struct job *j,
	       const struct job_projects *jp, ruas_report *rep)
{
	const char *user = j->spec->user;
	struct pam_ways mine = {NULL, 0};
	const struct pam_ways *ways = &mine;
	int r = 0;
	/* The host's PAM stacks are the same for every project of this user. */
	if (j->ways_ready) /* judged after its call (findings_after_job) */
		ways = &j->ways;
	if (j->ways_ready < 0)
		r = -1;
	else if (!j->ways_ready && j->outcome == OUT_OK)
		r = pam_ways_of(user, cfg->pam_dir, &mine);
	for (size_t k = 0; k < jp->n; k++) {
		size_t pi = jp->index[k];
		const struct ruas_project *p = cfg->projects[pi];
		if (j->outcome != OUT_OK)
			r |= report_failure(rep, pi,
					    j->outcome == OUT_PAM_ACCOUNT ? "account"
					    : j->spec->pam		   ? "pam"
									   : "sudo",
					    run, j, p->name);
		else
			r |= report_checks(cfg, j, pi, jp->dir_of[k], ways, rep) |
			     report_lifetime_mode(j, pi, p, rep) |
			     report_limits(rep, pi, p, user, &j->hr, j->spec->pam);
		r |= report_anchors(rep, pi, user, cfg->supervisor_name,
				    j->outcome == OUT_OK ? &j->hr : NULL);
		/* The supervisor's side: whatever the target's call said. */
		r |= report_cgroup_limits(rep, pi, cfg, p);
		if (j->outcome == OUT_OK && p->person && cfg->people->enforce_bwrap &&
		    (!j->hr.bwrap_seen || j->hr.bwrap_rc != 0))
			r |= report_add(rep, pi, RUAS_SEVERITY_FATAL, "bwrap", user, NULL,
					msg_bwrap(p->name, user,
						  j->hr.bwrap_out ? j->hr.bwrap_out : ""));
		r |= report_groups(rep, pi, p->name, user, &j->groups, j->groups_failed);
	}
	pam_ways_free(&mine);
	return r;
}

void findings_after_job(const struct check_run *run, const struct runner *runner,
			struct job *j)
{
	struct account a;
	struct pam_user u;
	if (j->outcome != OUT_OK)
		return;
	/* Looked up once for all three. No such user: the sudo (or pam) finding says so. */
	j->ways_ready = j->doas_ready = 1;
	if (!pam_user_of(j->spec->user, &a, &u))
		return;
	if (pam_ways_for(&u, run->pam_dir, &j->ways) < 0)
		j->ways_ready = -1;
	if (doas_ways_up(NULL, &u, j->hr.doas_seen && j->hr.doas_rc == 0, &j->doas_ways) < 0)
		j->doas_ready = -1;
	lifetime_probe(runner->fs_root, j->spec->user, a.uid, &j->lt);
	j->lt_ready = 1;
	pam_user_clear(&a, &u);
}

int report_job_lifetime(const char *fs_root, const struct job *j, const struct job_projects *jp,
			ruas_report *rep)
{
	struct account acct;
	struct outlives lt;
	if (j->lt_ready)
		return report_lifetime(jp, j->spec->user, &j->lt, rep);
	/* No such user: the sudo (or pam) finding says so. */
	if (account_lookup(j->spec->user, &acct) != ACCOUNT_FOUND)
		return 0;
	lifetime_probe(fs_root, j->spec->user, acct.uid, &lt);
	account_clear(&acct);
	return report_lifetime(jp, j->spec->user, &lt, rep);
}

/* The same text on every project of the user: ruas check prints it once. */
int report_lifetime(const struct job_projects *jp, const char *user, const struct outlives *lt,
		    ruas_report *rep)
{
	int r = 0;
	for (size_t k = 0; lifetime_any(lt) && k < jp->n; k++)
		r |= report_add(rep, jp->index[k], RUAS_SEVERITY_WARNING, "lifetime", user, NULL,
				msg_lifetime(user, lt));
	return r;
}

int report_root_password(const struct ruas_config *cfg, ruas_report *rep)
{
	int r = 0;
	if (!root_password_empty())
		return 0;
	for (size_t i = 0; i < cfg->nprojects; i++)
		if (cfg->projects[i]->run_as_user)
			r |= report_add(rep, i, RUAS_SEVERITY_FATAL, "password", "root", NULL,
					msg_root_password_empty(cfg->projects[i]->name));
	return r;
}

/* People who share one OS user are kept apart by deny rules alone. */
int report_helper_readable(const struct ruas_config *cfg, const char *helper, ruas_report *rep)
{
	unsigned int mode;
	int r = 0;
	if (!helper_readable(helper, &mode))
		return 0;
	for (size_t i = 0; i < cfg->nprojects; i++) {
		const struct ruas_project *p = cfg->projects[i];
		if (p->run_as_user)
			r |= report_add(rep, i, RUAS_SEVERITY_FATAL, "anchors", p->run_as_user, helper,
					msg_helper_readable(p->name, p->run_as_user, helper, mode));
	}
	return r;
}

int report_shared_users(const struct ruas_config *cfg, ruas_report *rep)
{
	const struct ruas_people *pp = cfg->people;
	int r = 0;
	for (size_t i = 0; pp && i < cfg->nprojects; i++) {
		const struct ruas_project *p = cfg->projects[i];
		if (!p->person)
			continue;
		struct buf others = BUF_INIT;
		for (size_t k = 0; k < pp->nmembers; k++)
			if (strcmp(pp->members[k].id, p->person) != 0 &&
			    strcmp(pp->members[k].run_as_user, p->run_as_user) == 0)
				buf_printf(&others, "%s\"%s\"", others.len ? ", " : "",
					   pp->members[k].id);
		if (others.len)
			r |= report_add(rep, i, RUAS_SEVERITY_WARNING, "people", p->run_as_user, NULL,
					msg_shared_user(p->name, p->person, p->run_as_user,
							others.data, pp->enforce_bwrap));
		buf_free(&others);
	}
	return r;
}

int report_target(const struct check_run *run, const struct job *j, size_t idx,
		  char *const *allowed, ruas_report *rep)
{
	const char *user = j->spec->user;
	unsigned int mode;
	int r = report_anchors(rep, idx, user, run->supervisor_name,
			       j->outcome == OUT_OK ? &j->hr : NULL);
	if (helper_readable(run->helper, &mode))
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "anchors", user, run->helper,
				msg_helper_readable(NULL, user, run->helper, mode));
	if (j->outcome != OUT_OK)
		r |= report_failure(rep, idx, "sudo", run, j, NULL);
	else {
		struct pam_ways ways;
		r |= pam_ways_of(user, NULL, &ways);
		r |= report_escalation(j, idx, rep, allowed) |
		     report_password(rep, idx, NULL, user, &j->hr) |
		     report_doas(rep, idx, NULL, user, &j->hr, NULL) |
		     report_pam_ways(rep, idx, NULL, user, &ways);
		pam_ways_free(&ways);
	}
	r |= report_groups(rep, idx, NULL, user, &j->groups, j->groups_failed);
	if (root_password_empty())
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "password", "root", NULL,
				msg_root_password_empty(NULL));
	return r;
}

static int on_list(const struct deny_list *d, size_t upto, const char *path)
{
	for (size_t i = 0; i < upto; i++)
		if (strcmp(d->paths[i], path) == 0)
			return 1;
	return 0;
}

int report_person(const struct check_run *run, const struct ruas_people *pp, size_t idx,
		  const struct job *j, const struct deny_list *list, size_t ndeny,
		  ruas_report *rep)
{
	const struct ruas_person *m = &pp->members[idx];
	int r = 0;
	if (j->outcome != OUT_OK) {
		r |= report_failure(rep, idx, "audit", run, j, m->id);
	} else {
		for (size_t k = 0; k < j->spec->nprobes; k++) {
			if (j->hr.probes[k] != PROBE_READABLE)
				continue;
			/* bwrap masks what is on the deny list for the agent's whole tree. */
			if (pp->enforce_bwrap && on_list(list, ndeny, list->paths[k]))
				continue;
			r |= report_add(rep, idx, RUAS_SEVERITY_WARNING, "audit", m->run_as_user,
					list->paths[k], msg_audit_readable(m->id, m->run_as_user, list->paths[k],
							   k >= ndeny));
		}
	}
	for (size_t k = 0; k < pp->nmembers; k++)
		if (k != idx && strcmp(pp->members[k].run_as_user, m->run_as_user) == 0)
			r |= report_add(rep, idx, RUAS_SEVERITY_WARNING, "people", m->run_as_user, NULL,
					msg_audit_shared(m->id, pp->members[k].id, m->run_as_user,
							 pp->enforce_bwrap));
	return r;
}
