/* SPDX-License-Identifier: ISC */
/*
 * relay.c - see relay.h. What sudo's use_pty does for its command, for a
 * caller that leaves the relay to the library: one thread per handle,
 * polling the caller's input, the pty's master, the helper's news and a
 * pipe by which wait and free end it.
 *
 * A library owns no signals of the process, so where ruas run's relay
 * (tools/ruas/relay.c) reacts to SIGWINCH and SIGTSTP, this one looks:
 * the terminal's size every quarter of a second, and whether this process
 * is in the terminal's foreground before it goes raw or reads. The thread
 * blocks every signal, so that nothing it does stops or kills the process:
 * a read in the background fails with EIO (SIGTTIN blocked), the kernel
 * lets a tcsetattr() or a write through (SIGTTOU blocked), and a write to a
 * closed pipe fails with EPIPE.
 *
 * The copying and the terminal's modes are src/common/pty_copy.c's,
 * shared with ruas run's relay.
 */
#include "spawn/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pty_copy.h"
#include "ruas.h"

#define RELAY_TICK_MS 250     /* how often the terminal's size and foreground are looked at */
#define RELAY_DRAIN_MS 2000   /* the most a wait gives the agent's last output */

struct spawn_relay {
	struct ruas_child *c;
	pthread_t thread;
	pid_t owner;  /* the process whose thread it is: a fork's copy only closes descriptors */
	atomic_int quit; /* free's request: output that cannot be written now is dropped */
	int news;    /* a duplicate of the channel, to poll: the handle closes its own at the reap */
	int stop[2]; /* spawn_relay_finish(): 'd' (drain first) or 'q' */
	int size_from; /* the terminal whose size the pty follows, or -1 */
	struct winsize size;
	int stopped;   /* the agent is: the terminal is the caller's meanwhile */
	struct term_mode term; /* in, when it is a terminal */
	struct pty_copy io;
};

/* The caller's terminal's size onto the pty when it changed; the kernel sends SIGWINCH. */
static void follow_size(struct spawn_relay *r)
{
	struct winsize ws;
	if (r->size_from < 0 || ioctl(r->size_from, TIOCGWINSZ, &ws) < 0)
		return;
	if (ws.ws_row == r->size.ws_row && ws.ws_col == r->size.ws_col &&
	    ws.ws_xpixel == r->size.ws_xpixel && ws.ws_ypixel == r->size.ws_ypixel)
		return;
	if (ioctl(r->io.master, TIOCSWINSZ, &ws) == 0)
		r->size = ws;
}

/* May in be read now: not while the agent is stopped, nor in the background of its terminal. */
static int may_read(const struct spawn_relay *r)
{
	return !r->stopped && (r->term.fd < 0 || term_foreground(r->term.fd));
}

/* The helper's news: a stopped agent gives the terminal back until it runs again. */
static void on_news(struct spawn_relay *r)
{
	int state = ruas_child_state(r->c, NULL);
	r->stopped = state == RUAS_CHILD_STOPPED;
	if (r->stopped)
		term_mode_restore(&r->term);
	if (state == RUAS_CHILD_ENDING) {
		close(r->news); /* its end of file stays readable: done with it */
		r->news = -1;
	}
}

/* One round: waits up to a tick, then serves what is ready; the finish request, or 0. */
static int round_trip(struct spawn_relay *r)
{
	enum { STOP, NEWS, END, IN, MASTER, N };
	/* Each round, not only when the news polls readable: the caller may have taken it. */
	if (r->news >= 0)
		on_news(r);
	if (!r->stopped)
		term_mode_raw(&r->term);
	follow_size(r);
	struct pty_copy *io = &r->io;
	int reading = !io->in_end && io->pending == 0 && may_read(r);
	struct pollfd pf[N] = {
		{r->stop[0], POLLIN, 0},
		{r->news, POLLIN, 0},
		{ruas_child_pidfd(r->c), POLLIN, 0},
		{reading ? io->in : -1, POLLIN, 0},
		{io->master, (short)(POLLIN | (io->pending ? POLLOUT : 0)), 0},
	};
	if (poll(pf, N, RELAY_TICK_MS) < 0)
		return 0;
	pty_copy_serve(io, pf[IN].revents, pf[MASTER].revents);
	char how = 0;
	if ((pf[STOP].revents & POLLIN) && read(r->stop[0], &how, 1) != 1)
		how = 'q';
	/* What the agent's end left in the pty is drained, then the terminal given back. */
	if (!how && (pf[END].revents & POLLIN))
		how = 'd';
	return how;
}

