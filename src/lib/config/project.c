/* SPDX-License-Identifier: ISC */
/*
 * project.c - the schema of one project: its keys, in the order they are
 * judged, what each refuses, and how the project is added to the
 * configuration. A project from a file and one built in code
 * (ruas_config_add_project) pass through the same code here, so they meet
 * the same refusals with the same messages.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config/loader.h"
#include "config/sudo_allowed.h"
#include "names.h"
#include "quote.h"
#include "strv.h"

static const char *const project_keys[] = {
	"name", "work_dir", "command", "run_as_user", "env_allowlist",
	"scan_prune", "backend", "pam_service", "terminate_grace", "person",
	"deny_settings_args", "target_sudo_allowed", "lifetime", "open_files_max",
	"file_size_max", "core_dumps", "wall_time_max", "memory_max", "memory_swap_max",
	"tasks_max", "cpu_max", "require_command", "credentials", "git_hosts",
	"claude_api_key", NULL};

/* "BEFORE"VALUE"AFTER", the value quoted so that the message stays one line. */
static int fail_quoted(struct loader *ld, int line, const char *before, const char *value,
		       const char *after)
{
	struct buf q = BUF_INIT;
	quote_display_dq(&q, value);
	int r = ld_fail_at(ld, line, "%s%s%s", before, q.data ? q.data : "", after);
	buf_free(&q);
	return r;
}

/* The project's name, which every later message names, and its keys. */
static int project_name(struct loader *ld, const struct src *s, struct ruas_project *p)
{
	struct src_val name;
	int r;

	if ((r = src_string(ld, s, "name", &name)) < 0)
		return r;
	if (!name.present)
		return ld_fail_at(ld, src_line(s), "a project has no \"name\"");
	if (!project_name_is_valid(name.str))
		return fail_quoted(ld, name.line, "project name ", name.str,
				   " is invalid; use letters, digits and _ . @ + - (at most "
				   "128, starting with a letter or digit)");
	ld->project = name.str;
	if ((r = src_keys(ld, s, project_keys, "in a project")) < 0)
		return r;
	return ld_dup(ld, &p->name, name.str);
}

/* What runs, and where. */
static int project_command(struct loader *ld, const struct src *s, struct ruas_project *p)
{
	int r, line;

	if ((r = ld_abs_path(ld, s, "", "work_dir", 1, NULL, &p->work_dir)) < 0)
		return r;
	if (!src_has(s, "command", &line))
		return ld_fail_at(ld, src_line(s), "missing key \"command\"");
	if ((r = ld_get_list(ld, s, "command", &p->command, &p->ncommand, 0, NULL, NULL)) < 0)
		return r;
	if (p->ncommand == 0 || p->command[0][0] == '\0')
		return ld_fail_at(ld, line, "command must be a non-empty list whose first "
				  "element names a program");
	return 0;
}

/* The person's run_as_user, which an explicit run_as_user must equal. */
static int person_user(struct loader *ld, const struct src_val *person,
		       const struct src_val *user, const char **effective)
{
	const struct ruas_person *m = people_find(ld->cfg, person->str);
	if (!m)
		return fail_quoted(ld, person->line, "person ",
				   ld->cfg->people ? person->str : "(there is no people block)",
				   " is not a member of the people block");
	if (user->present && strcmp(user->str, m->run_as_user) != 0) {
		struct buf q = BUF_INIT;
		quote_display_dq(&q, user->str);
		int r = ld_fail_at(ld, person->line,
				   "run_as_user %s differs from person \"%s\"'s "
				   "run_as_user \"%s\"; omit it or make them equal",
				   q.data ? q.data : "", m->id, m->run_as_user);
		buf_free(&q);
		return r;
	}
	*effective = m->run_as_user;
	return 0;
}

/*
 * As whom: run_as_user, or the person's, who must then agree with it;
 * deny_settings_args only for a person.
 */
static int project_user(struct loader *ld, const struct src *s, struct ruas_project *p)
{
	struct src_val user, person;
	const char *effective;
	int r, line;

	if ((r = src_string(ld, s, "run_as_user", &user)) < 0 ||
	    (r = src_string(ld, s, "person", &person)) < 0)
		return r;
	effective = user.str;
	if (person.present) {
		if ((r = person_user(ld, &person, &user, &effective)) < 0)
			return r;
		if (ld_dup(ld, &p->person, person.str) < 0)
			return RUAS_ERR_NOMEM;
	}
	if (src_has(s, "deny_settings_args", &line)) {
		if (!person.present)
			return ld_fail_at(ld, line, "deny_settings_args needs a person");
		if ((r = ld_get_list(ld, s, "deny_settings_args", &p->deny_settings_args,
				     &p->ndeny_args, 0, NULL, NULL)) < 0)
			return r;
	}
	if (!effective)
		return 0;
	if ((r = ld_run_as_user(ld, user.line, effective)) < 0)
		return r;
	return ld_dup(ld, &p->run_as_user, effective);
}

