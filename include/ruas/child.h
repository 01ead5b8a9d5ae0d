/* SPDX-License-Identifier: ISC */
/*
 * ruas/child.h - a started agent: wait for it, signal it, end it
 * (docs/library.md "Spawn"). One thread may wait while others signal;
 * ruas_child_free() comes last. Every function refuses a NULL handle
 * (RUAS_ERR_INVALID; ruas_child_run_id() NULL; free does nothing).
 */
#ifndef RUAS_CHILD_H
#define RUAS_CHILD_H

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ruas_child ruas_child;

/*
 * The pid started (sudo or ruas-session; the command in legacy mode): the
 * one to kill(2) as Popen's pid. sudo and ruas-session relay SIGINT,
 * SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and SIGPIPE to the agent; SIGTERM ends
 * the tree.
 */
RUAS_EXTERN pid_t ruas_child_pid(const ruas_child *child);
/* The agent's own pid as this host sees it, for logs only (a hint); 0 when unknown. */
RUAS_EXTERN pid_t ruas_child_agent_pid(const ruas_child *child);
/* The run id (32 hex digits) of its audit records and the agent's RUAS_RUN_ID. */
RUAS_EXTERN const char *ruas_child_run_id(const ruas_child *child);
/*
 * Block until the child ends: *exit_code is its exit status, or 128+N when
 * signal N killed it. Called again, it returns the same.
 */
RUAS_EXTERN int ruas_child_wait(ruas_child *child, int *exit_code, ruas_error **err);
/* Like ruas_child_wait(), but returns 1 at once when the child still runs. */
RUAS_EXTERN int ruas_child_try_wait(ruas_child *child, int *exit_code, ruas_error **err);
/*
 * Ends the agent's whole tree: SIGTERM now, SIGKILL to what is left after
 * terminate_grace. Returns at once; wait with ruas_child_wait().
 */
RUAS_EXTERN int ruas_child_terminate(ruas_child *child, ruas_error **err);
/*
 * SIGTERM as ruas_child_terminate(), SIGKILL to the whole tree at once, any
 * other signal to the agent's process group; never lost, a no-op once
 * reaped. 0 sends nothing; a number that is no signal is RUAS_ERR_INVALID.
 */
RUAS_EXTERN int ruas_child_signal(ruas_child *child, int sig, ruas_error **err);
/* Owned by the handle: polls readable once the child has ended; -1 without pidfd_open. */
RUAS_EXTERN int ruas_child_pidfd(const ruas_child *child);
/* After a wait reported the end: the signal that killed the agent, or 0. */
RUAS_EXTERN int ruas_child_term_signal(const ruas_child *child);
/*
 * ruas_child_limit(): which limit of the project's ended the run. A wait
 * must have reported the end; before, or on NULL, RUAS_LIMIT_NONE.
 */
typedef enum {
	RUAS_LIMIT_NONE = 0,
	RUAS_LIMIT_MEMORY = 1, /* memory_max: the run's cgroup killed a process of it */
	RUAS_LIMIT_TASKS = 2,  /* tasks_max: a fork failed at pids.max (the run went on) */
	RUAS_LIMIT_TIME = 3    /* wall_time_max: the library terminated it */
} ruas_limit;
RUAS_EXTERN ruas_limit ruas_child_limit(const ruas_child *child);
/* The master of the agent's pty when the caller relays it (owned by the handle), else -1. */
RUAS_EXTERN int ruas_child_pty_fd(const ruas_child *child);

/* ruas_child_state(): how the agent of a pty spawn is. */
#define RUAS_CHILD_RUNNING 0
#define RUAS_CHILD_STOPPED 1 /* the agent itself is stopped (a SIGSTOP, a job control stop) */
#define RUAS_CHILD_ENDING 2  /* the helper has said its last word: wait for the child */
/* Owned by the handle: polls readable when the helper has news for ruas_child_state(); or -1. */
RUAS_EXTERN int ruas_child_state_fd(const ruas_child *child);
/* Takes that news without blocking: RUAS_CHILD_*, and *stop_signal when stopped. */
RUAS_EXTERN int ruas_child_state(ruas_child *child, int *stop_signal);
/*
 * Frees the handle. A child still running is ended first (its tree at once,
 * as with SIGKILL) and reaped: no zombie, no orphan, within about 2 s.
 */
RUAS_EXTERN void ruas_child_free(ruas_child *child);

#ifdef __cplusplus
}
#endif
#endif
