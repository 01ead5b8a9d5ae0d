/* SPDX-License-Identifier: ISC */
/*
 * config.c - the schema of ruas.conf: its keys, their types, defaults and
 * what each refuses, for the top level and the values that projects share
 * (the projects are in project.c, the people block in people.c, reading the
 * file in file.c, values from code in new.c).
 *
 * Everything that could weaken isolation is refused at load: unknown keys (a
 * typo must not silently drop run_as_user), mistyped values, run_as_user
 * that is root, uid 0 or the supervisor, and allowlisted variables that
 * would reach into the target's login environment or loader. The rules
 * here judge values wherever they come from: a file, or a struct filled in
 * code (source.c).
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
	"terminate_grace", "people", "target_sudo_allowed", "lifetime", "audit_facility",
	"audit_log", "audit_argv", "audit_argv_max", "host_check_interval", "open_files_max",
	"file_size_max", "core_dumps", "wall_time_max", "memory_max", "memory_swap_max",
	"tasks_max", "cpu_max", "cgroup_parent", "supervisor", "require_command", "credentials",
	"git_hosts", "claude_api_key", NULL};

__attribute__((format(printf, 3, 0))) static int ld_vfail(struct loader *ld, int line,
							  const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT;
	if (ld->file) {
		buf_adds(&b, ld->file);
		if (line > 0)
			buf_printf(&b, ":%d", line);
		buf_adds(&b, ": ");
	}
	if (ld->project) {
		buf_adds(&b, "project ");
		quote_display_dq(&b, ld->project);
		buf_adds(&b, ": ");
	}
	buf_vprintf(&b, fmt, ap);
	error_set(ld->err, RUAS_ERR_CONFIG, ld->file, ld->file ? line : 0, 0, "%s",
		  b.data ? b.data : "out of memory");
	buf_free(&b);
	return RUAS_ERR_CONFIG;
}

int ld_fail(struct loader *ld, const config_setting_t *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = ld_vfail(ld, ld_line(s), fmt, ap);
	va_end(ap);
	return r;
}

int ld_fail_at(struct loader *ld, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = ld_vfail(ld, line, fmt, ap);
	va_end(ap);
	return r;
}

int ld_oom(struct loader *ld)
{
	if (!ld->file)
		return error_set(ld->err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	return error_set(ld->err, RUAS_ERR_NOMEM, ld->file, 0, ENOMEM,
			 "%s: out of memory", ld->file);
}

int ld_get_list(struct loader *ld, const struct src *s, const char *key, char ***vec,
		size_t *n, int dedup, const char *(*check)(const char *), int *given)
{
	struct src_val lv;
	int r = src_list(ld, s, key, &lv);
	if (given)
		*given = lv.present;
	for (size_t i = 0; r == 0 && i < lv.n; i++) {
		const char *v;
		int line;
		if ((r = src_elem(ld, &lv, key, i, &v, &line)) < 0)
			break;
		const char *why = check ? check(v) : NULL;
		if (why) {
			struct buf q = BUF_INIT;
			quote_display_dq(&q, v);
			r = ld_fail_at(ld, line, "key \"%s\": %s %s", key, q.data ? q.data : "", why);
			buf_free(&q);
		} else if (!(dedup && strv_contains((const char *const *)*vec, v)) &&
			   strv_push(vec, n, strdup(v)) < 0) {
			r = ld_oom(ld);
		}
	}
	return r;
}

int ld_copy_strv(struct loader *ld, const char *const *src, char ***vec, size_t *n)
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

const char *ld_prune_problem(const char *v)
{
	if (!*v || strchr(v, '/') || strcmp(v, ".") == 0 || strcmp(v, "..") == 0)
		return "must be a plain file name (no '/', not empty, not . or ..)";
	return NULL;
}

int ld_abs_path(struct loader *ld, const struct src *s, const char *where, const char *key,
		int required, const char *dflt, char **out)
{
	struct src_val v;
	int r = src_string(ld, s, key, &v);
	if (r < 0)
		return r;
	if (!v.present && required)
		return ld_fail_at(ld, src_line(s), "%smissing key \"%s\"", where, key);
	if (v.present && v.str[0] != '/')
		return ld_fail_at(ld, v.line, "%s%s must be an absolute path", where, key);
	if (!v.present && !dflt)
		return 0;
	return ld_dup(ld, out, v.present ? v.str : dflt);
}

int ld_run_as_user(struct loader *ld, int line, const char *user)
{
	const char *why = user_name_problem(user);
	struct buf q = BUF_INIT;
	quote_display_dq(&q, user);
	const char *qu = q.data ? q.data : "";
	int r = 0;
	if (why)
		r = ld_fail_at(ld, line, "run_as_user %s %s", qu, why);
	else if (strcmp(user, "root") == 0)
		r = ld_fail_at(ld, line, "run_as_user %s is root; a project must run as a "
			       "dedicated unprivileged user", qu);
	else if (strcmp(user, ld->cfg->supervisor_name) == 0 ||
		 (ld->cfg->supervisor && strcmp(user, ld->cfg->supervisor) == 0))
		r = ld_fail_at(ld, line, "run_as_user %s is the supervisor itself, which "
			       "gives no isolation; create a dedicated user", qu);
	else {
		struct account acct;
		int lr = account_lookup(user, &acct);
		if (lr == ACCOUNT_FOUND && acct.uid == 0)
			r = ld_fail_at(ld, line, "run_as_user %s has uid 0, so it is root; "
				       "a project must run as an unprivileged user", qu);
		else if (lr == ACCOUNT_FOUND && acct.uid == ld->cfg->supervisor_uid)
			r = ld_fail_at(ld, line, "run_as_user %s has the supervisor's uid %u, "
				       "which gives no isolation", qu, (unsigned)acct.uid);
		else if (lr == ACCOUNT_ERROR)
			r = ld_fail_at(ld, line, "run_as_user %s: the user database could not "
				       "be read", qu);
		if (lr == ACCOUNT_FOUND)
			account_clear(&acct);
	}
	buf_free(&q);
	return r;
}

int ld_backend(struct loader *ld, const struct src *s, enum backend *out)
{
	struct src_val v;
	int r = src_string(ld, s, "backend", &v);
	if (r < 0 || !v.present)
		return r;
	if (strcmp(v.str, "auto") == 0)
		*out = BACKEND_AUTO;
	else if (strcmp(v.str, "sudo") == 0)
		*out = BACKEND_SUDO;
	else if (strcmp(v.str, "pam") == 0)
		*out = BACKEND_PAM;
	else
		return ld_fail_at(ld, v.line, "backend must be \"sudo\", \"pam\" or \"auto\"");
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

int ld_service(struct loader *ld, const struct src *s, const char **out)
{
	struct src_val v;
	int r = src_string(ld, s, "pam_service", &v);
	if (r < 0 || !v.present)
		return r;
	const char *why = service_problem(v.str);
	if (why)
		return ld_fail_at(ld, v.line, "pam_service %s", why);
	*out = v.str;
	return 0;
}

int ld_grace(struct loader *ld, const struct src *s, unsigned int *out)
{
	struct src_val v;
	int r = src_int(ld, s, "terminate_grace",
			"terminate_grace must be a whole number of seconds", &v);
	if (r < 0 || !v.present)
		return r;
	if (v.num < 0 || v.num > 3600)
		return ld_fail_at(ld, v.line, "terminate_grace must be between 0 and 3600 seconds");
	*out = (unsigned int)v.num;
	return 0;
}

int ld_word(struct loader *ld, const struct src *s, const char *key, const char *const *words,
	    const char *refusal, int *index)
{
	struct src_val v;
	int r = src_string(ld, s, key, &v);
	if (r < 0 || !v.present)
		return r;
	for (int i = 0; words[i]; i++)
		if (strcmp(v.str, words[i]) == 0) {
			*index = i;
			return 0;
		}
	return ld_fail_at(ld, v.line, "%s", refusal);
}

int ld_lifetime(struct loader *ld, const struct src *s, enum lifetime *out)
{
	static const char *const words[] = {"auto", "pidns", "subreaper", NULL};
	int i = (int)*out;
	int r = ld_word(ld, s, "lifetime", words,
			"lifetime must be \"pidns\", \"subreaper\" or \"auto\"", &i);
	*out = (enum lifetime)i; /* words in the order of enum lifetime */
	return r;
}

