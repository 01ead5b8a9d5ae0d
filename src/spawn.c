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
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config_int.h"
#include "envfilter.h"
#include "error.h"
#include "payload.h"
#include "proc.h"
#include "ruas.h"
#include "spawn_attr.h"
#include "spawn_int.h"
#include "sudo_call.h"

extern char **environ;

struct ruas_child {
	pid_t pid;
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

/*
 * The helper's exec payload: work_dir, allowlisted variables, argv, and who
 * to watch (this process) and for how long to wait between SIGTERM and
 * SIGKILL of the agent's tree.
 */
static int build_exec_payload(const struct ruas_project *p, const char *const *args,
			      const char *const *env, struct payload *pl)
{
	const char **names = calloc(p->nallow + 1, sizeof *names);
	const char **values = calloc(p->nallow + 1, sizeof *values);
	memset(pl, 0, sizeof *pl);
	if (!names || !values)
		goto oom;
	pl->kind = PAYLOAD_EXEC;
	pl->work_dir = p->work_dir;
	pl->nenv = env_filter(env, (const char *const *)p->env_allowlist, names, values);
	pl->env_names = (char **)names;
	pl->env_values = (char **)values;
	if (!(pl->argv = join_argv(p, args, &pl->argc)))
		goto oom;
	pl->supervisor_pid = (unsigned int)getpid();
	pl->supervisor_start = process_start_time(getpid());
	pl->grace_seconds = p->terminate_grace;
	return 0;
oom:
	free(names);
	free(values);
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
	int r = build_exec_payload(p, args, env, &pl);
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
		 const char *const *env, ruas_error **err)
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
	if (pam) {
		struct payload pl;
		r = build_exec_payload(p, args, env, &pl);
		if (r == 0)
			r = session_argv_build(&sc, cfg, p, &pl, SESSION_EXEC);
		free_exec_payload(&pl);
		argv = sc.argv;
	} else {
		r = spawn_build_sudo_call(cfg, p, args, env, &call);
		argv = call.argv;
	}
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
	if (opts && opts->version != RUAS_SPAWN_OPTIONS_VERSION)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: unknown options version %u", opts->version);
	const struct ruas_project *p = ruas_config_project_find(cfg, project);
	if (!p)
		return error_set(err, RUAS_ERR_NOTFOUND, cfg->path, 0, 0,
				 "no project named \"%s\" in %s", project, cfg->path);
	const char *const *env = opts && opts->env ? opts->env
						   : (const char *const *)environ;
	struct ruas_child *c = calloc(1, sizeof *c);
	if (!c)
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	int r = start(&c->pid, cfg, p, args, env, err);
	if (r < 0) {
		free(c);
		return r;
	}
	pthread_mutex_init(&c->lock, NULL);
	*out = c;
	return 0;
}

pid_t ruas_child_pid(const ruas_child *c)
{
	return c->pid;
}

static int decode_status(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
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
				c->exit_code = decode_status(status);
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
	pthread_mutex_destroy(&c->lock);
	free(c);
}
