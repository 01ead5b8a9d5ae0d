/* SPDX-License-Identifier: ISC */
/* spawn_int.h - spawn internals that unit tests look at. */
#ifndef RUAS_SPAWN_INT_H
#define RUAS_SPAWN_INT_H

#include "config/config_int.h"
#include "payload.h"
#include "spawn/sudo_call.h"

/*
 * The exact sudo call ruas_spawn() makes for a project with run_as_user,
 * and the payload it then sends over the channel (its body, appended to
 * *payload). 0, RUAS_ERR_TOOLONG or RUAS_ERR_NOMEM.
 */
int spawn_build_sudo_call(const struct ruas_config *cfg, const struct ruas_project *p,
			  const char *const *args, const char *const *env, struct sudo_call *call,
			  struct buf *payload);
/*
 * The same with the caller's options, whose per-spawn values (set_env,
 * work_dir) are checked as ruas_spawn() checks them, with the same
 * refusals in *err; o->env NULL means environ, as there.
 */
int spawn_build_sudo_call_opts(const struct ruas_config *cfg, const struct ruas_project *p,
			       const char *const *args, const ruas_spawn_options *o,
			       struct sudo_call *call, struct buf *payload, ruas_error **err);

#endif
