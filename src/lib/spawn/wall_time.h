/* SPDX-License-Identifier: ISC */
/*
 * wall_time.h - a project's wall_time_max, kept by the library: the
 * supervisor's side, which the target's processes cannot signal. At the
 * deadline the run is terminated as ruas_child_terminate() does (the
 * helper's SIGTERM, then SIGKILL after terminate_grace); should what ruas
 * started not have ended a second after the grace (a helper that a
 * process of the target's stopped), it is ended as ruas_child_free() ends
 * an unanswered run: ruas-session (root) kills the run's init, and the
 * kernel the PID namespace with it; sudo is killed, and the helper ends
 * the tree when it runs again.
 *
 * The deadline counts CLOCK_BOOTTIME (a suspend is time too) from the
 * agent's start. It needs the run's pidfd: without one (Linux before 5.3)
 * an end that someone else reaped could not be told from a recycled pid,
 * so the spawn is refused instead.
 */
#ifndef RUAS_WALL_TIME_H
#define RUAS_WALL_TIME_H

struct ruas_child;
struct wall_time;

/*
 * A thread that ends c seconds from now, grace the project's
 * terminate_grace; it ends by itself when c's pidfd says c ended. 0, or an
 * errno (ENOSYS: c has no pidfd).
 */
int wall_time_start(struct ruas_child *c, unsigned int seconds, unsigned int grace,
		    struct wall_time **out);
/* Whether the deadline came while the run still ran (w may be NULL: no). */
int wall_time_fired(const struct wall_time *w);
/*
 * Stops the thread and waits for it: it signals nothing after this, and
 * the return is whether it fired. w may be NULL (0). In a child forked
 * from the process that started it, where the thread does not exist, it
 * only frees w.
 */
int wall_time_stop(struct wall_time *w);

#endif
