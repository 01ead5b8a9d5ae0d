/*
 * config.c - the schema of ruas.conf: its keys, their types, defaults and
 * what each refuses (the people block is in people.c, reading the file in
 * file.c).
 *
 * Everything that could weaken isolation is refused at load: unknown keys (a
 * typo must not silently drop run_as_user), mistyped values, run_as_user
 * that is root, uid 0 or the supervisor, and allowlisted variables that
 * would reach into the target's login environment or loader.
 */
#include <errno.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "buf.h"
#include "config/loader.h"
#include "config/sudo_allowed.h"
#include "error.h"
#include "names.h"
#include "quote.h"
#include "strv.h"

static const char *const default_allowlist[] = {"LANG", "LC_ALL", "LC_CTYPE",
						"LC_MESSAGES", "TERM", NULL};
static const char *const default_prune[] = {
	".git", "node_modules", ".venv", "venv", "dist", "build", "target",
	".pytest_cache", "__pycache__", NULL};

static const char *const global_keys[] = {
	"env_allowlist", "sudo", "helper", "session_helper", "projects",
	"scan_prune", "scan_time_limit", "backend", "pam_service",
	"terminate_grace", "people", "target_sudo_allowed", "lifetime", NULL};
static const char *const project_keys[] = {
	"name", "work_dir", "command", "run_as_user", "env_allowlist",
	"scan_prune", "backend", "pam_service", "terminate_grace", "person",
	"deny_settings_args", "target_sudo_allowed", "lifetime", NULL};

/* Settings that a project may override. */
struct defaults {
	enum backend backend;
	const char *pam_service;
	unsigned int terminate_grace;
	enum lifetime lifetime;
};

int ld_fail(struct loader *ld, const config_setting_t *s, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	int line = s ? (int)config_setting_source_line(s) : 0;
	buf_adds(&b, ld->file);
	if (line > 0)
		buf_printf(&b, ":%d", line);
	buf_adds(&b, ": ");
	if (ld->project) {
		buf_adds(&b, "project ");
		quote_display_dq(&b, ld->project);
		buf_adds(&b, ": ");
	}
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	error_set(ld->err, RUAS_ERR_CONFIG, ld->file, line, 0, "%s",
		  b.data ? b.data : "out of memory");
	buf_free(&b);
	return RUAS_ERR_CONFIG;
}

int ld_oom(struct loader *ld)
{
	return error_set(ld->err, RUAS_ERR_NOMEM, ld->file, 0, ENOMEM,
			 "%s: out of memory", ld->file);
}

int ld_check_keys(struct loader *ld, const config_setting_t *group,
		  const char *const *allowed, const char *where)
{
	int n = config_setting_length(group);
	for (int i = 0; i < n; i++) {
		config_setting_t *m = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(m);
		if (!name || !strv_contains(allowed, name)) {
			struct buf keys = BUF_INIT;
			for (const char *const *k = allowed; *k; k++)
				buf_printf(&keys, "%s%s", k == allowed ? "" : ", ", *k);
			int r = ld_fail(ld, m,
					"unknown key \"%s\" %s (a misspelt key could "
					"silently weaken isolation); known keys: %s",
					name ? name : "?", where,
					keys.data ? keys.data : "");
			buf_free(&keys);
			return r;
		}
	}
	return 0;
}

int ld_get_string(struct loader *ld, const config_setting_t *group,
		  const char *key, const char **out)
{
	config_setting_t *s = config_setting_get_member(group, key);
	*out = NULL;
	if (!s)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return ld_fail(ld, s, "key \"%s\" must be a string", key);
	*out = config_setting_get_string(s);
	return 0;
}

/*
 * A list or array of strings. Appends each to *vec (NULL-terminated),
 * skipping duplicates when `dedup`. `check` returns NULL or a refusal.
 */
static int get_string_list(struct loader *ld, const config_setting_t *s,
			   const char *key, char ***vec, size_t *n, int dedup,
			   const char *(*check)(const char *))
{
	int type = config_setting_type(s);
	if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST)
		return ld_fail(ld, s, "key \"%s\" must be a list of strings, like [\"a\", \"b\"]",
			       key);
	int len = config_setting_length(s);
	for (int i = 0; i < len; i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return ld_fail(ld, e, "key \"%s\": element %d must be a string",
				       key, i + 1);
		const char *v = config_setting_get_string(e);
		const char *why = check ? check(v) : NULL;
		if (why) {
			struct buf q = BUF_INIT;
			quote_display_dq(&q, v);
			int r = ld_fail(ld, e, "key \"%s\": %s %s", key,
					q.data ? q.data : "", why);
			buf_free(&q);
			return r;
		}
		if (dedup && strv_contains((const char *const *)*vec, v))
			continue;
		if (strv_push(vec, n, strdup(v)) < 0)
			return ld_oom(ld);
	}
	return 0;
}

