/* SPDX-License-Identifier: ISC */
/*
 * exec_mode.h - ruas-exec's exec mode, the outer helper: the first program
 * of a run as the target. In this order, before anything the target can
 * write is read or run:
 *
 *   1. the work_dir, opened by descriptor as the target (contained in the
 *      project's work_dir and the person's scope when there are such);
 *   2. the variables the run sets, checked against the rules;
 *   3. a person's private TMPDIR;
 *   4. the run's confinement: its PID namespace (or the subreaper), made
 *      by the reaper (reaper.h), and bubblewrap around all that follows
 *      for a person;
 *   5. only then, inside, the target's login shell (launch.h), whose login
 *      files run there, and the inner helper after them (inner.h), which
 *      execs the agent.
 *
 * Then it reaps the run and says how it ended (control.h EXIT): the
 * agent's own status when the agent's exec happened, else the helper's
 * code with started = 0, never an exit status the agent did not have.
 */
#ifndef RUAS_EXEC_MODE_H
#define RUAS_EXEC_MODE_H

#include "control.h"
#include "payload.h"
#include "reaper.h"

/* The run of p; *e gets its EXIT. Returns the helper's exit code. */
int exec_mode(struct payload *p, struct reaper_options *ro, struct msg_exit *e);

#endif
