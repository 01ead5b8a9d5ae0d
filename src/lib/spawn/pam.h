/* pam.h - the pam backend's client half: the call of ruas-session. */
#ifndef RUAS_SPAWN_PAM_H
#define RUAS_SPAWN_PAM_H

#include "buf.h"
#include "config/config_int.h"
#include "payload.h"

/* ruas-session HEX: the pam backend's call. */
struct session_call {
	const char *argv[3];
	struct buf hex;
};

/*
 * Wraps an inner ruas-exec payload for ruas-session, which opens a session
 * of PAM service `service` for `user`; mode is enum session_mode.
 */
int session_argv_build(struct session_call *c, const struct ruas_config *cfg, const char *user,
		       const char *service, const struct payload *inner, int mode);
void session_argv_free(struct session_call *c);

#endif