static int copy_strv(struct loader *ld, const char *const *src, char ***vec,
		     size_t *n)
{
	for (; *src; src++)
		if (strv_push(vec, n, strdup(*src)) < 0)
			return ld_oom(ld);
	if (!*vec) {
		*vec = calloc(1, sizeof **vec);
		if (!*vec)
			return ld_oom(ld);
	}
	return 0;
}

static const char *prune_problem(const char *v)
{
	if (!*v || strchr(v, '/') || strcmp(v, ".") == 0 || strcmp(v, "..") == 0)
		return "must be a plain file name (no '/', not empty, not . or ..)";
	return NULL;
}

static const char *allow_problem(const char *v)
{
	return env_name_refusal(v);
}

/* target_sudo_allowed: global, and per project on top of the global list. */
static int get_sudo_allowed(struct loader *ld, const config_setting_t *group,
			    char ***vec, size_t *n)
{
	config_setting_t *s = config_setting_get_member(group, "target_sudo_allowed");
	if (!s)
		return 0;
	return get_string_list(ld, s, "target_sudo_allowed", vec, n, 1, sudo_allowed_problem);
}

int ld_abs_path(struct loader *ld, const config_setting_t *g, const char *where,
		const char *key, int required, const char *dflt, char **out)
{
	const char *v;
	int r = ld_get_string(ld, g, key, &v);
	if (r < 0)
		return r;
	if (!v && required)
		return ld_fail(ld, g, "%smissing key \"%s\"", where, key);
	if (v && v[0] != '/')
		return ld_fail(ld, config_setting_get_member(g, key),
			       "%s%s must be an absolute path", where, key);
	if (!v && !dflt)
		return 0;
	return ld_dup(ld, out, v ? v : dflt);
}

int ld_run_as_user(struct loader *ld, const config_setting_t *s, const char *user)
{
	const char *why = user_name_problem(user);
	struct buf q = BUF_INIT;
	quote_display_dq(&q, user);
	const char *qu = q.data ? q.data : "";
	int r = 0;
	if (why)
		r = ld_fail(ld, s, "run_as_user %s %s", qu, why);
	else if (strcmp(user, "root") == 0)
		r = ld_fail(ld, s, "run_as_user %s is root; a project must run as a "
			    "dedicated unprivileged user", qu);
	else if (strcmp(user, ld->cfg->supervisor_name) == 0)
		r = ld_fail(ld, s, "run_as_user %s is the supervisor itself, which "
			    "gives no isolation; create a dedicated user", qu);
	else {
		struct account acct;
		int lr = account_lookup(user, &acct);
		if (lr == ACCOUNT_FOUND && acct.uid == 0)
			r = ld_fail(ld, s, "run_as_user %s has uid 0, so it is root; "
				    "a project must run as an unprivileged user", qu);
		else if (lr == ACCOUNT_FOUND && acct.uid == ld->cfg->supervisor_uid)
			r = ld_fail(ld, s, "run_as_user %s has the supervisor's uid %u, "
				    "which gives no isolation", qu,
				    (unsigned)acct.uid);
		else if (lr == ACCOUNT_ERROR)
			r = ld_fail(ld, s, "run_as_user %s: the user database could not "
				    "be read", qu);
		if (lr == ACCOUNT_FOUND)
			account_clear(&acct);
	}
	buf_free(&q);
	return r;
}

static int get_backend(struct loader *ld, const config_setting_t *group,
		       enum backend *out)
{
	const char *v;
	int r = ld_get_string(ld, group, "backend", &v);
	if (r < 0 || !v)
		return r;
	if (strcmp(v, "auto") == 0)
		*out = BACKEND_AUTO;
	else if (strcmp(v, "sudo") == 0)
		*out = BACKEND_SUDO;
	else if (strcmp(v, "pam") == 0)
		*out = BACKEND_PAM;
	else
		return ld_fail(ld, config_setting_get_member(group, "backend"),
			       "backend must be \"sudo\", \"pam\" or \"auto\"");
	return 0;
}

