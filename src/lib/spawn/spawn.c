/*
 * spawn.c - starting a project's agent: ruas_spawn() and the choice of the
 * way to start it.
 *
 * With run_as_user: sudo -n -iu USER -- ruas-exec HEX (sudo.c), or under the
 * pam backend ruas-session HEX (pam.c), started with an empty environment so
 * that nothing of the supervisor's crosses but the allowlisted values inside
 * the payload. Without: the command itself, as the supervisor, in work_dir,
 * with the supervisor's environment (direct.c).
 * Either way the child gets an empty signal mask, default dispositions and
 * no descriptor above 2. posix_spawn keeps this safe in threaded hosts.
 */
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_int.h"
#include "error.h"
#include "people/deny_files.h"
#include "ruas.h"
#include "spawn_attr.h"
#include "spawn/child.h"
#include "spawn/exec_payload.h"
#include "spawn/start.h"
#include "spawn/sudo_call.h"

extern char **environ;

int start_target(struct start *s, int r, const char *const *argv, pid_t *pid,
		 ruas_error **err)
{
	const struct ruas_config *cfg = s->cfg;
	const struct ruas_project *p = s->p;
	int pam = project_backend(p) == BACKEND_PAM;
	const char *path = pam ? cfg->session_helper : cfg->sudo;
	if (r < 0 || spawn_close_rest(&s->fa)) {
		if (r == RUAS_ERR_TOOLONG)
			return error_set(err, RUAS_ERR_TOOLONG, NULL, 0, E2BIG,
					 "project \"%s\": the command, its arguments and "
					 "allowlisted variables are too long to pass to the "
					 "target (about %s KiB at most)", p->name,
					 pam ? "32" : "64");
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	int e = posix_spawn(pid, path, &s->fa, &s->attr, (char *const *)argv,
			    (char *const *)sudo_call_envp);
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 pam ? "project \"%s\": cannot run the pam backend's helper "
				       "\"%s\": %s (install ruas, or set session_helper in %s)"
				     : "project \"%s\": cannot run sudo \"%s\": %s "
				       "(install sudo, or set sudo = \"/path\" in %s)",
				 p->name, path, strerror(e), cfg->path);
	return 0;
}

/* As run_as_user: ruas-exec's payload, then the backend's call of it. */
static int start_as_target(struct start *s, pid_t *pid, ruas_error **err)
{
	struct payload pl;
	int r = exec_payload_build(s->cfg, s->p, s->args, s->env, s->x, &pl);
	if (r < 0)
		r = start_target(s, r, NULL, pid, err);
	else if (project_backend(s->p) == BACKEND_PAM)
		r = start_pam(s, &pl, pid, err);
	else
		r = start_sudo(s, &pl, pid, err);
	exec_payload_free(&pl);
	return r;
}

static int start(pid_t *pid, const struct ruas_config *cfg,
		 const struct ruas_project *p, const char *const *args,
		 const char *const *env, const struct deny_files *x, ruas_error **err)
{
	struct start s = {.cfg = cfg, .p = p, .args = args, .env = env, .x = x};
	int e = spawn_setup(&s.fa, &s.attr, 0);
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot prepare spawn: %s", p->name,
				 strerror(e));
	int r = p->run_as_user ? start_as_target(&s, pid, err) : start_direct(&s, pid, err);
	spawn_teardown(&s.fa, &s.attr);
	return r;
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
	struct deny_files x;
	int r = deny_files_build(cfg, p, &x, err);
	if (r == 0) {
		const char *const *env = opts && opts->env ? opts->env
							   : (const char *const *)environ;
		r = start(&c->pid, cfg, p, args, env, &x, err);
	}
	if (r < 0) {
		deny_files_free(&x);
		free(c);
		return r;
	}
	c->files = deny_files_release(&x); /* the child's now; removed by ruas_child_free */
	pthread_mutex_init(&c->lock, NULL);
	*out = c;
	return 0;
}
