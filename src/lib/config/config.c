/*
 * config.c - loading and validating ruas.conf with libconfig.
 *
 * Everything that could weaken isolation is refused at load: unknown keys (a
 * typo must not silently drop run_as_user), mistyped values, run_as_user
 * that is root, uid 0 or the supervisor, and allowlisted variables that
 * would reach into the target's login environment or loader.
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "config/config_int.h"
#include "error.h"
#include "names.h"
#include "path.h"
#include "strv.h"
#include "config/sudo_allowed.h"
#include "quote.h"

#define CONFIG_MAX_BYTES (4u << 20)

static const char *const default_allowlist[] = {"LANG", "LC_ALL", "LC_CTYPE",
						"LC_MESSAGES", "TERM", NULL};
static const char *const default_prune[] = {
	".git", "node_modules", ".venv", "venv", "dist", "build", "target",
	".pytest_cache", "__pycache__", NULL};

static const char *const global_keys[] = {
	"env_allowlist", "sudo", "helper", "session_helper", "projects",
	"scan_prune", "scan_time_limit", "backend", "pam_service",
	"terminate_grace", "people", "target_sudo_allowed", NULL};
static const char *const project_keys[] = {
	"name", "work_dir", "command", "run_as_user", "env_allowlist",
	"scan_prune", "backend", "pam_service", "terminate_grace", "person",
	"deny_settings_args", "target_sudo_allowed", NULL};
static const char *const people_keys[] = {"worktrees", "credentials",
					  "claude_projects", "enforce",
					  "members", NULL};
static const char *const member_keys[] = {"id", "run_as_user", NULL};

/* Settings that a project may override. */
struct defaults {
	enum backend backend;
	const char *pam_service;
	unsigned int terminate_grace;
};

struct loader {
	const char *file;
	ruas_error **err;
	struct ruas_config *cfg;
	const char *project; /* the project being read, for messages */
};