static int get_lifetime(struct loader *ld, const config_setting_t *group, enum lifetime *out)
{
	static const char *const words[] = {"auto", "pidns", "subreaper", NULL};
	const char *v;
	int r = ld_get_string(ld, group, "lifetime", &v);
	if (r < 0 || !v)
		return r;
	for (int i = 0; words[i]; i++)
		if (strcmp(v, words[i]) == 0) {
			*out = (enum lifetime)i; /* in the order of enum lifetime */
			return 0;
		}
	return ld_fail(ld, config_setting_get_member(group, "lifetime"),
		       "lifetime must be \"pidns\", \"subreaper\" or \"auto\"");
}

static const char *service_problem(const char *v)
{
	if (!*v || strlen(v) > 64 || strchr(v, '/') || v[0] == '.')
		return "must be a PAM service name (a file name in /etc/pam.d)";
	for (const char *c = v; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("_.-", *c)))
			return "must be a PAM service name (a file name in /etc/pam.d)";
	return NULL;
}

static int get_service(struct loader *ld, const config_setting_t *group,
		       const char **out)
{
	const char *v;
	int r = ld_get_string(ld, group, "pam_service", &v);
	if (r < 0 || !v)
		return r;
	const char *why = service_problem(v);
	if (why)
		return ld_fail(ld, config_setting_get_member(group, "pam_service"),
			       "pam_service %s", why);
	*out = v;
	return 0;
}

static int get_grace(struct loader *ld, const config_setting_t *group,
		     unsigned int *out)
{
	config_setting_t *s = config_setting_get_member(group, "terminate_grace");
	if (!s)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_INT)
		return ld_fail(ld, s, "terminate_grace must be a whole number of seconds");
	int v = config_setting_get_int(s);
	if (v < 0 || v > 3600)
		return ld_fail(ld, s, "terminate_grace must be between 0 and 3600 seconds");
	*out = (unsigned int)v;
	return 0;
}

/* The project's name, which every later message names, and its keys. */
static int project_name(struct loader *ld, config_setting_t *ps, struct ruas_project *p)
{
	const char *name;
	int r;

	if ((r = ld_get_string(ld, ps, "name", &name)) < 0)
		return r;
	if (!name)
		return ld_fail(ld, ps, "a project has no \"name\"");
	if (!project_name_is_valid(name)) {
		struct buf qn = BUF_INIT;
		quote_display_dq(&qn, name);
		int fr = ld_fail(ld, config_setting_get_member(ps, "name"),
				 "project name %s is invalid; use letters, digits "
				 "and _ . @ + - (at most 128, starting with a letter "
				 "or digit)", qn.data ? qn.data : "");
		buf_free(&qn);
		return fr;
	}
	ld->project = name;
	if ((r = ld_check_keys(ld, ps, project_keys, "in a project")) < 0)
		return r;
	return ld_dup(ld, &p->name, name);
}

/* What runs, and where. */
static int project_command(struct loader *ld, config_setting_t *ps, struct ruas_project *p)
{
	int r;

	if ((r = ld_abs_path(ld, ps, "", "work_dir", 1, NULL, &p->work_dir)) < 0)
		return r;
	config_setting_t *cs = config_setting_get_member(ps, "command");
	if (!cs)
		return ld_fail(ld, ps, "missing key \"command\"");
	if ((r = get_string_list(ld, cs, "command", &p->command, &p->ncommand, 0,
				 NULL)) < 0)
		return r;
	if (p->ncommand == 0 || p->command[0][0] == '\0')
		return ld_fail(ld, cs, "command must be a non-empty list whose first "
			       "element names a program");
	return 0;
}

/*
 * As whom: run_as_user, or the person's, who must then agree with it;
 * deny_settings_args only for a person.
 */
