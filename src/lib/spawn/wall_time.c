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
	int wake[2]; /* wall_time_stop() writes wake[1] */
	unsigned int seconds, grace;
	atomic_int fired;
};

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Until deadline (CLOCK_MONOTONIC ms): 1 when it came, 0 when c ended or
 * the thread is to stop. Without a pidfd (before Linux 5.3, valgrind) the
 * deadline comes whatever: a signal to a reaped child is nothing.
 */
static int sleep_until(const struct wall_time *w, long long deadline)
{
	struct pollfd fds[2] = {{w->wake[0], POLLIN, 0}, {w->c->pidfd, POLLIN, 0}};
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			return 1;
		int n = poll(fds, w->c->pidfd >= 0 ? 2 : 1, left > 60000 ? 60000 : (int)left);
		if (n < 0 && errno != EINTR)
			return 0;
		if (n > 0)
			return 0;
	}
}

static void *keep(void *arg)
{
	struct wall_time *w = arg;
	long long deadline = now_ms() + (long long)w->seconds * 1000;
	if (!sleep_until(w, deadline))
		return NULL;
	atomic_store(&w->fired, 1);
	(void)ruas_child_terminate(w->c, NULL);
	/* The helper kills what is left after the grace; this, should it not have. */
	if (sleep_until(w, deadline + ((long long)w->grace + 1) * 1000))
		(void)ruas_child_signal(w->c, SIGKILL, NULL);
	return NULL;
}

int wall_time_start(struct ruas_child *c, unsigned int seconds, unsigned int grace,
		    struct wall_time **out)
{
	struct wall_time *w = calloc(1, sizeof *w);
	*out = NULL;
	if (!w)
		return ENOMEM;
	w->c = c;
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

void wall_time_stop(struct wall_time *w)
{
	if (!w)
		return;
	ssize_t n;
	do
		n = write(w->wake[1], "x", 1);
	while (n < 0 && errno == EINTR);
	pthread_join(w->thread, NULL);
	close(w->wake[0]);
	close(w->wake[1]);
	free(w);
}