/* The lists a project extends (env_allowlist, target_sudo_allowed) or replaces (scan_prune). */
static int project_lists(struct loader *ld, const struct src *s, struct ruas_project *p)
{
	const struct ruas_config *cfg = ld->cfg;
	int r, given;

	if ((r = ld_copy_strv(ld, (const char *const *)cfg->env_allowlist, &p->env_allowlist,
			      &p->nallow)) < 0 ||
	    (r = ld_get_list(ld, s, "env_allowlist", &p->env_allowlist, &p->nallow, 1,
			     env_name_refusal, NULL)) < 0)
		return r;
	if (cfg->target_sudo_allowed &&
	    (r = ld_copy_strv(ld, (const char *const *)cfg->target_sudo_allowed,
			      &p->target_sudo_allowed, &p->nsudo_allowed)) < 0)
		return r;
	if ((r = ld_get_list(ld, s, "target_sudo_allowed", &p->target_sudo_allowed,
			     &p->nsudo_allowed, 1, sudo_allowed_problem, NULL)) < 0)
		return r;
	if ((r = ld_get_list(ld, s, "scan_prune", &p->scan_prune, &p->nprune, 1,
			     ld_prune_problem, &given)) < 0)
		return r;
	if (!given)
		return ld_copy_strv(ld, (const char *const *)cfg->scan_prune, &p->scan_prune,
				    &p->nprune);
	if (!p->scan_prune && !(p->scan_prune = calloc(1, sizeof(char *))))
		return ld_oom(ld);
	return 0;
}

/*
 * Its credentials: the global ones, each replaced by its own of the same
 * name, then its own. Only a run as run_as_user can be served them (the
 * PID namespace tells its processes apart), so its own without one are
 * refused; a project without run_as_user runs as the supervisor, which
 * holds every value already, and is served none.
 */
static int project_credentials(struct loader *ld, const struct src *s, struct ruas_project *p)
{
	struct cred_list own = {NULL, 0};
	int line, r = ld_credentials(ld, s, &own);
	if (r == 0 && own.n && !p->run_as_user && src_has(s, "credentials", &line))
		r = ld_fail_at(ld, line,
			       "credentials need run_as_user: a project without one runs as the "
			       "supervisor, which holds the values itself");
	if (r == 0)
		r = ld_credentials_merge(ld, &ld->cfg->credentials, &own, &p->credentials);
	cred_list_free(&own);
	/* A value handed out on request is not also to be copied into every environment of the run. */
	for (size_t i = 0; r == 0 && i < p->credentials.n; i++) {
		const struct cred_source *c = &p->credentials.v[i];
		if (c->kind == CRED_ENV && p->run_as_user &&
		    strv_contains((const char *const *)p->env_allowlist, c->env))
			r = ld_fail_at(ld, c->line,
				       "credential \"%s\": from_env %s is also in env_allowlist, so "
				       "the agent would get a copy of the value in its environment "
				       "anyway; remove %s from env_allowlist",
				       c->name, c->env, c->env);
	}
	struct git_host_list hosts = {NULL, 0};
	if (r == 0)
		r = ld_git_hosts(ld, s, &hosts);
	if (r == 0 && hosts.n && !p->run_as_user && src_has(s, "git_hosts", &line))
		r = ld_fail_at(ld, line,
			       "git_hosts need run_as_user: a project without one is served no "
			       "credentials");
	if (r == 0)
		r = ld_git_hosts_merge(ld, &ld->cfg->git_hosts, &hosts, &p->git_hosts);
	git_host_list_free(&hosts);
	/* claude_api_key: its own, else the global one; a name among those. */
	line = ld->cfg->claude_api_key_line;
	if (r == 0 && ld->cfg->claude_api_key &&
	    ld_dup(ld, &p->claude_api_key, ld->cfg->claude_api_key) < 0)
		r = RUAS_ERR_NOMEM;
	if (r == 0)
		r = ld_claude_api_key(ld, s, &p->claude_api_key, &line);
	if (r == 0)
		r = ld_claude_api_key_check(ld, p, line);
	return r;
}

