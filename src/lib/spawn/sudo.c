/*
 * sudo.c - the sudo backend: sudo -n -iu USER -- exec ruas-exec HEX, sudo
 * started with an empty environment so that nothing of the supervisor's
 * crosses but the allowlisted values inside the payload (sudo_call.h).
 */
#include <string.h>

#include "spawn/exec_payload.h"
#include "spawn/spawn_int.h"
#include "spawn/start.h"
#include "spawn/sudo_call.h"

int start_sudo(struct start *s, const struct payload *pl, pid_t *pid, ruas_error **err)
{
	struct sudo_call call;
	int r = sudo_call_build(&call, s->cfg->sudo, s->p->run_as_user, s->cfg->helper, pl);
	r = start_target(s, r, call.argv, pid, err);
	sudo_call_free(&call);
	return r;
}

int spawn_build_sudo_call(const struct ruas_config *cfg,
			  const struct ruas_project *p, const char *const *args,
			  const char *const *env, struct sudo_call *call)
{
	struct payload pl;
	struct deny_files none;
	memset(&none, 0, sizeof none);
	int r = exec_payload_build(cfg, p, args, env, &none, &pl);
	if (r == 0)
		r = sudo_call_build(call, cfg->sudo, p->run_as_user, cfg->helper, &pl);
	exec_payload_free(&pl);
	return r;
}
