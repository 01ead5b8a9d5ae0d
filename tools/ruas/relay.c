/* SPDX-License-Identifier: ISC */
/*
 * relay.c - see relay.h. Modelled on sudo's exec_pty.c and util-linux's
 * pty-session.c: one poll loop over the operator's terminal, the pty's
 * master, the run's signals (a signalfd), the helper's news and the
 * child's pidfd; the copying and the terminal's modes are
 * src/common/pty_copy.c's, shared with the library's own relay.
 *
 * Ctrl-Z and friends: in raw mode the operator's terminal sends no
 * signal; the bytes reach the pty, whose line discipline signals the
 * agent's foreground job. When the agent itself stops (the helper says
 * so), or ruas gets SIGTSTP from another process (the agent then gets
 * SIGSTOP), the terminal gets its modes back and ruas stops itself; on
 * SIGCONT, in the foreground, it goes raw again, gives the pty the
 * terminal's size, and continues the agent.
 */
#include "relay.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "args.h"
#include "ending.h"
#include "pty_copy.h"

struct relay {
	ruas_child *child;
	int sfd;
	int reading;  /* stdin is read (in the foreground, not at its end) */
	struct ending end; /* after SIGTERM */
	struct term_mode term; /* stdin's terminal, or fd -1 */
	struct pty_copy io;
};

static int foreground(const struct relay *r)
{
	return term_foreground(r->term.fd);
}

static void copy_size(const struct relay *r)
{
	(void)term_copy_size(r->term.fd, r->io.master);
}

/* The terminal for the agent: raw and read if this process is in its foreground, its size on the pty. */
static void take_terminal(struct relay *r)
{
	term_mode_raw(&r->term);
	copy_size(r);
	r->reading = foreground(r);
}

/* Back from a stop (ours or the agent's): the terminal again, and the agent goes on. */
static void resume(struct relay *r)
{
	take_terminal(r);
	ruas_child_signal(r->child, SIGCONT, NULL);
}

/* The terminal as it was, then stop as a job does; resume() once continued. */
static void suspend(struct relay *r)
{
	sigset_t tstp;
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	term_mode_restore(&r->term);
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);
	kill(getpid(), SIGTSTP);
	sigprocmask(SIG_BLOCK, &tstp, NULL);
	/* In an orphaned process group the kernel drops SIGTSTP: go on at once. */
	resume(r);
}

/*
 * One signal from the signalfd. The terminal's own (in raw mode it sends
 * none) and other processes' alike: sudo and the helper are in a session
 * of their own now, so nothing reaches the agent but what is relayed.
 * SIGTERM ends the tree (and SIGKILL follows after the grace and a margin:
 * ending.c); SIGWINCH is the pty's size; SIGCONT resumes; SIGTSTP
 * suspends the run, the agent included; any other goes to the agent's
 * process group.
 */
static void on_signal(struct relay *r, int sig, unsigned int grace)
{
	if (sig == SIGCHLD || r->end.on)
		return;
	if (sig == SIGWINCH) {
		copy_size(r);
	} else if (sig == SIGCONT) {
		resume(r);
	} else if (sig == SIGTSTP) {
		ruas_child_signal(r->child, SIGSTOP, NULL);
		suspend(r);
	} else if (sig == SIGTERM) {
		ending_begin(&r->end, r->child, grace);
	} else {
		ruas_child_signal(r->child, sig, NULL);
	}
}

/* The helper says the agent itself stopped: the whole run stops with it. */
static void on_news(struct relay *r, int *state_fd)
{
	int state = ruas_child_state(r->child, NULL);
	if (state == RUAS_CHILD_ENDING)
		*state_fd = -1; /* its end of file stays readable: done with it */
	else if (state == RUAS_CHILD_STOPPED)
		suspend(r);
}

/* One round of the poll loop: waits, then serves what is ready. -1 when poll failed. */
static int round_trip(struct relay *r, int *state_fd, unsigned int grace)
{
	enum { SIG, PID, NEWS, IN, MASTER, N };
	/*
	 * Started with & and now brought back with fg: a shell continues only
	 * a stopped job (bash sends no SIGCONT to a running one), so look.
	 */
	struct pty_copy *io = &r->io;
	if (!r->reading && !io->in_end && foreground(r))
		take_terminal(r);
	struct pollfd pf[N] = {
		{r->sfd, POLLIN, 0},
		{ruas_child_pidfd(r->child), POLLIN, 0},
		{*state_fd, POLLIN, 0},
		{r->reading && !io->in_end && io->pending == 0 ? 0 : -1, POLLIN, 0},
		{io->master_end ? -1 : io->master, (short)(POLLIN | (io->pending ? POLLOUT : 0)), 0},
	};
	if (poll(pf, N, pf[PID].fd < 0 || r->end.on ? 100 : r->reading ? 1000 : 250) < 0)
		return errno == EINTR ? 0 : -1;
	pty_copy_serve(io, pf[IN].revents, pf[MASTER].revents);
	if (pf[NEWS].revents)
		on_news(r, state_fd);
	struct signalfd_siginfo si;
	if (pf[SIG].revents & POLLIN)
		while (read(r->sfd, &si, sizeof si) == (ssize_t)sizeof si)
			on_signal(r, (int)si.ssi_signo, grace);
	ending_kill_if_due(&r->end, r->child);
	return 0;
}

/* The relay's descriptors and the terminal's modes; -1 when the signalfd cannot be had. */
static int relay_begin(struct relay *r, ruas_child *child, const sigset_t *set)
{
	sigset_t all = *set;
	sigaddset(&all, SIGTSTP);
	memset(r, 0, sizeof *r);
	r->child = child;
	r->io.master = ruas_child_pty_fd(child);
	r->io.in = 0;
	r->io.out = isatty(1) || !isatty(2) ? 1 : 2;
	r->term.fd = isatty(0) ? 0 : -1;
	if (sigprocmask(SIG_BLOCK, &all, NULL) < 0 ||
	    (r->sfd = signalfd(-1, &all, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		perror("ruas: signalfd");
		return -1;
	}
	take_terminal(r);
	return 0;
}

int relay_pty(ruas_child *child, const sigset_t *set, unsigned int grace)
{
	struct relay r;
	int rc = EXIT_SPAWN, state_fd = ruas_child_state_fd(child);
	if (relay_begin(&r, child, set) < 0) {
		ruas_child_terminate(child, NULL);
		ruas_child_wait(child, NULL, NULL);
		return EXIT_SPAWN;
	}
	for (;;) {
		ruas_error *err = NULL;
		int w = ruas_child_try_wait(child, &rc, &err);
		if (w < 0) {
			term_mode_restore(&r.term);
			fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
			ruas_error_free(err);
			rc = EXIT_SPAWN;
			break;
		}
		if (w == 0 || round_trip(&r, &state_fd, grace) < 0)
			break;
	}
	pty_copy_drain(&r.io, 2000);
	term_mode_restore(&r.term);
	close(r.sfd);
	return rc;
}
