/* SPDX-License-Identifier: ISC */
/*
 * relay.h - the library's own relay between the caller's terminal and the
 * agent's pty (spawn option pty_relay = RUAS_PTY_RELAY_LIBRARY), in a
 * thread of the handle's.
 */
#ifndef RUAS_SPAWN_RELAY_H
#define RUAS_SPAWN_RELAY_H

#include "spawn/child.h"

/*
 * Starts it for c (whose master, chan and pidfd are set) between in (what
 * the operator types) and out (where the agent's output goes), which it
 * takes and closes at its end. 0, or an errno with in and out closed.
 */
int spawn_relay_start(struct ruas_child *c, int in, int out);

/*
 * Ends it, from any thread, once: after the agent's last output when
 * drain (bounded: the pty's end of file, a pause, or 2 s), at once
 * otherwise; the terminal has its modes back when this returns.
 * A no-op without a relay.
 */
void spawn_relay_finish(struct ruas_child *c, int drain);

#endif
