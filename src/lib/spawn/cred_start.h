/* SPDX-License-Identifier: ISC */
/*
 * cred_start.h - a spawn's credentials (docs/credentials.md, cred/serve.h):
 * the gate and the git hosts that go into the payload, and the thread
 * that serves them once the run is recorded.
 */
#ifndef RUAS_SPAWN_CRED_START_H
#define RUAS_SPAWN_CRED_START_H

#include <sys/types.h>

#include "payload.h"
#include "spawn/child.h"
#include "spawn/start.h"

/*
 * When the project has credentials (or the spawn a callback): s->cred and
 * s->cred_fd, the gate's name in gate (which pl->credentials then points
 * to) and pl->git_hosts (NULL-terminated, the caller's to strv_free()).
 * 0 (nothing to do, or done), or a ruas_code with *err set and nothing
 * left.
 */
int start_credentials(struct start *s, uid_t target_uid, struct payload *pl, char gate[64],
		      ruas_error **err);
/*
 * c takes cs (the spawn's, or NULL) and, when its start was recorded
 * (recorded 0), serves it from now: a request that comes before STARTED
 * waits in the gate meanwhile. recorded, 0, or a ruas_code with *err set.
 */
int start_serving(struct ruas_child *c, struct cred_serve *cs, int recorded,
		  const struct ruas_project *p, ruas_error **err);

#endif