static int fail(struct loader *ld, const config_setting_t *s, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

static int fail(struct loader *ld, const config_setting_t *s, const char *fmt,
		...)
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

static int oom(struct loader *ld)
{
	return error_set(ld->err, RUAS_ERR_NOMEM, ld->file, 0, ENOMEM,
			 "%s: out of memory", ld->file);
}

static int check_keys(struct loader *ld, const config_setting_t *group,
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
			int r = fail(ld, m,
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

/* Optional string; *out stays NULL when absent. */
static int get_string(struct loader *ld, const config_setting_t *group,
		      const char *key, const char **out)
{
	config_setting_t *s = config_setting_get_member(group, key);
	*out = NULL;
	if (!s)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return fail(ld, s, "key \"%s\" must be a string", key);
	*out = config_setting_get_string(s);
	return 0;
}

static int dup_into(struct loader *ld, char **dst, const char *src)
{
	*dst = strdup(src);
	return *dst ? 0 : oom(ld);
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
		return fail(ld, s, "key \"%s\" must be a list of strings, like [\"a\", \"b\"]",
			    key);
	int len = config_setting_length(s);
	for (int i = 0; i < len; i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return fail(ld, e, "key \"%s\": element %d must be a string",
				    key, i + 1);
		const char *v = config_setting_get_string(e);
		const char *why = check ? check(v) : NULL;
		if (why) {
			struct buf q = BUF_INIT;
			quote_display_dq(&q, v);
			int r = fail(ld, e, "key \"%s\": %s %s", key,
				     q.data ? q.data : "", why);
			buf_free(&q);
			return r;
		}
		int seen = 0;
		for (size_t j = 0; dedup && j < *n; j++)
			if (strcmp((*vec)[j], v) == 0)
				seen = 1;
		if (seen)
			continue;
		char **nv = realloc(*vec, (*n + 2) * sizeof *nv);
		if (!nv)
			return oom(ld);
		*vec = nv;
		if (dup_into(ld, &nv[*n], v) < 0)
			return RUAS_ERR_NOMEM;
		(*n)++;
		nv[*n] = NULL;
	}
	return 0;
}

static int copy_strv(struct loader *ld, const char *const *src, char ***vec,
		     size_t *n)
{
	for (; *src; src++) {
		char **nv = realloc(*vec, (*n + 2) * sizeof *nv);
		if (!nv)
			return oom(ld);
		*vec = nv;
		if (dup_into(ld, &nv[*n], *src) < 0)
			return RUAS_ERR_NOMEM;
		(*n)++;
		nv[*n] = NULL;
	}
	if (!*vec) {
		*vec = calloc(1, sizeof **vec);
		if (!*vec)
			return oom(ld);
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

/*
 * An absolute path under `key` of group g, or dflt when absent (NULL: none,
 * unless required). `where` prefixes messages ("" or "people: ").
 */
static int get_abs_path(struct loader *ld, const config_setting_t *g, const char *where,
			const char *key, int required, const char *dflt, char **out)
{
	const char *v;
	int r = get_string(ld, g, key, &v);
	if (r < 0)
		return r;
	if (!v && required)
		return fail(ld, g, "%smissing key \"%s\"", where, key);
	if (v && v[0] != '/')
		return fail(ld, config_setting_get_member(g, key),
			    "%s%s must be an absolute path", where, key);
	if (!v && !dflt)
		return 0;
	return dup_into(ld, out, v ? v : dflt);
}

static int check_run_as_user(struct loader *ld, const config_setting_t *s,
			     const char *user)
{
	const char *why = user_name_problem(user);
	struct buf q = BUF_INIT;
	quote_display_dq(&q, user);
	const char *qu = q.data ? q.data : "";
	int r = 0;
	if (why)
		r = fail(ld, s, "run_as_user %s %s", qu, why);
	else if (strcmp(user, "root") == 0)
		r = fail(ld, s, "run_as_user %s is root; a project must run as a "
			 "dedicated unprivileged user", qu);
	else if (strcmp(user, ld->cfg->supervisor_name) == 0)
		r = fail(ld, s, "run_as_user %s is the supervisor itself, which "
			 "gives no isolation; create a dedicated user", qu);
	else {
		struct account acct;
		int lr = account_lookup(user, &acct);
		if (lr == ACCOUNT_FOUND && acct.uid == 0)
			r = fail(ld, s, "run_as_user %s has uid 0, so it is root; "
				 "a project must run as an unprivileged user", qu);
		else if (lr == ACCOUNT_FOUND && acct.uid == ld->cfg->supervisor_uid)
			r = fail(ld, s, "run_as_user %s has the supervisor's uid %u, "
				 "which gives no isolation", qu,
				 (unsigned)acct.uid);
		else if (lr == ACCOUNT_ERROR)
			r = fail(ld, s, "run_as_user %s: the user database could not "
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
	int r = get_string(ld, group, "backend", &v);
	if (r < 0 || !v)
		return r;
	if (strcmp(v, "auto") == 0)
		*out = BACKEND_AUTO;
	else if (strcmp(v, "sudo") == 0)
		*out = BACKEND_SUDO;
	else if (strcmp(v, "pam") == 0)
		*out = BACKEND_PAM;
	else
		return fail(ld, config_setting_get_member(group, "backend"),
			    "backend must be \"sudo\", \"pam\" or \"auto\"");
	return 0;
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
	int r = get_string(ld, group, "pam_service", &v);
	if (r < 0 || !v)
		return r;
	const char *why = service_problem(v);
	if (why)
		return fail(ld, config_setting_get_member(group, "pam_service"),
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
		return fail(ld, s, "terminate_grace must be a whole number of seconds");
	int v = config_setting_get_int(s);
	if (v < 0 || v > 3600)
		return fail(ld, s, "terminate_grace must be between 0 and 3600 seconds");
	*out = (unsigned int)v;
	return 0;
}

enum backend project_backend(const struct ruas_project *p)
{
	if (p->backend != BACKEND_AUTO)
		return p->backend;
	return geteuid() == 0 ? BACKEND_PAM : BACKEND_SUDO;
}

static int load_project(struct loader *ld, config_setting_t *ps,
			struct ruas_project *p, const char *const *global_allow,
			const char *const *global_prune, const struct defaults *def)
{
	const char *name, *work_dir, *user;
	int r;

	ld->project = NULL;
	p->line = (int)config_setting_source_line(ps);
	if (!config_setting_is_group(ps))
		return fail(ld, ps, "each entry of \"projects\" must be a group { ... }");
	if ((r = get_string(ld, ps, "name", &name)) < 0)
		return r;
	if (!name)
		return fail(ld, ps, "a project has no \"name\"");
	if (!project_name_is_valid(name)) {
		struct buf qn = BUF_INIT;
		quote_display_dq(&qn, name);
		int fr = fail(ld, config_setting_get_member(ps, "name"),
			      "project name %s is invalid; use letters, digits "
			      "and _ . @ + - (at most 128, starting with a letter "
			      "or digit)", qn.data ? qn.data : "");
		buf_free(&qn);
		return fr;
	}
	ld->project = name;
	if ((r = check_keys(ld, ps, project_keys, "in a project")) < 0)
		return r;
	if (dup_into(ld, &p->name, name) < 0)
		return RUAS_ERR_NOMEM;

	if ((r = get_string(ld, ps, "work_dir", &work_dir)) < 0)
		return r;
	if (!work_dir)
		return fail(ld, ps, "missing key \"work_dir\"");
	if (work_dir[0] != '/')
		return fail(ld, config_setting_get_member(ps, "work_dir"),
			    "work_dir must be an absolute path");
	if (dup_into(ld, &p->work_dir, work_dir) < 0)
		return RUAS_ERR_NOMEM;

	config_setting_t *cs = config_setting_get_member(ps, "command");
	if (!cs)
		return fail(ld, ps, "missing key \"command\"");
	if ((r = get_string_list(ld, cs, "command", &p->command, &p->ncommand, 0,
				 NULL)) < 0)
		return r;
	if (p->ncommand == 0 || p->command[0][0] == '\0')
		return fail(ld, cs, "command must be a non-empty list whose first "
			    "element names a program");

	if ((r = get_string(ld, ps, "run_as_user", &user)) < 0)
		return r;
	const char *person;
	if ((r = get_string(ld, ps, "person", &person)) < 0)
		return r;
	if (person) {
		const struct ruas_person *m = people_find(ld->cfg, person);
		config_setting_t *pset = config_setting_get_member(ps, "person");
		if (!m)
			return fail(ld, pset, "person \"%s\" is not a member of the people block",
				    ld->cfg->people ? person : "(there is no people block)");
		if (user && strcmp(user, m->run_as_user) != 0)
			return fail(ld, pset, "run_as_user \"%s\" differs from person \"%s\"'s "
				    "run_as_user \"%s\"; omit it or make them equal",
				    user, person, m->run_as_user);
		user = m->run_as_user;
		if (dup_into(ld, &p->person, person) < 0)
			return RUAS_ERR_NOMEM;
	}
	config_setting_t *dsa = config_setting_get_member(ps, "deny_settings_args");
	if (dsa) {
		if (!person)
			return fail(ld, dsa, "deny_settings_args needs a person");
		if ((r = get_string_list(ld, dsa, "deny_settings_args", &p->deny_settings_args,
					 &p->ndeny_args, 0, NULL)) < 0)
			return r;
	}
	if (user) {
		if ((r = check_run_as_user(ld, config_setting_get_member(ps, "run_as_user"),
					   user)) < 0)
			return r;
		if (dup_into(ld, &p->run_as_user, user) < 0)
			return RUAS_ERR_NOMEM;
	}

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
	if (sp) {
		if ((r = get_string_list(ld, sp, "scan_prune", &p->scan_prune,
					 &p->nprune, 1, prune_problem)) < 0)
			return r;
		if (!p->scan_prune && !(p->scan_prune = calloc(1, sizeof(char *))))
			return oom(ld);
	} else if ((r = copy_strv(ld, global_prune, &p->scan_prune, &p->nprune)) < 0)
		return r;

	const char *service = def->pam_service;
	p->backend = def->backend;
	p->terminate_grace = def->terminate_grace;
	if ((r = get_backend(ld, ps, &p->backend)) < 0 ||
	    (r = get_service(ld, ps, &service)) < 0 ||
	    (r = get_grace(ld, ps, &p->terminate_grace)) < 0)
		return r;
	if (dup_into(ld, &p->pam_service, service) < 0)
		return RUAS_ERR_NOMEM;
	ld->project = NULL;
	return 0;
}


void ruas_config_free(ruas_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->nprojects; i++) {
		struct ruas_project *p = &cfg->projects[i];
		free(p->name);
		free(p->work_dir);
		free(p->run_as_user);
		strv_free(p->command);
		strv_free(p->env_allowlist);
		strv_free(p->scan_prune);
		free(p->pam_service);
		free(p->person);
		strv_free(p->deny_settings_args);
		strv_free(p->target_sudo_allowed);
	}
	if (cfg->people) {
		for (size_t i = 0; i < cfg->people->nmembers; i++) {
			free(cfg->people->members[i].id);
			free(cfg->people->members[i].run_as_user);
		}
		free(cfg->people->members);
		free(cfg->people->worktrees);
		free(cfg->people->credentials);
		free(cfg->people->claude_projects);
		free(cfg->people);
	}
	free(cfg->projects);
	free(cfg->path);
	free(cfg->sudo);
	free(cfg->helper);
	free(cfg->session_helper);
	free(cfg->supervisor_name);
	strv_free(cfg->target_sudo_allowed);
	free(cfg);
}

static int load_globals(struct loader *ld, config_t *lc, char ***allow,
			size_t *nallow, char ***prune, size_t *nprune,
			struct defaults *def)
{
	config_setting_t *root = config_root_setting(lc);
	int r;

	if ((r = check_keys(ld, root, global_keys, "at the top level")) < 0)
		return r;
	if ((r = get_abs_path(ld, root, "", "sudo", 0, RUAS_SUDO_PATH, &ld->cfg->sudo)) < 0 ||
	    (r = get_abs_path(ld, root, "", "helper", 0, RUAS_HELPER_PATH, &ld->cfg->helper)) < 0 ||
	    (r = get_abs_path(ld, root, "", "session_helper", 0, RUAS_SESSION_PATH,
			      &ld->cfg->session_helper)) < 0)
		return r;
	size_t nsudo = 0;
	if ((r = get_sudo_allowed(ld, root, &ld->cfg->target_sudo_allowed, &nsudo)) < 0)
		return r;
	if ((r = get_backend(ld, root, &def->backend)) < 0 ||
	    (r = get_service(ld, root, &def->pam_service)) < 0 ||
	    (r = get_grace(ld, root, &def->terminate_grace)) < 0)
		return r;

	config_setting_t *lim = config_setting_get_member(root, "scan_time_limit");
	ld->cfg->scan_time_limit = DEFAULT_SCAN_TIME_LIMIT;
	if (lim) {
		if (config_setting_type(lim) != CONFIG_TYPE_INT)
			return fail(ld, lim, "scan_time_limit must be a whole number of seconds");
		int v = config_setting_get_int(lim);
		if (v < 1 || v > 86400)
			return fail(ld, lim, "scan_time_limit must be between 1 and 86400 seconds");
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
		return oom(ld);

	config_setting_t *ps = config_setting_get_member(root, "scan_prune");
	if (ps) {
		if ((r = get_string_list(ld, ps, "scan_prune", prune, nprune, 1,
					 prune_problem)) < 0)
			return r;
	} else if ((r = copy_strv(ld, default_prune, prune, nprune)) < 0)
		return r;
	if (!*prune && !(*prune = calloc(1, sizeof(char *))))
		return oom(ld);
	return 0;
}

static int person_id_valid(const char *id)
{
	if (!((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= '0' && id[0] <= '9')) ||
	    strlen(id) > 64)
		return 0;
	for (const char *c = id; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
		      *c == '-'))
			return 0;
	return 1;
}

static int load_people(struct loader *ld, config_t *lc)
{
	config_setting_t *g = config_setting_get_member(config_root_setting(lc), "people");
	int r;
	if (!g)
		return 0;
	if (!config_setting_is_group(g))
		return fail(ld, g, "people must be a group: people = { ... };");
	if ((r = check_keys(ld, g, people_keys, "in people")) < 0)
		return r;
	struct ruas_people *pp = calloc(1, sizeof *pp);
	if (!pp)
		return oom(ld);
	ld->cfg->people = pp;
	if ((r = get_abs_path(ld, g, "people: ", "worktrees", 1, NULL, &pp->worktrees)) < 0 ||
	    (r = get_abs_path(ld, g, "people: ", "credentials", 1, NULL, &pp->credentials)) < 0 ||
	    (r = get_abs_path(ld, g, "people: ", "claude_projects", 0, NULL,
			      &pp->claude_projects)) < 0)
		return r;
	const char *enforce;
	if ((r = get_string(ld, g, "enforce", &enforce)) < 0)
		return r;
	if (enforce && strcmp(enforce, "bwrap") != 0 && strcmp(enforce, "none") != 0)
		return fail(ld, config_setting_get_member(g, "enforce"),
			    "people: enforce must be \"none\" or \"bwrap\"");
	pp->enforce_bwrap = enforce && strcmp(enforce, "bwrap") == 0;
	config_setting_t *ms = config_setting_get_member(g, "members");
	if (!ms)
		return fail(ld, g, "people: missing key \"members\"");
	if (config_setting_type(ms) != CONFIG_TYPE_LIST)
		return fail(ld, ms, "people: members must be a list: members = ( { ... } );");
	int n = config_setting_length(ms);
	if (!(pp->members = calloc((size_t)n + 1, sizeof *pp->members)))
		return oom(ld);
	for (int i = 0; i < n; i++) {
		config_setting_t *m = config_setting_get_elem(ms, (unsigned)i);
		struct ruas_person *pe = &pp->members[i];
		const char *id, *user;
		pp->nmembers = (size_t)i + 1;
		pe->line = (int)config_setting_source_line(m);
		if (!config_setting_is_group(m))
			return fail(ld, m, "people: each member must be a group { id = ...; run_as_user = ...; }");
		if ((r = check_keys(ld, m, member_keys, "in a people member")) < 0 ||
		    (r = get_string(ld, m, "id", &id)) < 0 ||
		    (r = get_string(ld, m, "run_as_user", &user)) < 0)
			return r;
		if (!id || !user)
			return fail(ld, m, "people: a member needs id and run_as_user");
		if (!person_id_valid(id)) {
			struct buf q = BUF_INIT;
			quote_display_dq(&q, id);
			r = fail(ld, m, "people: member id %s is invalid (pattern ^[a-z0-9][a-z0-9_-]*$)",
				 q.data ? q.data : "");
			buf_free(&q);
			return r;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(pp->members[j].id, id) == 0)
				return fail(ld, m, "people: duplicate member id \"%s\"", id);
		if ((r = check_run_as_user(ld, config_setting_get_member(m, "run_as_user"), user)) < 0)
			return r;
		if (dup_into(ld, &pe->id, id) < 0 || dup_into(ld, &pe->run_as_user, user) < 0)
			return RUAS_ERR_NOMEM;
	}
	return 0;
}

const struct ruas_person *people_find(const struct ruas_config *cfg, const char *id)
{
	for (size_t i = 0; cfg->people && i < cfg->people->nmembers; i++)
		if (strcmp(cfg->people->members[i].id, id) == 0)
			return &cfg->people->members[i];
	return NULL;
}

char *people_scope(const struct ruas_people *pp, const char *id)
{
	return path_join(pp->worktrees, id);
}

static int load_projects(struct loader *ld, config_t *lc, char **allow,
			 char **prune, const struct defaults *def)
{
	config_setting_t *root = config_root_setting(lc);
	config_setting_t *list = config_setting_get_member(root, "projects");
	if (!list)
		return fail(ld, NULL, "missing key \"projects\"");
	if (config_setting_type(list) != CONFIG_TYPE_LIST)
		return fail(ld, list, "\"projects\" must be a list: projects = ( { ... }, { ... } );");
	int n = config_setting_length(list);
	ld->cfg->projects = calloc((size_t)n + 1, sizeof *ld->cfg->projects);
	if (!ld->cfg->projects)
		return oom(ld);
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
				return fail(ld, ps, "duplicate project name \"%s\" (first at line %d)",
					    p->name, ld->cfg->projects[j].line);
			}
	}
	return 0;
}

static int set_supervisor(struct loader *ld, const ruas_config_options *opts)
{
	uid_t uid = opts && opts->supervisor_uid != (uid_t)-1 ? opts->supervisor_uid
							    : geteuid();
	ld->cfg->supervisor_uid = uid;
	struct account acct;
	int r = account_lookup_uid(uid, &acct);
	if (r == ACCOUNT_FOUND) {
		ld->cfg->supervisor_name = acct.name;
		acct.name = NULL;
		account_clear(&acct);
	} else {
		struct buf b = BUF_INIT;
		buf_printf(&b, "#%u", (unsigned)uid);
		ld->cfg->supervisor_name = buf_detach(&b);
	}
	return ld->cfg->supervisor_name ? 0 : oom(ld);
}

/*
 * libconfig follows @include by itself, to files that the ownership check
 * never saw. One file, checked, is the configuration.
 */
static int refuse_includes(struct loader *ld, const char *text)
{
	int line = 1;
	for (const char *p = text; *p; line++) {
		const char *q = p + strspn(p, " \t\r\f\v");
		if (strncmp(q, "@include", 8) == 0)
			return error_set(ld->err, RUAS_ERR_CONFIG, ld->file, line, 0,
					 "%s:%d: @include is not supported: an included "
					 "file would escape the ownership check; put "
					 "everything in this file", ld->file, line);
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static int load_text(struct loader *ld, const char *text,
		     const ruas_config_options *opts)
{
	config_t lc;
	char **allow = NULL, **prune = NULL;
	size_t nallow = 0, nprune = 0;
	int r;

	if ((r = refuse_includes(ld, text)) < 0)
		return r;
	config_init(&lc);
	if (set_supervisor(ld, opts) < 0) {
		config_destroy(&lc);
		return RUAS_ERR_NOMEM;
	}
	if (config_read_string(&lc, text) != CONFIG_TRUE) {
		int line = config_error_line(&lc);
		const char *file = config_error_file(&lc);
		r = error_set(ld->err, RUAS_ERR_CONFIG, file ? file : ld->file, line,
			      0, "%s:%d: syntax error: %s", file ? file : ld->file,
			      line, config_error_text(&lc));
		config_destroy(&lc);
		return r;
	}
	struct defaults def = {BACKEND_AUTO, DEFAULT_PAM_SERVICE, DEFAULT_TERMINATE_GRACE};
	r = load_globals(ld, &lc, &allow, &nallow, &prune, &nprune, &def);
	if (r == 0)
		r = load_people(ld, &lc);
	if (r == 0)
		r = load_projects(ld, &lc, allow, prune, &def);
	strv_free(allow);
	strv_free(prune);
	config_destroy(&lc);
	return r;
}

int ruas_config_load_buffer(ruas_config **out, const char *text, size_t len,
			    const char *name, const ruas_config_options *opts,
			    ruas_error **err)
{
	struct loader ld = {name ? name : "(buffer)", err, NULL, NULL};
	*out = NULL;
	if (error_options_version(err, "ruas_config_load", opts ? &opts->version : NULL,
				  RUAS_CONFIG_OPTIONS_VERSION, RUAS_CONFIG_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	if (!text || memchr(text, '\0', len))
		return error_set(err, RUAS_ERR_CONFIG, ld.file, 0, 0,
				 "%s: configuration contains a NUL byte", ld.file);
	char *copy = strndup(text, len);
	ld.cfg = calloc(1, sizeof *ld.cfg);
	if (!copy || !ld.cfg || !(ld.cfg->path = strdup(ld.file))) {
		free(copy);
		ruas_config_free(ld.cfg);
		return oom(&ld);
	}
	int r = load_text(&ld, copy, opts);
	free(copy);
	if (r < 0) {
		ruas_config_free(ld.cfg);
		return r;
	}
	*out = ld.cfg;
	return 0;
}

/*
 * The configuration decides who runs what as whom. Like sshd with its
 * files, refuse one that someone besides root and the supervisor could
 * have changed.
 */
static int check_file_owner(const char *path, const struct stat *st,
			    const ruas_config_options *opts, ruas_error **err)
{
	uid_t sup = opts && opts->supervisor_uid != (uid_t)-1 ? opts->supervisor_uid
							    : geteuid();
	if (st->st_uid != 0 && st->st_uid != sup)
		return error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				 "%s: owned by uid %u, which is neither root nor the "
				 "supervisor; fix with: chown root %s",
				 path, (unsigned)st->st_uid, path);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				 "%s: writable by group or others (mode %03o), so "
				 "another user could choose what runs as whom; fix "
				 "with: chmod go-w %s",
				 path, (unsigned)(st->st_mode & 07777), path);
	return 0;
}

int ruas_config_load(ruas_config **out, const char *path,
		     const ruas_config_options *opts, ruas_error **err)
{
	struct stat st;
	struct buf text = BUF_INIT;
	*out = NULL;
	if (!path)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0, "no configuration path");
	if (error_options_version(err, "ruas_config_load", opts ? &opts->version : NULL,
				  RUAS_CONFIG_OPTIONS_VERSION, RUAS_CONFIG_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		return error_set(err, RUAS_ERR_CONFIG, path, 0, e,
				 "%s: cannot open: %s", path, strerror(e));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				 "%s: not a regular file", path);
	}
	int r = (opts && opts->skip_owner_check) ? 0
						 : check_file_owner(path, &st, opts, err);
	while (r == 0) {
		if (buf_reserve(&text, 65536) < 0) {
			r = error_set(err, RUAS_ERR_NOMEM, path, 0, ENOMEM, "out of memory");
			break;
		}
		ssize_t n = read(fd, text.data + text.len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			r = error_set(err, RUAS_ERR_CONFIG, path, 0, e,
				      "%s: cannot read: %s", path, strerror(e));
			break;
		}
		if (n == 0)
			break;
		text.len += (size_t)n;
		text.data[text.len] = '\0';
		if (text.len > CONFIG_MAX_BYTES)
			r = error_set(err, RUAS_ERR_CONFIG, path, 0, 0,
				      "%s: larger than 4 MiB", path);
	}
	close(fd);
	if (r == 0)
		r = ruas_config_load_buffer(out, text.data ? text.data : "", text.len,
					    path, opts, err);
	buf_free(&text);
	return r;
}

const char *ruas_config_path(const ruas_config *cfg)
{
	return cfg->path;
}

const char *ruas_config_sudo(const ruas_config *cfg)
{
	return cfg->sudo;
}

const char *ruas_config_helper(const ruas_config *cfg)
{
	return cfg->helper;
}

size_t ruas_config_project_count(const ruas_config *cfg)
{
	return cfg->nprojects;
}

const ruas_project *ruas_config_project_at(const ruas_config *cfg, size_t i)
{
	return i < cfg->nprojects ? &cfg->projects[i] : NULL;
}

const ruas_project *ruas_config_project_find(const ruas_config *cfg,
					      const char *name)
{
	for (size_t i = 0; name && i < cfg->nprojects; i++)
		if (strcmp(cfg->projects[i].name, name) == 0)
			return &cfg->projects[i];
	return NULL;
}

const char *ruas_project_name(const ruas_project *p) { return p->name; }
const char *ruas_project_person(const ruas_project *p) { return p->person; }

unsigned int ruas_project_terminate_grace(const ruas_project *p)
{
	return p->terminate_grace;
}

const char *ruas_project_backend(const ruas_project *p)
{
	if (!p->run_as_user)
		return "none";
	return project_backend(p) == BACKEND_PAM ? "pam" : "sudo";
}
const char *ruas_project_work_dir(const ruas_project *p) { return p->work_dir; }
const char *ruas_project_run_as_user(const ruas_project *p) { return p->run_as_user; }

const char *const *ruas_project_command(const ruas_project *p)
{
	return (const char *const *)p->command;
}

const char *const *ruas_project_env_allowlist(const ruas_project *p)
{
	return (const char *const *)p->env_allowlist;
}

const char *const *ruas_project_target_sudo_allowed(const ruas_project *p)
{
	static const char *const none[] = {NULL};
	return p->target_sudo_allowed ? (const char *const *)p->target_sudo_allowed : none;
}
