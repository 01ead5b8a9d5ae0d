/*
 * wall_time.h - a project's wall_time_max, kept by the library: the
 * supervisor's side is the only one the target cannot signal, ptrace or
 * stop (ruas-exec runs as the target). At the deadline the run is
 * terminated as ruas_child_terminate() does (the helper's SIGTERM, then
 * SIGKILL after terminate_grace), and killed from here after the grace
 * and a second more should the helper not have done it.
 */
#ifndef RUAS_WALL_TIME_H
#define RUAS_WALL_TIME_H

struct ruas_child;
struct wall_time;

/*
 * A thread that ends c seconds from now, grace the project's
 * terminate_grace; it ends by itself when c's pidfd says c ended. 0, or an
 * errno (the spawn then fails: a limit that cannot be kept is refused).
 */
int wall_time_start(struct ruas_child *c, unsigned int seconds, unsigned int grace,
		    struct wall_time **out);
/* Whether the deadline came before c ended (w may be NULL: no). */
int wall_time_fired(const struct wall_time *w);
/* Stops the thread and waits for it: it signals nothing after this. w may be NULL. */
void wall_time_stop(struct wall_time *w);

#endif