/* The settings a project may override: how its sessions start and end. */
static int project_overrides(struct loader *ld, const struct src *s, struct ruas_project *p)
{
	const char *service = ld->cfg->pam_service;
	int r;

	p->backend = ld->cfg->backend;
	p->terminate_grace = ld->cfg->terminate_grace;
	p->lifetime = ld->cfg->lifetime;
	p->limits = ld->cfg->limits;
	p->require_command = ld->cfg->require_command;
	if ((r = ld_backend(ld, s, &p->backend)) < 0 || (r = ld_service(ld, s, &service)) < 0 ||
	    (r = ld_grace(ld, s, &p->terminate_grace)) < 0 ||
	    (r = ld_lifetime(ld, s, &p->lifetime)) < 0 ||
	    (r = ld_limits(ld, s, &p->limits)) < 0 ||
	    (r = ld_require_command(ld, s, &p->require_command)) < 0 ||
	    (r = project_credentials(ld, s, p)) < 0)
		return r;
	return ld_dup(ld, &p->pam_service, service);
}

/*
 * The rlimits are set by ruas-exec, and a run is ended whole only through
 * it, which a project without run_as_user never runs (its terminate is a
 * kill(2) of one pid): such a project with a limit (its own or the top
 * level's) is refused rather than run without it.
 */
static int limits_need_user(struct loader *ld, const struct ruas_project *p)
{
	const struct run_limits *l = &p->limits;
	/* A swap allowance is beside a memory limit: alone it limits nothing. */
	if (l->memory_swap_set && !l->memory)
		return ld_fail_at(ld, p->line,
				  "memory_swap_max needs memory_max: it is the swap a run may "
				  "use beside its memory (set memory_max, or remove "
				  "memory_swap_max from the project and the top level)");
	const char *key = l->open_files	 ? "open_files_max"
			  : l->file_size ? "file_size_max"
			  : l->wall_time ? "wall_time_max"
			  : l->memory	 ? "memory_max"
			  : l->tasks	 ? "tasks_max"
			  : l->cpu_milli ? "cpu_max"
					 : NULL;
	if (p->run_as_user || !key)
		return 0;
	return ld_fail_at(ld, p->line,
			  "%s needs run_as_user: a project without one runs as the supervisor, "
			  "without ruas's helper, which sets the limits and ends the run's whole "
			  "tree (set run_as_user, or remove %s from the project and the top level)",
			  key, key);
}

/* A name that a project already has is refused, naming where the first one is. */
static int refuse_duplicate(struct loader *ld, const struct ruas_project *p)
{
	for (size_t j = 0; j < ld->cfg->nprojects; j++) {
		const struct ruas_project *first = ld->cfg->projects[j];
		if (strcmp(first->name, p->name) != 0)
			continue;
		ld->project = NULL;
		if (first->line > 0)
			return ld_fail_at(ld, p->line, "duplicate project name \"%s\" (first at line %d)",
					  p->name, first->line);
		return ld_fail_at(ld, p->line, "duplicate project name \"%s\"", p->name);
	}
	return 0;
}

static int append_project(struct loader *ld, struct ruas_project *p)
{
	struct ruas_config *cfg = ld->cfg;
	/* An array of pointers, on purpose: each project stays where it is. */
	struct ruas_project **v = reallocarray(cfg->projects, cfg->nprojects + 1,
					       sizeof v[0]); /* NOLINT(bugprone-sizeof-expression) */
	if (!v)
		return ld_oom(ld);
	cfg->projects = v;
	cfg->projects[cfg->nprojects++] = p;
	return 0;
}

int schema_add_project(struct loader *ld, const struct src *s)
{
	struct ruas_project *p = calloc(1, sizeof *p);
	int r;

	if (!p)
		return ld_oom(ld);
	ld->project = NULL;
	p->line = src_line(s);
	if ((r = project_name(ld, s, p)) < 0 || (r = project_command(ld, s, p)) < 0 ||
	    (r = project_user(ld, s, p)) < 0 || (r = project_lists(ld, s, p)) < 0 ||
	    (r = project_overrides(ld, s, p)) < 0 || (r = limits_need_user(ld, p)) < 0 ||
	    (r = refuse_duplicate(ld, p)) < 0 ||
	    (r = append_project(ld, p)) < 0) {
		project_free(p);
		return r;
	}
	ld->project = NULL;
	return 0;
}
