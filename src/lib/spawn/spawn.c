/*
 * spawn.c - starting a project's agent, and the child handle.
 *
 * With run_as_user: sudo -n -iu USER -- ruas-exec HEX, sudo started with an
 * empty environment so that nothing of the supervisor's crosses but the
 * allowlisted values inside the payload. Without: the command itself, as
 * the supervisor, in work_dir, with the supervisor's environment.
 * Either way the child gets an empty signal mask, default dispositions and
 * no descriptor above 2. posix_spawn keeps this safe in threaded hosts.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config_int.h"
#include "buf.h"
#include "people/deny.h"
#include "spawn/envfilter.h"
#include "error.h"
#include "exit_status.h"
#include "payload.h"
#include "proc.h"
#include "ruas.h"
#include "spawn_attr.h"
#include "spawn/spawn_int.h"
#include "spawn/sudo_call.h"

extern char **environ;

struct ruas_child {
	pid_t pid;
	char *files; /* per-spawn directory of deny files, removed at free */
	pthread_mutex_t lock;
	int reaped;
	int exit_code;
};

/* The argv of the agent: the command, then the caller's arguments. */
static char **join_argv(const struct ruas_project *p, const char *const *args,
			size_t *argc)
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

/* What a person-scoped spawn adds: its deny list and the files made for it. */
struct extras {
	struct deny_list dl;
	char *dir;        /* /tmp/ruas-deny-XXXXXX, 0711 */
	char *list_path;  /* DIR/deny.list */
	char *settings;   /* DIR/settings.json */
	char **args;      /* deny_settings_args with {file} replaced */
	size_t nargs;
	char *scope;
};

static void extras_free(struct extras *x, int keep_files)
{
	if (x->dir && !keep_files) {
		if (x->list_path)
			unlink(x->list_path);
		if (x->settings)
			unlink(x->settings);
		rmdir(x->dir);
	}
	deny_list_free(&x->dl);
	free(x->dir);
	free(x->list_path);
	free(x->settings);
	for (size_t i = 0; i < x->nargs; i++)
		free(x->args[i]);
	free(x->args);
	free(x->scope);
	memset(x, 0, sizeof *x);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	int ok = write(fd, text, n) == (ssize_t)n && fchmod(fd, 0644) == 0;
	return close(fd) == 0 && ok ? 0 : -1;
}

static char *replace_file(const char *arg, const char *file)
{
	struct buf b = BUF_INIT;
	for (const char *a = arg; *a;) {
		const char *hit = strstr(a, "{file}");
		if (!hit) {
			buf_adds(&b, a);
			break;
		}
		buf_add(&b, a, (size_t)(hit - a));
		buf_adds(&b, file);
		a = hit + 6;
	}
	return buf_detach(&b);
}

/*
 * The deny list is computed afresh at every spawn, so directories made since
 * are on it. The files are the supervisor's, 0644 in a 0711 directory: the
 * agent can read them by name, cannot list the directory, cannot write.
 */
