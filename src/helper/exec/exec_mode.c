/* SPDX-License-Identifier: ISC */
/* exec_mode.c - see exec_mode.h. */
#include "exec_mode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "buf.h"
#include "complain.h"
#include "exit_status.h"
#include "launch.h"
#include "names.h"
#include "people_exec.h"
#include "proc.h"
#include "quote.h"
#include "started.h"
#include "tell_started.h"
#include "userns.h"
#include "work_dir.h"

static int by_number(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * Every descriptor but 0, 1, 2, the channel, the init's control socket,
 * the credential gate and the user namespace's maker's socket closes: nothing of sudo's or
 * ruas-session's may reach the run.
 */
static void close_strays(int chan, int ctl, int gate)
{
	int keep[4] = {chan, ctl, userns_fd(), gate};
	unsigned int from = 3;
	qsort(keep, 4, sizeof keep[0], by_number);
	for (int i = 0; i < 4; i++) {
		if (keep[i] < 0)
			continue;
		if ((unsigned int)keep[i] > from)
			close_range(from, (unsigned int)keep[i] - 1, 0);
		from = (unsigned int)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

/* One variable for the inner helper to set. 0, or -1 when out of memory. */
static int add_var(struct agent_start *a, const char *name, const char *value)
{
	char **n = realloc(a->env_names, (a->nenv + 1) * sizeof *n);
	if (!n)
		return -1;
	a->env_names = n;
	char **v = realloc(a->env_values, (a->nenv + 1) * sizeof *v);
	if (!v)
		return -1;
	a->env_values = v;
	n[a->nenv] = (char *)name;
	v[a->nenv++] = (char *)value;
	return 0;
}

/* Strings this helper made for the inner helper's variables, freed once the run is over. */
struct owned {
	char **v;
	size_t n;
};

static const char *own(struct owned *o, char *s)
{
	char **v = s ? realloc(o->v, (o->n + 1) * sizeof *v) : NULL;
	if (!v) {
		free(s);
		return NULL;
	}
	o->v = v;
	v[o->n++] = s;
	return s;
}

static void owned_free(struct owned *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i]);
	free(o->v);
}

/*
 * git's credential helper for each of the payload's git hosts, in the
 * variables git reads last (GIT_CONFIG_COUNT, _KEY_n, _VALUE_n), which no
 * allowlist may pass: for each host an empty helper first, which drops
 * every helper the target's own configuration names for it, then
 * git-credential-ruas. The payload's parts are of a shell-safe alphabet
 * (payload_git_host_ok()), since git runs the setting through a shell.
 */
static int git_vars(const struct payload *p, struct agent_start *a, struct owned *o)
{
	size_t k = 0;
	char *s;
	for (size_t i = 0; i < p->ngit_hosts; i++) {
		char proto[8], host[256], name[256], user[256];
		if (sscanf(p->git_hosts[i], "%7s %255s %255s %255s", proto, host, name, user) != 4)
			return -1;
		for (int twice = 0; twice < 2; twice++, k++) {
			const char *key, *val, *kn, *vn;
			if (asprintf(&s, "GIT_CONFIG_KEY_%zu", k) < 0 || !(kn = own(o, s)) ||
			    asprintf(&s, "GIT_CONFIG_VALUE_%zu", k) < 0 || !(vn = own(o, s)) ||
			    asprintf(&s, "credential.%s://%s.helper", proto, host) < 0 ||
			    !(key = own(o, s)))
				return -1;
			if (twice == 0)
				val = "";
			else if (asprintf(&s, "ruas --username=%s %s", user, name) < 0 ||
				 !(val = own(o, s)))
				return -1;
			if (add_var(a, kn, key) < 0 || add_var(a, vn, val) < 0)
				return -1;
		}
	}
	if (k && (asprintf(&s, "%zu", k) < 0 || !own(o, s) || add_var(a, "GIT_CONFIG_COUNT", s) < 0))
		return -1;
	return 0;
}

/*
 * What the inner helper sets over the login environment: the allowlisted
 * values (and RUAS_DENY_LIST, the library's own), RUAS_RUN_ID,
 * RUAS_CREDENTIALS (gate_var, "@" and the gate's name), and a person's
 * private TMPDIR, which the login files get too. Borrowed
 * strings, but tmp's. 0, or -1 after a complaint.
 */
static int agent_vars(const struct payload *p, struct agent_start *a, struct buf *tmp,
		      const char *gate_var, struct owned *owned)
{
	for (size_t i = 0; i < p->nenv; i++) {
		const char *why = strcmp(p->env_names[i], "RUAS_DENY_LIST") == 0
					  ? NULL
					  : env_name_refusal(p->env_names[i]);
		if (why) {
			complain("refusing variable", p->env_names[i], why);
			return -1;
		}
		if (add_var(a, p->env_names[i], p->env_values[i]) < 0)
			goto oom;
	}
	/* The audit's run id, so that the agent's own logs can name its run. */
	if (p->run_id && *p->run_id && add_var(a, "RUAS_RUN_ID", p->run_id) < 0)
		goto oom;
	/* Where ruas-credential asks (docs/credentials.md): a name, never a value. */
	if (p->credentials && *p->credentials && add_var(a, "RUAS_CREDENTIALS", gate_var) < 0)
		goto oom;
	if (git_vars(p, a, owned) < 0)
		goto oom;
	if (!(p->exec_flags & EXEC_PRIVATE_TMP))
		return 0;
	if (private_tmp(p->person, tmp) < 0)
		return -1;
	if (add_var(a, "TMPDIR", tmp->data) < 0 || add_var(a, "CLAUDE_CODE_TMPDIR", tmp->data) < 0)
		goto oom;
	/* The login files' temporary files go there too. */
	if (setenv("TMPDIR", tmp->data, 1) < 0 || setenv("CLAUDE_CODE_TMPDIR", tmp->data, 1) < 0) {
		complain("cannot set TMPDIR", NULL, strerror(errno));
		return -1;
	}
	return 0;
oom:
	complain("out of memory", NULL, NULL);
	return -1;
}

/*
 * How the run ended, from the reaper's status and what START said: the
 * agent's status once its exec was next; before that, a signal that ended
 * the run (the tree's SIGTERM reached the login shell) as that signal, an
 * exec that failed as its 126 or 127, and a login shell that ended on its
 * own as the helper's 125, said on the agent's stderr. Never an exit status
 * of the agent's that it did not have.
 */
static void outcome(const struct reaper_options *ro, const struct launch *l, struct msg_exit *e)
{
	int st = ro->status;
	e->survivors = ro->survivors;
	e->started = l->started;
	if (st == -1) {
		*e = (struct msg_exit){EXIT_HOW_HELPER, EXIT_HELPER, MSG_EXIT_SURVIVORS_UNKNOWN, 0};
	} else if (WIFSIGNALED(st)) {
		e->how = EXIT_HOW_SIGNALED;
		e->value = (unsigned int)WTERMSIG(st);
	} else if (l->started || l->exec_errno) {
		e->how = EXIT_HOW_EXITED;
		e->value = (unsigned int)exit_status_code(st);
	} else {
		e->how = EXIT_HOW_HELPER;
		e->value = EXIT_HELPER;
		if (!ro->ended_early)
			fprintf(stderr,
				"ruas-exec: the login shell ended before the agent started (exit "
				"status %d): a login file of this user (/etc/profile, "
				"~/.bash_profile, ~/.profile, or one they source) exited, failed "
				"or ran something else\n",
				WEXITSTATUS(st));
	}
}

/*
 * The library's STARTED when the agent's exec did not succeed (started.h):
 * the stage and errno of what failed, and its reason, from what START said,
 * how the login shell ended, or the helper's own last complaint (complain.h).
 */
static void tell_not_started(const struct payload *p, const struct reaper_options *ro,
			     const struct launch *l, int chan)
{
	struct buf why = BUF_INIT;
	int stage = STARTED_STAGE_HELPER, e = 0, st = ro->status;
	int lifetime = st == -1 ? (p->lifetime == LIFETIME_PIDNS ? LIFETIME_PIDNS : LIFETIME_SUBREAPER)
				: ro->lifetime_used;
	if (l->no_work_dir || l->work_dir_refused) {
		/*
		 * From the errno and the supervisor's own path, never from the
		 * complaint, which quotes what a symlink of the target's says.
		 */
		stage = STARTED_STAGE_WORK_DIR;
		e = l->no_work_dir ? l->exec_errno : l->work_dir_refused;
		buf_adds(&why, e == EXDEV ? "work_dir " : "cannot enter work_dir ");
		quote_display_dq(&why, p->work_dir);
		if (e == EXDEV)
			buf_adds(&why, " leaves its project's work_dir or its person's scope (a "
				       "symlink, or a path not beneath it)");
		else
			buf_printf(&why, ": %s", strerror(e));
	} else if (l->exec_errno) {
		stage = STARTED_STAGE_EXEC;
		e = l->exec_errno;
		buf_adds(&why, "cannot run ");
		quote_display_dq(&why, p->argv[0]);
		buf_printf(&why, ": %s", strerror(e));
	} else if (st != -1 && ro->ended_early) {
		stage = STARTED_STAGE_LOGIN;
		buf_adds(&why, "the run was ended (a signal, or the supervisor gone) before the "
			       "agent started");
	} else if (st != -1 && WIFSIGNALED(st)) {
		stage = STARTED_STAGE_LOGIN;
		buf_printf(&why, "the login shell was killed by signal %d before the agent started",
			   WTERMSIG(st));
	} else if (st != -1) {
		stage = STARTED_STAGE_LOGIN;
		buf_printf(&why, "the login shell ended before the agent started (exit status %d): "
				 "a login file of user %s (/etc/profile, ~/.bash_profile, ~/.profile, "
				 "or one they source) exited, failed or ran something else",
			   exit_status_code(st), p->user);
	} else {
		/* The helper's own words: about the passwd entry, the payload, its confinement. */
		stage = l->login_refused ? STARTED_STAGE_LOGIN : STARTED_STAGE_HELPER;
		buf_adds(&why, *complain_last() ? complain_last() : "the ruas helper failed");
	}
	(void)tell_started_failed(chan, stage, e, why.oom ? "out of memory" : why.data, lifetime);
	buf_free(&why);
}

int exec_mode(struct payload *p, struct reaper_options *ro, struct msg_exit *e)
{
	struct agent_start a = {.argv = p->argv, .argc = p->argc, .work_dir = p->work_dir,
				.root = p->root, .scope = p->scope};
	struct launch l;
	struct buf tmp = BUF_INIT;
	int rc = EXIT_HELPER;
	memset(&l, 0, sizeof l);
	l.cont = l.news = l.bwrap_args = l.exec_pipe = -1;
	*e = (struct msg_exit){EXIT_HOW_HELPER, EXIT_HELPER, MSG_EXIT_SURVIVORS_UNKNOWN, 0};
	close_strays(ro->chan, ro->init_ctl, ro->gate);
	char gate_var[sizeof PAYLOAD_CREDENTIALS_PREFIX + 40];
	snprintf(gate_var, sizeof gate_var, "@%s", p->credentials ? p->credentials : "");
	ro->gate_name = p->credentials;
	struct owned owned = {NULL, 0};
	/* Here, to fail before any login file runs; the inner helper enters it again, inside. */
	int wd = work_dir_open(p->root ? p->root : "", p->scope ? p->scope : "", p->work_dir);
	if (wd >= 0)
		close(wd);
	else
		l.work_dir_refused = errno ? errno : EACCES;
	if (wd >= 0 && agent_vars(p, &a, &tmp, gate_var, &owned) == 0 && launch_prepare(&l, p, &a, tmp.len ? tmp.data : NULL) == 0) {
		ro->supervisor = (pid_t)p->supervisor_pid;
		ro->supervisor_start = p->supervisor_start;
		ro->grace_seconds = p->grace_seconds;
		ro->lifetime = p->lifetime;
		ro->pty = (p->exec_flags & EXEC_PTY) != 0;
		ro->private_tmp = tmp.len ? tmp.data : NULL;
		/* Before the run's own /proc (pidns) is mounted over this one. */
		l.pid_level = pid_ns_level();
		reaper_run(&l, ro);
		outcome(ro, &l, e);
		rc = e->how == EXIT_HOW_SIGNALED ? 128 + (int)e->value : (int)e->value;
	}
	if (!l.told)
		tell_not_started(p, ro, &l, ro->chan);
	launch_free(&l);
	free(a.env_names);
	free(a.env_values);
	owned_free(&owned);
	buf_free(&tmp);
	return rc;
}
