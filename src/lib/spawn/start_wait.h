/* SPDX-License-Identifier: ISC */
/*
 * start_wait.h - the last step of ruas_spawn(): the agent's exec has
 * succeeded, or the spawn fails with RUAS_ERR_START (ruas.h) and nothing
 * of the run is left.
 *
 * Behind sudo or ruas-session the helper says which (STARTED, started.h),
 * once the target's login files have run and the agent's exec is done. A
 * start that never got as far as the helper's HELLO is sudo's or PAM's
 * refusal: sudo's own words are in the start's capture (start.h), which is
 * read once what was started has ended. While it waits, the spawn holds
 * the handle alone; its end record is made as for any run.
 */
#ifndef RUAS_SPAWN_START_WAIT_H
#define RUAS_SPAWN_START_WAIT_H

#include "spawn/child.h"
#include "spawn/start.h"

/*
 * How long the target's login shell may take to exec the agent after the
 * helper has its payload; then the run is ended (RUAS_STAGE_LOGIN,
 * ETIMEDOUT).
 */
#define START_WAIT_MS 60000

/*
 * 0 when the agent runs (c->started 1). Otherwise the run has been ended
 * and reaped, its end recorded, c freed, and a ruas_code returned with
 * *err set: RUAS_ERR_START with the stage, errno and file (ruas.h).
 */
int start_wait(struct start *s, struct ruas_child *c, ruas_error **err);

/*
 * What the spawn's capture (sudo's or ruas-session's own stdout and
 * stderr) held before the helper took over, passed on to the agent's
 * stderr as it always went there: when it would not block, else dropped.
 */
void start_capture_forward(struct start *s);

#endif