static int build_extras(const struct ruas_config *cfg, const struct ruas_project *p,
			struct extras *x, ruas_error **err)
{
	memset(x, 0, sizeof *x);
	if (!p->person)
		return 0;
	int r = deny_list_compute(cfg, p->person, &x->dl, err);
	if (r < 0)
		return r;
	char tmpl[] = "/tmp/ruas-deny-XXXXXX";
	struct buf lines = BUF_INIT;
	char *settings_json = deny_claude_settings(&x->dl);
	for (size_t i = 0; i < x->dl.n; i++)
		buf_printf(&lines, "%s\n", x->dl.paths[i]);
	if (!(x->scope = people_scope(cfg->people, p->person)) || !settings_json ||
	    lines.oom || !mkdtemp(tmpl) || chmod(tmpl, 0711) < 0 ||
	    !(x->dir = strdup(tmpl))) {
		int e = errno;
		free(settings_json);
		buf_free(&lines);
		if (tmpl[strlen(tmpl) - 1] != 'X')
			rmdir(tmpl);
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot prepare the deny files: %s", p->name,
				 strerror(e));
	}
	struct buf a = BUF_INIT, b = BUF_INIT;
	buf_printf(&a, "%s/deny.list", x->dir);
	buf_printf(&b, "%s/settings.json", x->dir);
	x->list_path = buf_detach(&a);
	x->settings = buf_detach(&b);
	r = (!x->list_path || !x->settings ||
	     write_file(x->list_path, lines.data ? lines.data : "") < 0 ||
	     write_file(x->settings, settings_json) < 0) ? -1 : 0;
	free(settings_json);
	buf_free(&lines);
	if (r == 0 && p->ndeny_args) {
		x->args = calloc(p->ndeny_args + 1, sizeof *x->args);
		for (size_t i = 0; x->args && i < p->ndeny_args; i++) {
			if (!(x->args[i] = replace_file(p->deny_settings_args[i], x->settings))) {
				r = -1;
				break;
			}
			x->nargs++;
		}
		if (!x->args)
			r = -1;
	}
	if (r < 0) {
		int e = errno;
		extras_free(x, 0);
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot write the deny files: %s", p->name,
				 strerror(e));
	}
	return 0;
}

/*
 * The helper's exec payload: work_dir, allowlisted variables, argv, who to
 * watch (this process), the grace between SIGTERM and SIGKILL of the agent's
 * tree, and for a person: the scope, the deny list and its files.
 */
static int build_exec_payload(const struct ruas_config *cfg, const struct ruas_project *p,
			      const char *const *args, const char *const *env,
			      const struct extras *x, struct payload *pl)
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
	pl->work_dir = p->work_dir;
	pl->nenv = env_filter(env, (const char *const *)p->env_allowlist, names, values);
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
	if (!(pl->argv = join_argv(p, all, &pl->argc)))
		goto oom;
	free(all);
	pl->supervisor_pid = (unsigned int)getpid();
	pl->supervisor_start = process_start_time(getpid());
	pl->grace_seconds = p->terminate_grace;
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

static void free_exec_payload(struct payload *pl)
{
	free(pl->argv);
	free(pl->env_names);
	free(pl->env_values);
}

int spawn_build_sudo_call(const struct ruas_config *cfg,
			  const struct ruas_project *p, const char *const *args,
			  const char *const *env, struct sudo_call *call)
{
	struct payload pl;
	struct extras none;
	memset(&none, 0, sizeof none);
	int r = build_exec_payload(cfg, p, args, env, &none, &pl);
	if (r == 0)
		r = sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper, &pl);
	free_exec_payload(&pl);
	return r;
}

int session_argv_build(struct session_call *c, const struct ruas_config *cfg,
		       const struct ruas_project *p, const struct payload *inner,
		       int mode)
{
	struct buf in = BUF_INIT;
	struct payload s;
	memset(c, 0, sizeof *c);
	if (payload_encode(inner, &in) < 0) {
		buf_free(&in);
		return RUAS_ERR_NOMEM;
	}
	/* ruas-exec's argument passes through the login shell as sudo's does. */
	if (in.len + 2 * strlen(cfg->helper) + 32 >= PAYLOAD_ARG_MAX) {
		buf_free(&in);
		return RUAS_ERR_TOOLONG;
	}
	memset(&s, 0, sizeof s);
	s.kind = PAYLOAD_SESSION;
	s.user = p->run_as_user;
	s.service = p->pam_service;
	s.ruser = cfg->supervisor_name;
	s.mode = (unsigned int)mode;
	s.helper = cfg->helper;
	s.inner = in.data;
	int r = payload_encode(&s, &c->hex) < 0 ? RUAS_ERR_NOMEM : 0;
	buf_free(&in);
	if (r == 0 && c->hex.len >= PAYLOAD_ARG_MAX - 1)
		r = RUAS_ERR_TOOLONG;
	if (r < 0) {
		buf_free(&c->hex);
		return r;
	}
	c->argv[0] = cfg->session_helper;
	c->argv[1] = c->hex.data;
	c->argv[2] = NULL;
	return 0;
}

