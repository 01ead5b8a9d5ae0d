/* SPDX-License-Identifier: ISC */
/*
 * values.c - see values.h. What a caller may add to one spawn is checked
 * here, before anything starts, so that a refusal names the value: a
 * set_env name outside the allowlist is an error, never dropped, and a
 * per-spawn work_dir must resolve beneath the project's work_dir.
 */
#include "spawn/values.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "contain.h"
#include "error.h"
#include "path.h"
#include "quote.h"
#include "strv.h"

/* "ruas_spawn: project "P": " and msg (which this frees) as the error: returns code. */
static int refuse(ruas_error **err, int code, int errnum, const struct ruas_project *p,
		  struct buf *msg, const char *file)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ruas_spawn: project ");
	quote_display_dq(&b, p->name);
	buf_adds(&b, code == RUAS_ERR_START ? ": the agent did not start (work_dir): " : ": ");
	if (msg->data)
		buf_adds(&b, msg->data);
	buf_free(msg);
	int r = b.oom || !b.data ? error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory")
		: code == RUAS_ERR_START
			? error_set_start(err, RUAS_STAGE_WORK_DIR, file, errnum, "%s", b.data)
			: error_set(err, code, NULL, 0, errnum, "%s", b.data);
	buf_free(&b);
	return r;
}

/* ------------------------------------------------------------ set_env */

/* What is wrong with set_env entry e, whose name is `name` ("" without one): refused. */
static int set_env_refuse(ruas_error **err, const struct ruas_config *cfg,
			  const struct ruas_project *p, const char *e, const char *name, int twice)
{
	struct buf m = BUF_INIT;
	if (!*name) {
		buf_adds(&m, "set_env entry ");
		quote_display_dq(&m, e);
		buf_adds(&m, " is not \"NAME=value\" (a name, then '=' and the value)");
	} else if (twice) {
		buf_adds(&m, "set_env sets ");
		quote_display_dq(&m, name);
		buf_adds(&m, " twice");
	} else {
		buf_adds(&m, "set_env names ");
		quote_display_dq(&m, name);
		buf_adds(&m, ", which is not in the project's env_allowlist (");
		quote_display(&m, cfg->path, 0);
		buf_adds(&m, "): add it there to let it cross, or leave it out");
	}
	return refuse(err, RUAS_ERR_INVALID, 0, p, &m, NULL);
}

/* Each entry "NAME=value", NAME allowlisted, and set once. */
static int set_env_check(const struct ruas_config *cfg, const struct ruas_project *p,
			 const char *const *set_env, ruas_error **err)
{
	for (size_t i = 0; set_env && set_env[i]; i++) {
		const char *e = set_env[i];
		const char *eq = strchr(e, '=');
		char *name = strndup(e, eq ? (size_t)(eq - e) : 0);
		if (!name)
			return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
		size_t n = strlen(name);
		int twice = 0;
		for (size_t j = 0; j < i && !twice; j++)
			twice = strncmp(set_env[j], e, n + 1) == 0;
		int r = 0;
		if (!*name || twice || !strv_contains((const char *const *)p->env_allowlist, name))
			r = set_env_refuse(err, cfg, p, e, name, twice);
		free(name);
		if (r)
			return r;
	}
	return 0;
}

const char **spawn_env_merge(const char *const *set_env, const char *const *env)
{
	size_t ns = 0, ne = 0, n = 0;
	while (set_env && set_env[ns])
		ns++;
	while (env && env[ne])
		ne++;
	const char **v = calloc(ns + ne + 1, sizeof *v);
	if (!v)
		return NULL;
	for (; n < ns; n++)
		v[n] = set_env[n];
	for (size_t i = 0; i < ne; i++) {
		size_t len = strcspn(env[i], "=");
		size_t j = 0;
		while (j < ns && !(strncmp(set_env[j], env[i], len) == 0 && set_env[j][len] == '='))
			j++;
		if (j == ns)
			v[n++] = env[i];
	}
	return v;
}

/* ------------------------------------------------------------ work_dir */

/* `work_dir "W" ` + what + (` the project's work_dir "R"`) + (`: why`), refused. */
static int wd_refuse(ruas_error **err, int code, int errnum, const struct ruas_project *p,
		     const char *wd, const char *what, int root, const char *why)
{
	struct buf m = BUF_INIT;
	buf_adds(&m, "work_dir ");
	quote_display_dq(&m, wd);
	buf_printf(&m, " %s", what);
	if (root) {
		buf_adds(&m, " the project's work_dir ");
		quote_display_dq(&m, p->work_dir);
	}
	if (why) {
		buf_adds(&m, ": ");
		quote_display(&m, why, 0);
	}
	return refuse(err, code, errnum, p, &m, wd);
}

