/*
 * direct.c - a project without run_as_user: the command itself, as the
 * supervisor, in work_dir, with the supervisor's environment (or the
 * caller's), nothing in between.
 */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>

#include "ruas.h"
#include "spawn_attr.h"
#include "spawn/exec_payload.h"
#include "spawn/start.h"

int start_direct(struct start *s, pid_t *pid, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	size_t argc;
	char **argv = agent_argv(p, s->args, &argc);
	int bad = !argv || posix_spawn_file_actions_addchdir_np(&s->fa, p->work_dir);
	for (int i = 0; i < 3 && !bad; i++)
		bad = posix_spawn_file_actions_adddup2(&s->fa, s->stdio[i], i) != 0;
	if (bad || spawn_close_rest(&s->fa)) {
		free(argv);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	/* argv[0] is command[0]: config.c rejects an empty command. */
	/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): as above */
	int e = posix_spawnp(pid, argv[0], &s->fa, &s->attr, argv, (char *const *)s->env);
	free(argv);
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot run \"%s\" in work_dir: %s "
				 "(check command and work_dir in %s)",
				 p->name, p->command[0], strerror(e), s->cfg->path);
	return 0;
}