void session_argv_free(struct session_call *c)
{
	buf_free(&c->hex);
	memset(c, 0, sizeof *c);
}

static int start(pid_t *pid, const struct ruas_config *cfg,
		 const struct ruas_project *p, const char *const *args,
		 const char *const *env, const struct extras *x, ruas_error **err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int e = spawn_setup(&fa, &attr, 0);
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot prepare spawn: %s", p->name,
				 strerror(e));
	if (!p->run_as_user) {
		size_t argc;
		char **argv = join_argv(p, args, &argc);
		if (!argv || posix_spawn_file_actions_addchdir_np(&fa, p->work_dir) ||
		    spawn_close_rest(&fa)) {
			free(argv);
			spawn_teardown(&fa, &attr);
			return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM,
					 "out of memory");
		}
		/* argv[0] is command[0]: config.c rejects an empty command. */
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): as above */
		e = posix_spawnp(pid, argv[0], &fa, &attr, argv, (char *const *)env);
		free(argv);
		spawn_teardown(&fa, &attr);
		if (e != 0)
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
					 "project \"%s\": cannot run \"%s\" in work_dir: %s "
					 "(check command and work_dir in %s)",
					 p->name, p->command[0], strerror(e), cfg->path);
		return 0;
	}

	int pam = project_backend(p) == BACKEND_PAM;
	struct sudo_call call;
	struct session_call sc;
	const char *path = pam ? cfg->session_helper : cfg->sudo;
	const char *const *argv;
	int r;
	struct payload pl;
	r = build_exec_payload(cfg, p, args, env, x, &pl);
	if (r == 0 && pam)
		r = session_argv_build(&sc, cfg, p, &pl, SESSION_EXEC);
	else if (r == 0)
		r = sudo_call_build(&call, cfg->sudo, p->run_as_user, cfg->helper, &pl);
	free_exec_payload(&pl);
	argv = pam ? sc.argv : call.argv;
	if (r < 0 || spawn_close_rest(&fa)) {
		spawn_teardown(&fa, &attr);
		if (r == 0)
			pam ? session_argv_free(&sc) : sudo_call_free(&call);
		if (r == RUAS_ERR_TOOLONG)
			return error_set(err, RUAS_ERR_TOOLONG, NULL, 0, E2BIG,
					 "project \"%s\": the command, its arguments and "
					 "allowlisted variables are too long to pass to the "
					 "target (about %s KiB at most)", p->name,
					 pam ? "32" : "64");
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	e = posix_spawn(pid, path, &fa, &attr, (char *const *)argv,
			(char *const *)sudo_call_envp);
	pam ? session_argv_free(&sc) : sudo_call_free(&call);
	spawn_teardown(&fa, &attr);
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 pam ? "project \"%s\": cannot run the pam backend's helper "
				       "\"%s\": %s (install ruas, or set session_helper in %s)"
				     : "project \"%s\": cannot run sudo \"%s\": %s "
				       "(install sudo, or set sudo = \"/path\" in %s)",
				 p->name, path, strerror(e), cfg->path);
	return 0;
}