/* sudo, helper, session_helper: the programs the library runs. */
static int global_programs(struct loader *ld, const struct src *s)
{
	struct ruas_config *cfg = ld->cfg;
	int r;
	if ((r = ld_abs_path(ld, s, "", "sudo", 0, RUAS_SUDO_PATH, &cfg->sudo)) < 0 ||
	    (r = ld_abs_path(ld, s, "", "helper", 0, RUAS_HELPER_PATH, &cfg->helper)) < 0 ||
	    (r = ld_abs_path(ld, s, "", "session_helper", 0, RUAS_SESSION_PATH,
			     &cfg->session_helper)) < 0)
		return r;
	size_t nsudo = 0;
	return ld_get_list(ld, s, "target_sudo_allowed", &cfg->target_sudo_allowed, &nsudo, 1,
			   sudo_allowed_problem, NULL);
}

/* backend, pam_service, terminate_grace, lifetime, the limits: what a project may override. */
static int global_overrides(struct loader *ld, const struct src *s)
{
	struct ruas_config *cfg = ld->cfg;
	const char *service = DEFAULT_PAM_SERVICE;
	int r;
	cfg->backend = BACKEND_AUTO;
	cfg->terminate_grace = DEFAULT_TERMINATE_GRACE;
	cfg->lifetime = LIFETIME_CFG_AUTO;
	if ((r = ld_backend(ld, s, &cfg->backend)) < 0 || (r = ld_service(ld, s, &service)) < 0 ||
	    (r = ld_grace(ld, s, &cfg->terminate_grace)) < 0 ||
	    (r = ld_lifetime(ld, s, &cfg->lifetime)) < 0 || (r = ld_limits(ld, s, &cfg->limits)) < 0 ||
	    (r = ld_require_command(ld, s, &cfg->require_command)) < 0)
		return r;
	return ld_dup(ld, &cfg->pam_service, service);
}