/*
 * The part of wd below the project's work_dir, with "." and empty
 * components dropped, into rel. -1 when wd has a ".." component: a
 * per-spawn work_dir only goes down, so that what the agent is told
 * (PWD) is a plain path beneath the project's work_dir.
 */
static int wd_below(const char *wd, struct buf *rel)
{
	for (const char *s = wd; *s;) {
		s += strspn(s, "/");
		size_t n = strcspn(s, "/");
		if (n == 2 && s[0] == '.' && s[1] == '.')
			return -1;
		if (n && !(n == 1 && s[0] == '.')) {
			if (rel->len)
				buf_addc(rel, '/');
			buf_add(rel, s, n);
		}
		s += n;
	}
	return 0;
}

/* The checked directory's real path, for legacy mode's chdir. */
static char *real_path_of(int fd)
{
	char link[64], real[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof real - 1);
	if (n < 0)
		return NULL;
	real[n] = '\0';
	return strdup(real);
}

/*
 * The resolution, as the supervisor, of v->work_dir beneath the project's
 * work_dir: an escape is refused for good. With run_as_user, a failure
 * other than an escape, a missing component or a non-directory (the
 * supervisor may not search a target's private directory) leaves the
 * verdict to the helper, which repeats it as the target.
 */
static int wd_resolve(const struct ruas_project *p, const char *wd, struct spawn_values *v,
		      ruas_error **err)
{
	char why[512];
	int fd = -1;
	enum contain_result r = contain_resolve(p->work_dir, v->work_dir, &fd, why, sizeof why, 0);
	if (r == CONTAIN_OUTSIDE || r == CONTAIN_ABSLINK)
		return wd_refuse(err, RUAS_ERR_ESCAPE, EXDEV, p, wd, "leaves", 1, why);
	/* A directory that is not there fails the start as the helper's would (RUAS_ERR_START). */
	if (r == CONTAIN_MISSING)
		return wd_refuse(err, RUAS_ERR_START, ENOENT, p, wd, "cannot be resolved beneath", 1,
				 why);
	if (r == CONTAIN_ERROR && !p->run_as_user)
		return wd_refuse(err, RUAS_ERR_SYSTEM, EIO, p, wd, "cannot be resolved beneath", 1,
				 why);
	if (r != CONTAIN_OK)
		return 0;
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	/* Legacy mode has no target to enter it again, as the helper does: the real path. */
	if (!e && !p->run_as_user && !(v->real = real_path_of(fd)))
		e = errno ? errno : ENOMEM;
	close(fd);
	if (e == ENOTDIR)
		return wd_refuse(err, RUAS_ERR_START, e, p, wd, "is not a directory", 0, NULL);
	if (e)
		return wd_refuse(err, RUAS_ERR_SYSTEM, e, p, wd, "cannot be resolved beneath", 1,
				 strerror(e));
	return 0;
}

static int wd_check(const struct ruas_project *p, const char *wd, struct spawn_values *v,
		    ruas_error **err)
{
	if (!*wd)
		return wd_refuse(err, RUAS_ERR_INVALID, 0, p, wd,
				 "is empty (NULL means the project's own)", 0, NULL);
	/* Relative: to the project's work_dir; absolute: spelled beneath it. */
	const char *below = wd[0] == '/' ? contain_below(p->work_dir, wd) : wd;
	if (!below)
		return wd_refuse(err, RUAS_ERR_ESCAPE, EXDEV, p, wd, "is not beneath", 1, NULL);
	struct buf rel = BUF_INIT;
	if (wd_below(below, &rel) < 0) {
		buf_free(&rel);
		return wd_refuse(err, RUAS_ERR_ESCAPE, EXDEV, p, wd,
				 "has a \"..\" component, but a per-spawn work_dir only goes down from",
				 1, NULL);
	}
	v->work_dir = rel.len ? path_join(p->work_dir, rel.data) : strdup(p->work_dir);
	int oom = rel.oom;
	buf_free(&rel);
	if (oom || !v->work_dir)
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	return wd_resolve(p, wd, v, err);
}

int spawn_values_check(const struct ruas_config *cfg, const struct ruas_project *p,
		       const ruas_spawn_options *o, struct spawn_values *v, ruas_error **err)
{
	memset(v, 0, sizeof *v);
	int r = set_env_check(cfg, p, o->set_env, err);
	if (r == 0 && o->set_env && o->set_env[0])
		v->set_env = o->set_env;
	if (r == 0 && o->work_dir)
		r = wd_check(p, o->work_dir, v, err);
	return r;
}

void spawn_values_free(struct spawn_values *v)
{
	free(v->work_dir);
	free(v->real);
	memset(v, 0, sizeof *v);
}