int ruas_spawn(ruas_child **out, const ruas_config *cfg, const char *project,
	       const char *const *args, const ruas_spawn_options *opts,
	       ruas_error **err)
{
	if (!out || !cfg || !project)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: out, cfg and project are required");
	*out = NULL;
	if (error_options_version(err, "ruas_spawn", opts ? &opts->version : NULL,
				  RUAS_SPAWN_OPTIONS_VERSION, RUAS_SPAWN_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	const struct ruas_project *p = ruas_config_project_find(cfg, project);
	if (!p)
		return error_set(err, RUAS_ERR_NOTFOUND, cfg->path, 0, 0,
				 "no project named \"%s\" in %s", project, cfg->path);
	struct ruas_child *c = calloc(1, sizeof *c);
	if (!c)
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	struct extras x;
	int r = build_extras(cfg, p, &x, err);
	if (r == 0) {
		const char *const *env = opts && opts->env ? opts->env
							   : (const char *const *)environ;
		r = start(&c->pid, cfg, p, args, env, &x, err);
	}
	if (r < 0) {
		extras_free(&x, 0);
		free(c);
		return r;
	}
	c->files = x.dir;
	x.dir = NULL; /* the child's now; removed by ruas_child_free */
	char *keep_list = x.list_path, *keep_settings = x.settings;
	x.list_path = x.settings = NULL;
	extras_free(&x, 1);
	free(keep_list);
	free(keep_settings);
	pthread_mutex_init(&c->lock, NULL);
	*out = c;
	return 0;
}

pid_t ruas_child_pid(const ruas_child *c)
{
	return c->pid;
}

/*
 * Waits without reaping first (WNOWAIT), then reaps under the lock, so a
 * concurrent ruas_child_signal() can never hit a recycled pid.
 */
static int wait_common(ruas_child *c, int *exit_code, int block, ruas_error **err)
{
	siginfo_t si;
	pthread_mutex_lock(&c->lock);
	int done = c->reaped;
	pthread_mutex_unlock(&c->lock);
	if (!done) {
		memset(&si, 0, sizeof si);
		int r;
		while ((r = waitid(P_PID, (id_t)c->pid, &si,
				   WEXITED | WNOWAIT | (block ? 0 : WNOHANG))) < 0 &&
		       errno == EINTR)
			;
		if (r < 0 && errno != ECHILD)
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
					 "waiting for pid %d: %s", (int)c->pid,
					 strerror(errno));
		if (r == 0 && si.si_pid == 0)
			return 1; /* still running */
		pthread_mutex_lock(&c->lock);
		if (!c->reaped) {
			int status;
			pid_t w;
			while ((w = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR)
				;
			if (w == c->pid) {
				c->exit_code = exit_status_code(status);
				c->reaped = 1;
			}
		}
		done = c->reaped;
		pthread_mutex_unlock(&c->lock);
		if (!done)
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, ECHILD,
					 "pid %d was reaped by someone else", (int)c->pid);
	}
	if (exit_code)
		*exit_code = c->exit_code;
	return 0;
}

int ruas_child_wait(ruas_child *c, int *exit_code, ruas_error **err)
{
	return wait_common(c, exit_code, 1, err);
}

int ruas_child_try_wait(ruas_child *c, int *exit_code, ruas_error **err)
{
	return wait_common(c, exit_code, 0, err);
}

int ruas_child_terminate(ruas_child *c, ruas_error **err)
{
	return ruas_child_signal(c, SIGTERM, err);
}

int ruas_child_signal(ruas_child *c, int sig, ruas_error **err)
{
	int r = 0;
	pthread_mutex_lock(&c->lock);
	if (!c->reaped && kill(c->pid, sig) < 0 && errno != ESRCH)
		r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
			      "signal %d to pid %d: %s", sig, (int)c->pid,
			      strerror(errno));
	pthread_mutex_unlock(&c->lock);
	return r;
}

void ruas_child_free(ruas_child *c)
{
	if (!c)
		return;
	int code;
	(void)wait_common(c, &code, 0, NULL);
	if (c->files) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s/deny.list", c->files);
		if (b.data)
			unlink(b.data);
		buf_reset(&b);
		buf_printf(&b, "%s/settings.json", c->files);
		if (b.data)
			unlink(b.data);
		buf_free(&b);
		rmdir(c->files);
		free(c->files);
	}
	pthread_mutex_destroy(&c->lock);
	free(c);
}
