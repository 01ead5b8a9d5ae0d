/* SPDX-License-Identifier: ISC */
/*
 * tell_started.h - the helper's STARTED (started.h) to the library, once
 * per run: the agent's exec succeeded, or why the agent will not start.
 */
#ifndef RUAS_HELPER_EXEC_TELL_STARTED_H
#define RUAS_HELPER_EXEC_TELL_STARTED_H

#include <sys/types.h>

/*
 * On chan (-1: nobody to tell), without blocking. lifetime: payload.h's
 * LIFETIME_PIDNS or LIFETIME_SUBREAPER, what the run has; agent: its pid
 * in this helper's PID namespace (0: unknown), which lies pid_level below
 * that of its /proc. reason is made to fit (started_reason_fit()). 0, or
 * -1 when it could not be sent.
 */
int tell_started_ok(int chan, int lifetime, pid_t agent, int pid_level);
int tell_started_failed(int chan, int stage, int errnum, const char *reason, int lifetime);

#endif