static int project_user(struct loader *ld, config_setting_t *ps, struct ruas_project *p)
{
	const char *user, *person;
	int r;

	if ((r = ld_get_string(ld, ps, "run_as_user", &user)) < 0)
		return r;
	if ((r = ld_get_string(ld, ps, "person", &person)) < 0)
		return r;
	if (person) {
		const struct ruas_person *m = people_find(ld->cfg, person);
		config_setting_t *pset = config_setting_get_member(ps, "person");
		if (!m)
			return ld_fail(ld, pset, "person \"%s\" is not a member of the people block",
				       ld->cfg->people ? person : "(there is no people block)");
		if (user && strcmp(user, m->run_as_user) != 0)
			return ld_fail(ld, pset, "run_as_user \"%s\" differs from person \"%s\"'s "
				       "run_as_user \"%s\"; omit it or make them equal",
				       user, person, m->run_as_user);
		user = m->run_as_user;
		if (ld_dup(ld, &p->person, person) < 0)
			return RUAS_ERR_NOMEM;
	}
	config_setting_t *dsa = config_setting_get_member(ps, "deny_settings_args");
	if (dsa) {
		if (!person)
			return ld_fail(ld, dsa, "deny_settings_args needs a person");
		if ((r = get_string_list(ld, dsa, "deny_settings_args", &p->deny_settings_args,
					 &p->ndeny_args, 0, NULL)) < 0)
			return r;
	}
	if (!user)
		return 0;
	if ((r = ld_run_as_user(ld, config_setting_get_member(ps, "run_as_user"), user)) < 0)
		return r;
	return ld_dup(ld, &p->run_as_user, user);
}

/* The lists a project extends (env_allowlist, target_sudo_allowed) or replaces (scan_prune). */
static int project_lists(struct loader *ld, config_setting_t *ps, struct ruas_project *p,
			 const char *const *global_allow, const char *const *global_prune)
{
	int r;

	if ((r = copy_strv(ld, global_allow, &p->env_allowlist, &p->nallow)) < 0)
		return r;
	config_setting_t *as = config_setting_get_member(ps, "env_allowlist");
	if (as && (r = get_string_list(ld, as, "env_allowlist", &p->env_allowlist,
				       &p->nallow, 1, allow_problem)) < 0)
		return r;
	if (ld->cfg->target_sudo_allowed &&
	    (r = copy_strv(ld, (const char *const *)ld->cfg->target_sudo_allowed,
			   &p->target_sudo_allowed, &p->nsudo_allowed)) < 0)
		return r;
	if ((r = get_sudo_allowed(ld, ps, &p->target_sudo_allowed, &p->nsudo_allowed)) < 0)
		return r;

	config_setting_t *sp = config_setting_get_member(ps, "scan_prune");
	if (!sp)
		return copy_strv(ld, global_prune, &p->scan_prune, &p->nprune);
	if ((r = get_string_list(ld, sp, "scan_prune", &p->scan_prune,
				 &p->nprune, 1, prune_problem)) < 0)
		return r;
	if (!p->scan_prune && !(p->scan_prune = calloc(1, sizeof(char *))))
		return ld_oom(ld);
	return 0;
}

/* The settings a project may override: how its sessions start and end. */
static int project_overrides(struct loader *ld, config_setting_t *ps, struct ruas_project *p,
			     const struct defaults *def)
{
	const char *service = def->pam_service;
	int r;

	p->backend = def->backend;
	p->terminate_grace = def->terminate_grace;
	p->lifetime = def->lifetime;
	if ((r = get_backend(ld, ps, &p->backend)) < 0 ||
	    (r = get_service(ld, ps, &service)) < 0 ||
	    (r = get_grace(ld, ps, &p->terminate_grace)) < 0 ||
	    (r = get_lifetime(ld, ps, &p->lifetime)) < 0)
		return r;
	return ld_dup(ld, &p->pam_service, service);
}

static int load_project(struct loader *ld, config_setting_t *ps,
			struct ruas_project *p, const char *const *global_allow,
			const char *const *global_prune, const struct defaults *def)
{
	int r;

	ld->project = NULL;
	p->line = (int)config_setting_source_line(ps);
	if (!config_setting_is_group(ps))
		return ld_fail(ld, ps, "each entry of \"projects\" must be a group { ... }");
	if ((r = project_name(ld, ps, p)) < 0 ||
	    (r = project_command(ld, ps, p)) < 0 ||
	    (r = project_user(ld, ps, p)) < 0 ||
	    (r = project_lists(ld, ps, p, global_allow, global_prune)) < 0 ||
	    (r = project_overrides(ld, ps, p, def)) < 0)
		return r;
	ld->project = NULL;
	return 0;
}


static int load_globals(struct loader *ld, config_t *lc, char ***allow,
			size_t *nallow, char ***prune, size_t *nprune,
			struct defaults *def)
{
	config_setting_t *root = config_root_setting(lc);
	int r;

