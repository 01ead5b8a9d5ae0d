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

/* ruas-session HEX: the pam backend's call. */
struct session_call {
	const char *argv[3];
	struct buf hex;
};

/* Wraps an inner ruas-exec payload for ruas-session; mode is enum session_mode. */
int session_argv_build(struct session_call *c, const struct ruas_config *cfg,
		       const struct ruas_project *p, const struct payload *inner,
		       int mode);
void session_argv_free(struct session_call *c);

#endif
