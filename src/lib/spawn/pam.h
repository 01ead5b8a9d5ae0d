/* SPDX-License-Identifier: ISC */
/* pam.h - the pam backend's client half: the call of ruas-session. */
#ifndef RUAS_SPAWN_PAM_H
#define RUAS_SPAWN_PAM_H

#include "buf.h"
#include "config/config_int.h"
#include "payload.h"
#include "session.h"

/*
 * ruas-session's own message, SESSION (the first on its channel, channel.h):
 * open a session of PAM service `service` for `user`, then run ruas-exec in
 * mode (session.h enum session_mode), which takes its payload from the channel;
 * lifetime (enum payload_lifetime): whether ruas-session makes the agent's
 * PID namespace; tty: the caller's terminal, for PAM_TTY, or ""; grace:
 * the project's terminate_grace; person: the person whose private TMPDIR
 * the run has, or NULL; keep_cgroup: the run has a cgroup of its own, which
 * ruas-session keeps whatever PAM's session does. 0 or RUAS_ERR_NOMEM.
 */
int session_payload_build(struct buf *out, const struct ruas_config *cfg, const char *user,
			  const char *service, int mode, unsigned int lifetime,
			  const char *tty, unsigned int grace, const char *person,
			  unsigned int keep_cgroup);

#endif