static int global_scan_time_limit(struct loader *ld, const struct src *s)
{
	struct src_val v;
	int r = src_int(ld, s, "scan_time_limit",
			"scan_time_limit must be a whole number of seconds", &v);
	ld->cfg->scan_time_limit = DEFAULT_SCAN_TIME_LIMIT;
	if (r < 0 || !v.present)
		return r;
	if (v.num < 1 || v.num > 86400)
		return ld_fail_at(ld, v.line, "scan_time_limit must be between 1 and 86400 seconds");
	ld->cfg->scan_time_limit = (unsigned)v.num;
	return 0;
}

/* How long a walk of the host's trees stays good for ruas run (src/lib/host/cache.h). */
static int global_host_check_interval(struct loader *ld, const struct src *s)
{
	struct src_val v;
	int r = src_int(ld, s, "host_check_interval",
			"host_check_interval must be a whole number of seconds", &v);
	ld->cfg->host_check_interval = DEFAULT_HOST_CHECK_INTERVAL;
	if (r < 0 || !v.present)
		return r;
	if (v.num < 0 || v.num > 86400)
		return ld_fail_at(ld, v.line,
				  "host_check_interval must be between 0 (judge the host every "
				  "time) and 86400 seconds");
	ld->cfg->host_check_interval = (unsigned)v.num;
	return 0;
}

/*
 * Where runs' cgroups are made: a directory of a cgroup v2 hierarchy,
 * written as its path, absolute and plain (no "." or ".." part, no "//",
 * no trailing "/", no control character), so that what the check judged is
 * where runs go. Whether it is a cgroup, and one the supervisor may use, is
 * the check's and each run's to see: the host can change.
 */
