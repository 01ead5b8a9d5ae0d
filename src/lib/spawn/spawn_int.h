/* spawn_int.h - spawn internals that unit tests look at. */
#ifndef RUAS_SPAWN_INT_H
#define RUAS_SPAWN_INT_H

#include "config/config_int.h"
#include "payload.h"
#include "spawn/sudo_call.h"

/* The exact sudo call ruas_spawn() makes for a project with run_as_user. */
int spawn_build_sudo_call(const struct ruas_config *cfg,
			  const struct ruas_project *p, const char *const *args,
			  const char *const *env, struct sudo_call *call);

#endif
