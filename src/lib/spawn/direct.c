/* SPDX-License-Identifier: ISC */
/*
 * direct.c - a project without run_as_user: the command itself, as the
 * supervisor, in work_dir (or the per-spawn one), with the supervisor's
 * environment (or the caller's) and set_env over it, nothing in between.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "error.h"
#include "quote.h"
#include "ruas.h"
#include "spawn_attr.h"
#include "spawn/exec_limits.h"
#include "spawn/exec_payload.h"
#include "spawn/start.h"

int start_direct(struct start *s, pid_t *pid, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	/*
	 * A per-spawn work_dir: the real path of the directory the library
	 * checked (values.c). posix_spawn has no fchdir, and legacy mode has
	 * no target to check it again as, the way ruas-exec does: a swap of
	 * it after the check is the supervisor's own business here, which is
	 * why this mode is legacy.
	 */
	const char *dir = s->v->real ? s->v->real : p->work_dir;
	/*
	 * posix_spawn's chdir and exec fail alike: the directory is looked at
	 * first, so that a start that fails says which (RUAS_ERR_START).
	 */
	struct stat st;
	int wd_errno = stat(dir, &st) < 0 ? errno
		       : !S_ISDIR(st.st_mode) ? ENOTDIR
		       : access(dir, X_OK) < 0 ? errno : 0;
	if (wd_errno) {
		struct buf shown = BUF_INIT;
		quote_display_dq(&shown, dir);
		int r = error_set_start(err, RUAS_STAGE_WORK_DIR, dir, wd_errno,
					"project \"%s\": the agent did not start (work_dir): cannot "
					"enter work_dir %s: %s",
					p->name, shown.oom ? "(out of memory)" : shown.data,
					strerror(wd_errno));
		buf_free(&shown);
		return r;
	}
	size_t argc;
	char **argv = agent_argv(p, s->args, &argc);
	const char **merged = s->v->set_env ? spawn_env_merge(s->v->set_env, s->env) : NULL;
	/* RUAS_RUN_ID, the audit's run id, over whatever the environment says it is. */
	char run_var[64];
	snprintf(run_var, sizeof run_var, "RUAS_RUN_ID=%s", s->run_id ? s->run_id : "");
	const char *const run_set[] = {run_var, NULL};
	const char **with_run = spawn_env_merge(run_set, merged ? merged : s->env);
	const char *const *envp = with_run;
	size_t nenv = 0;
	while (with_run && with_run[nenv])
		nenv++;
	int r = argv && with_run ? exec_limits_check(p, argv, argc, (char *const *)with_run, NULL,
						     nenv, 0, err)
				 : 0;
	if (r < 0) {
		free(argv);
		free(merged);
		free(with_run);
		return r;
	}
	int bad = !argv || (s->v->set_env && !merged) || !with_run ||
		  posix_spawn_file_actions_addchdir_np(&s->fa, dir);
	for (int i = 0; i < 3 && !bad; i++)
		bad = posix_spawn_file_actions_adddup2(&s->fa, s->stdio[i], i) != 0;
	if (bad || spawn_close_rest(&s->fa)) {
		free(argv);
		free(merged);
		free(with_run);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	/* argv[0] is command[0]: config.c rejects an empty command. */
	/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): as above */
	int e = posix_spawnp(pid, argv[0], &s->fa, &s->attr, argv, (char *const *)envp);
	free(argv);
	free(merged);
	free(with_run);
	if (e != 0)
		return error_set_start(err, RUAS_STAGE_EXEC, p->command[0], e,
				       "project \"%s\": the agent did not start (exec): cannot run "
				       "\"%s\": %s (check command in %s)",
				       p->name, p->command[0], strerror(e), s->cfg->path);
	return 0;
}