static int global_cgroup_parent(struct loader *ld, const struct src *s)
{
	struct src_val v;
	int r = src_string(ld, s, "cgroup_parent", &v);
	if (r < 0 || !v.present)
		return r;
	const char *p = v.str;
	size_t len = strlen(p);
	int plain = p[0] == '/' && len > 1 && len < 4096 && p[len - 1] != '/';
	for (size_t i = 0; plain && i < len; i++) {
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			plain = 0;
		if (p[i] == '/') {
			/* "//", "/./", "/../", and "/." or "/.." at the end */
			size_t dots = strspn(p + i + 1, ".");
			char after = p[i + 1 + dots];
			if (dots <= 2 && (after == '/' || after == '\0'))
				plain = 0;
		}
	}
	if (!plain) {
		/* The value quoted, so that the message stays one line. */
		struct buf q = BUF_INIT;
		quote_display_dq(&q, p);
		r = ld_fail_at(ld, v.line,
			       "cgroup_parent %s must be an absolute path of a cgroup v2 "
			       "directory, without \".\" or \"..\" parts, \"//\" or a trailing "
			       "\"/\" (for example \"/sys/fs/cgroup/system.slice/bridge.service/"
			       "runs\")",
			       q.data ? q.data : "");
		buf_free(&q);
		return r;
	}
	if (!(ld->cfg->cgroup_parent = strdup(p)))
		return ld_oom(ld);
	return 0;
}

/*
 * supervisor: the user the supervisor runs as (sudo backend), whose
 * ruas-setup fragments ruas check and ruas-setup prune judge. A plain user
 * name, not root: root needs no sudoers rule. Read from a file only; a
 * configuration made in code (ruas_config_new) has none.
 */
static int global_supervisor(struct loader *ld, const struct src *s)
{
	struct src_val v;
	/* A file's key only: ruas_config_globals has no field for it (yet). */
	if (!s->group)
		return 0;
	int r = src_string(ld, s, "supervisor", &v);
	if (r < 0 || !v.present)
		return r;
	const char *why = user_name_problem(v.str);
	struct account acct;
	int lr = why ? ACCOUNT_MISSING : account_lookup(v.str, &acct);
	int root = !why && (strcmp(v.str, "root") == 0 || (lr == ACCOUNT_FOUND && acct.uid == 0));
	if (lr == ACCOUNT_FOUND)
		account_clear(&acct);
	if (why || root || lr == ACCOUNT_ERROR) {
		struct buf q = BUF_INIT;
		quote_display_dq(&q, v.str);
		r = ld_fail_at(ld, v.line, "supervisor %s %s", q.data ? q.data : "",
			       why ? why
			       : root ? "is root (or has uid 0), which needs no sudoers rule; name "
					"the user the supervisor runs as"
				      : "could not be looked up in the user database");
		buf_free(&q);
		return r;
	}
	return ld_dup(ld, &ld->cfg->supervisor, v.str);
}

/* A global list: the key's, or dflt when absent; never NULL. */
static int global_list(struct loader *ld, const struct src *s, const char *key,
		       const char *const *dflt, const char *(*check)(const char *), char ***vec)
{
	size_t n = 0;
	int given, r = ld_get_list(ld, s, key, vec, &n, 1, check, &given);
	if (r < 0)
		return r;
	if (!given)
		return ld_copy_strv(ld, dflt, vec, &n);
	if (!*vec && !(*vec = calloc(1, sizeof **vec)))
		return ld_oom(ld);
	return 0;
}

int schema_globals(struct loader *ld, const struct src *s)
{
	int r;
	if ((r = src_keys(ld, s, global_keys, "at the top level")) < 0 ||
	    (r = global_programs(ld, s)) < 0 || (r = global_overrides(ld, s)) < 0 ||
	    (r = global_scan_time_limit(ld, s)) < 0 ||
	    (r = global_host_check_interval(ld, s)) < 0 || (r = schema_audit(ld, s)) < 0 ||
	    (r = global_cgroup_parent(ld, s)) < 0 || (r = global_supervisor(ld, s)) < 0 ||
	    (r = ld_credentials(ld, s, &ld->cfg->credentials)) < 0 ||
	    (r = ld_git_hosts(ld, s, &ld->cfg->git_hosts)) < 0 ||
	    (r = ld_claude_api_key(ld, s, &ld->cfg->claude_api_key,
				   &ld->cfg->claude_api_key_line)) < 0 ||
	    (r = global_list(ld, s, "env_allowlist", default_allowlist, env_name_refusal,
			     &ld->cfg->env_allowlist)) < 0)
		return r;
	return global_list(ld, s, "scan_prune", default_prune, ld_prune_problem,
			   &ld->cfg->scan_prune);
}
