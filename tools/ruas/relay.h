/* SPDX-License-Identifier: ISC */
/* relay.h - ruas run on a terminal: the agent's pty relayed to the operator's terminal. */
#ifndef RUAS_TOOLS_RUAS_RELAY_H
#define RUAS_TOOLS_RUAS_RELAY_H

#include <signal.h>

#include "ruas.h"

/*
 * Relays between this process's terminal (stdin, and the first of stdout
 * and stderr that is a terminal) and the master of child's pty until the
 * child has ended, handling the signals of set (blocked, as run.c blocks
 * them; SIGTSTP is added here) as sudo does on a pty; grace is the
 * project's terminate_grace. The terminal is raw while the agent runs in
 * the foreground, and gets its exact modes back on every way out and
 * whenever the run is suspended. Returns the child's exit code, or
 * EXIT_SPAWN when waiting failed.
 */
int relay_pty(ruas_child *child, const sigset_t *set, unsigned int grace);

#endif
