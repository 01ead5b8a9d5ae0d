/* SPDX-License-Identifier: ISC */
/* exec_payload.c - see exec_payload.h. */
#include "spawn/exec_payload.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "ruas.h"
#include "spawn/envfilter.h"

char **agent_argv(const struct ruas_project *p, const char *const *args, size_t *argc)
{
	size_t na = 0;
	while (args && args[na])
		na++;
	char **v = calloc(p->ncommand + na + 1, sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < p->ncommand; i++)
		v[i] = p->command[i];
	for (size_t i = 0; i < na; i++)
		v[p->ncommand + i] = (char *)args[i];
	*argc = p->ncommand + na;
	return v;
}

/* The payload's word for the lifetime that p asks for (project_lifetime()). */
static unsigned int payload_lifetime(const struct ruas_project *p)
{
	switch (project_lifetime(p)) {
	case LIFETIME_CFG_PIDNS:
		return LIFETIME_PIDNS;
	case LIFETIME_CFG_SUBREAPER:
		return LIFETIME_SUBREAPER;
	default:
		return LIFETIME_AUTO;
	}
}

/*
 * The allowlisted variables of env, in allowlist order, with set_env's
 * values first (env_filter() keeps the first definition). 0, or -1 when
 * out of memory.
 */
static int allowed_env(const struct ruas_project *p, const char *const *env,
		       const struct spawn_values *v, const char **names, const char **values,
		       size_t *n)
{
	const char **merged = NULL;
	if (v && v->set_env && !(merged = spawn_env_merge(v->set_env, env)))
		return -1;
	*n = env_filter(merged ? merged : env, (const char *const *)p->env_allowlist, names,
			values);
	free(merged); /* the names and values point into the strings, not into it */
	return 0;
}

/*
 * The helper's exec payload: work_dir (a per-spawn one with its root, the
 * project's work_dir), allowlisted variables, argv, who to watch (this
 * process), the grace between SIGTERM and SIGKILL of the agent's tree, who
 * owns that tree (lifetime), and for a person: the scope, the deny list and
 * its files.
 */
int exec_payload_build(const struct ruas_config *cfg, const struct ruas_project *p,
		       const struct account *acct, const char *const *args,
		       const char *const *env, const struct spawn_values *v,
		       const struct deny_files *x, struct payload *pl)
{
	const char **names = calloc(p->nallow + 2, sizeof *names);
	const char **values = calloc(p->nallow + 2, sizeof *values);
	const char **all = NULL;
	size_t na = 0;
	memset(pl, 0, sizeof *pl);
	while (args && args[na])
		na++;
	if (!names || !values || !(all = calloc(na + x->nargs + 1, sizeof *all)))
		goto oom;
	pl->kind = PAYLOAD_EXEC;
	pl->helper = cfg->helper; /* the payload's fields are borrowed: exec_payload_free() */
	pl->user = acct->name;
	pl->shell = acct->shell;
	pl->home = acct->home;
	pl->work_dir = p->work_dir;
	if (v && v->work_dir) {
		pl->work_dir = v->work_dir;
		pl->root = p->work_dir;
	}
	if (allowed_env(p, env, v, names, values, &pl->nenv) < 0)
		goto oom;
	for (size_t i = 0; i < na; i++)
		all[i] = args[i];
	for (size_t i = 0; i < x->nargs; i++)
		all[na + i] = x->args[i];
	if (x->list_path) {
		names[pl->nenv] = "RUAS_DENY_LIST";
		values[pl->nenv++] = x->list_path;
	}
	pl->env_names = (char **)names;
	pl->env_values = (char **)values;
	if (!(pl->argv = agent_argv(p, all, &pl->argc)))
		goto oom;
	free(all);
	pl->supervisor_pid = (unsigned int)getpid();
	pl->supervisor_start = process_start_time(getpid());
	pl->grace_seconds = p->terminate_grace;
	pl->lifetime = payload_lifetime(p);
	pl->rlim_nofile = p->limits.open_files;
	pl->rlim_fsize = p->limits.file_size;
	pl->core_dumps = p->limits.core_dumps ? 1 : 0;
	if (p->person) {
		pl->scope = x->scope;
		pl->person = p->person;
		pl->exec_flags = EXEC_PRIVATE_TMP;
		if (cfg->people->enforce_bwrap) {
			pl->exec_flags |= EXEC_BWRAP;
			pl->deny = x->dl.paths;
			pl->ndeny = x->dl.n;
		}
	}
	return 0;
oom:
	/* pl may already own names and values; the caller frees pl either way. */
	pl->env_names = NULL;
	pl->env_values = NULL;
	free(names);
	free(values);
	free(all);
	return RUAS_ERR_NOMEM;
}

void exec_payload_free(struct payload *pl)
{
	free(pl->argv);
	free(pl->env_names);
	free(pl->env_values);
}
