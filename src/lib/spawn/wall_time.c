/* SPDX-License-Identifier: ISC */
/* wall_time.c - see wall_time.h. */
#include "spawn/wall_time.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ruas.h"
#include "spawn/child.h"

struct wall_time {
	struct ruas_child *c;
	pthread_t thread;
	pid_t owner; /* the process whose thread it is (a fork's child has none) */
	int wake[2]; /* wall_time_stop() writes wake[1] */
	unsigned int seconds, grace;
	atomic_int fired;
};

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_BOOTTIME, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

enum woke { WOKE_DEADLINE, WOKE_ENDED, WOKE_STOP };

/*
 * Until deadline (CLOCK_BOOTTIME ms), what c ended, or the stop. A pidfd
 * that poll finds invalid (an embedder closed ruas_child_pidfd()'s) or a
 * poll that fails leaves the deadline to the clock: the end is then told
 * under c's lock (reaped) before anything is signalled.
 */
static enum woke sleep_until(const struct wall_time *w, long long deadline)
{
	struct pollfd fds[2] = {{w->wake[0], POLLIN, 0}, {w->c->pidfd, POLLIN, 0}};
	nfds_t n = 2;
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			return WOKE_DEADLINE;
		/* At most a minute at a time: the clock is read again (a suspend counts). */
		int r = poll(fds, n, left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno != EINTR) {
			struct timespec ts = {0, 100 * 1000000L};
			nanosleep(&ts, NULL);
			continue;
		}
		if (r <= 0)
			continue;
		if (fds[0].revents)
			return WOKE_STOP;
		if (fds[1].revents & POLLNVAL)
			n = 1;
		else if (fds[1].revents)
			return WOKE_ENDED;
	}
}

static void *keep(void *arg)
{
	struct wall_time *w = arg;
	long long deadline = now_ms() + (long long)w->seconds * 1000;
	if (sleep_until(w, deadline) != WOKE_DEADLINE || child_has_been_reaped(w->c))
		return NULL;
	atomic_store(&w->fired, 1);
	(void)ruas_child_terminate(w->c, NULL);
	/* The helper kills what is left after the grace; this, should it not have. */
	if (sleep_until(w, deadline + ((long long)w->grace + 1) * 1000) == WOKE_DEADLINE)
		child_end_unanswered(w->c);
	return NULL;
}

int wall_time_start(struct ruas_child *c, unsigned int seconds, unsigned int grace,
		    struct wall_time **out)
{
	*out = NULL;
	if (c->pidfd < 0)
		return ENOSYS;
	struct wall_time *w = calloc(1, sizeof *w);
	if (!w)
		return ENOMEM;
	w->c = c;
	w->owner = getpid();
	w->seconds = seconds;
	w->grace = grace;
	atomic_init(&w->fired, 0);
	if (pipe2(w->wake, O_CLOEXEC) < 0) {
		int e = errno;
		free(w);
		return e;
	}
	/* The thread takes no signal of the caller's: they are the caller's to handle. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&w->thread, NULL, keep, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		close(w->wake[0]);
		close(w->wake[1]);
		free(w);
		return e;
	}
	*out = w;
	return 0;
}

int wall_time_fired(const struct wall_time *w)
{
	return w ? atomic_load(&((struct wall_time *)w)->fired) : 0;
}

int wall_time_stop(struct wall_time *w)
{
	if (!w)
		return 0;
	/* After a fork the thread is the parent's: its pipe must not be written from here. */
	if (w->owner == getpid()) {
		ssize_t n;
		do
			n = write(w->wake[1], "x", 1);
		while (n < 0 && errno == EINTR);
		pthread_join(w->thread, NULL);
	}
	int fired = atomic_load(&w->fired);
	close(w->wake[0]);
	close(w->wake[1]);
	free(w);
	return fired;
}