static void *relay_main(void *arg)
{
	struct spawn_relay *r = arg;
	int how = 0;
	while (!how && !r->io.master_end)
		how = round_trip(r);
	if (how != 'q')
		pty_copy_drain(&r->io, RELAY_DRAIN_MS);
	term_mode_restore(&r->term);
	return NULL;
}

static void relay_close(struct spawn_relay *r)
{
	int fds[] = {r->io.in, r->io.out, r->news, r->stop[0], r->stop[1]};
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(r);
}

/*
 * A terminal of the caller's, opened afresh for the relay: a file
 * description of its own, non-blocking, so that neither a read (when
 * another reader took the byte poll saw) nor a write (a terminal stopped
 * with Ctrl-S) can hold the relay where wait and free could not end it;
 * the caller's own descriptor keeps its flags. fd itself (taken) when it
 * is no terminal or cannot be opened again.
 */
static int own_terminal(int fd)
{
	char path[64];
	if (!isatty(fd))
		return fd;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int mine = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (mine < 0)
		return fd;
	close(fd);
	return mine;
}

int spawn_relay_start(struct ruas_child *c, int in, int out)
{
	struct spawn_relay *r = calloc(1, sizeof *r);
	if (!r) {
		close(in);
		close(out);
		return ENOMEM;
	}
	r->c = c;
	r->io.master = c->master;
	r->io.in = own_terminal(in);
	r->io.out = own_terminal(out);
	r->io.abort = &r->quit;
	r->owner = getpid();
	r->stop[0] = r->stop[1] = -1;
	r->news = c->chan >= 0 ? fcntl(c->chan, F_DUPFD_CLOEXEC, 3) : -1;
	r->term.fd = isatty(r->io.in) ? r->io.in : -1;
	r->size_from = r->term.fd >= 0 ? r->term.fd : isatty(r->io.out) ? r->io.out : -1;
	(void)ioctl(r->io.master, TIOCGWINSZ, &r->size);
	int e = 0;
	if ((c->chan >= 0 && r->news < 0) || pipe2(r->stop, O_CLOEXEC) < 0)
		e = errno;
	sigset_t all, old;
	sigfillset(&all);
	if (e == 0 && (e = pthread_sigmask(SIG_BLOCK, &all, &old)) == 0) {
		/* The thread starts with every signal blocked; this one's mask is as it was after. */
		e = pthread_create(&r->thread, NULL, relay_main, r);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (e) {
		relay_close(r);
		return e;
	}
	c->relay = r;
	return 0;
}

void spawn_relay_finish(struct ruas_child *c, int drain_first)
{
	pthread_mutex_lock(&c->relay_lock);
	struct spawn_relay *r = c->relay;
	if (r && r->owner != getpid()) {
		/* A fork's copy: the thread is the parent's, and so is the terminal. */
		relay_close(r);
		c->relay = NULL;
	} else if (r) {
		char how = drain_first ? 'd' : 'q';
		if (!drain_first)
			atomic_store(&r->quit, 1);
		while (write(r->stop[1], &how, 1) < 0 && errno == EINTR)
			;
		pthread_join(r->thread, NULL);
		relay_close(r);
		c->relay = NULL;
	}
	pthread_mutex_unlock(&c->relay_lock);
}