	if ((r = ld_check_keys(ld, root, global_keys, "at the top level")) < 0)
		return r;
	if ((r = ld_abs_path(ld, root, "", "sudo", 0, RUAS_SUDO_PATH, &ld->cfg->sudo)) < 0 ||
	    (r = ld_abs_path(ld, root, "", "helper", 0, RUAS_HELPER_PATH, &ld->cfg->helper)) < 0 ||
	    (r = ld_abs_path(ld, root, "", "session_helper", 0, RUAS_SESSION_PATH,
			     &ld->cfg->session_helper)) < 0)
		return r;
	size_t nsudo = 0;
	if ((r = get_sudo_allowed(ld, root, &ld->cfg->target_sudo_allowed, &nsudo)) < 0)
		return r;
	if ((r = get_backend(ld, root, &def->backend)) < 0 ||
	    (r = get_service(ld, root, &def->pam_service)) < 0 ||
	    (r = get_grace(ld, root, &def->terminate_grace)) < 0 ||
	    (r = get_lifetime(ld, root, &def->lifetime)) < 0)
		return r;

	config_setting_t *lim = config_setting_get_member(root, "scan_time_limit");
	ld->cfg->scan_time_limit = DEFAULT_SCAN_TIME_LIMIT;
	if (lim) {
		if (config_setting_type(lim) != CONFIG_TYPE_INT)
			return ld_fail(ld, lim, "scan_time_limit must be a whole number of seconds");
		int v = config_setting_get_int(lim);
		if (v < 1 || v > 86400)
			return ld_fail(ld, lim, "scan_time_limit must be between 1 and 86400 seconds");
		ld->cfg->scan_time_limit = (unsigned)v;
	}

	config_setting_t *as = config_setting_get_member(root, "env_allowlist");
	if (as) {
		if ((r = get_string_list(ld, as, "env_allowlist", allow, nallow, 1,
					 allow_problem)) < 0)
			return r;
	} else if ((r = copy_strv(ld, default_allowlist, allow, nallow)) < 0)
		return r;
	if (!*allow && !(*allow = calloc(1, sizeof(char *))))
		return ld_oom(ld);

	config_setting_t *ps = config_setting_get_member(root, "scan_prune");
	if (ps) {
		if ((r = get_string_list(ld, ps, "scan_prune", prune, nprune, 1,
					 prune_problem)) < 0)
			return r;
	} else if ((r = copy_strv(ld, default_prune, prune, nprune)) < 0)
		return r;
	if (!*prune && !(*prune = calloc(1, sizeof(char *))))
		return ld_oom(ld);
	return 0;
}

static int load_projects(struct loader *ld, config_t *lc, char **allow,
			 char **prune, const struct defaults *def)
{
	config_setting_t *root = config_root_setting(lc);
	config_setting_t *list = config_setting_get_member(root, "projects");
	if (!list)
		return ld_fail(ld, NULL, "missing key \"projects\"");
	if (config_setting_type(list) != CONFIG_TYPE_LIST)
		return ld_fail(ld, list, "\"projects\" must be a list: projects = ( { ... }, { ... } );");
	int n = config_setting_length(list);
	ld->cfg->projects = calloc((size_t)n + 1, sizeof *ld->cfg->projects);
	if (!ld->cfg->projects)
		return ld_oom(ld);
	for (int i = 0; i < n; i++) {
		config_setting_t *ps = config_setting_get_elem(list, (unsigned)i);
		struct ruas_project *p = &ld->cfg->projects[i];
		ld->cfg->nprojects = (size_t)i + 1;
		int r = load_project(ld, ps, p, (const char *const *)allow,
				     (const char *const *)prune, def);
		if (r < 0)
			return r;
		for (int j = 0; j < i; j++)
			if (strcmp(ld->cfg->projects[j].name, p->name) == 0) {
				ld->project = NULL;
				return ld_fail(ld, ps, "duplicate project name \"%s\" (first at line %d)",
					       p->name, ld->cfg->projects[j].line);
			}
	}
	return 0;
}

int load_schema(struct loader *ld, config_t *lc)
{
	char **allow = NULL, **prune = NULL;
	size_t nallow = 0, nprune = 0;
	struct defaults def = {BACKEND_AUTO, DEFAULT_PAM_SERVICE, DEFAULT_TERMINATE_GRACE,
			       LIFETIME_CFG_AUTO};
	int r = load_globals(ld, lc, &allow, &nallow, &prune, &nprune, &def);
	if (r == 0)
		r = load_people(ld, lc);
	if (r == 0)
		r = load_projects(ld, lc, allow, prune, &def);
	strv_free(allow);
	strv_free(prune);
	return r;
}
