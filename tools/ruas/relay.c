/*
 * relay.c - see relay.h. Modelled on sudo's exec_pty.c and util-linux's
 * pty-session.c: one poll loop over the operator's terminal, the pty's
 * master, the run's signals (a signalfd), the helper's news and the
 * child's pidfd. Output is written whole before more is read; input is
 * kept until the master takes it, so that nothing is lost or reordered
 * and a paste larger than the pty's queue waits rather than blocks the
 * agent's output.
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
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "args.h"
#include "ending.h"

#define RELAY_BUF 65536

struct relay {
	ruas_child *child;
	int master, out, sfd, tty; /* tty: the terminal whose modes are saved, or -1 */
	struct termios saved;
	int raw;      /* the terminal is raw now */
	int reading;  /* stdin is read (in the foreground, not at its end) */
	int in_end;   /* stdin has ended */
	int master_end;
	struct ending end; /* after SIGTERM */
	size_t pending, off; /* input read but not yet written to the master */
	char in[RELAY_BUF];
};

static int foreground(const struct relay *r)
{
	return r->tty >= 0 && tcgetpgrp(r->tty) == getpgrp();
}

/* The saved modes, exactly, once the output has drained. */
static void terminal_restore(struct relay *r)
{
	if (!r->raw)
		return;
	while (tcsetattr(r->tty, TCSADRAIN, &r->saved) < 0 && errno == EINTR)
		;
	r->raw = 0;
}

/* Raw, as cfmakeraw(3); only in the foreground, where the terminal is ours to change. */
static void terminal_raw(struct relay *r)
{
	struct termios t = r->saved;
	if (r->raw || !foreground(r))
		return;
	cfmakeraw(&t);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(r->tty, TCSADRAIN, &t) == 0)
		r->raw = 1;
}

/* The terminal's size onto the pty; the kernel sends SIGWINCH to the agent's job. */
static void copy_size(const struct relay *r)
{
	struct winsize ws;
	if (r->tty >= 0 && ioctl(r->tty, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(r->master, TIOCSWINSZ, &ws);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			if (errno != EAGAIN)
				return -1;
			struct pollfd pf = {fd, POLLOUT, 0};
			(void)poll(&pf, 1, 100);
			continue;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* What the agent printed, to the terminal; once every slave has closed, EIO. */
static void from_master(struct relay *r)
{
	char buf[RELAY_BUF];
	ssize_t n = read(r->master, buf, sizeof buf);
	if (n > 0)
		(void)write_all(r->out, buf, (size_t)n);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		r->master_end = 1;
}

/* What the operator typed, to the agent: as much as the master takes now. */
static void to_master(struct relay *r)
{
	if (r->pending == 0) {
		ssize_t n = read(0, r->in, sizeof r->in);
		if (n <= 0) {
			if (n == 0 || (errno != EAGAIN && errno != EINTR))
				r->in_end = 1;
			return;
		}
		r->pending = (size_t)n;
		r->off = 0;
	}
	ssize_t w = write(r->master, r->in + r->off, r->pending);
	if (w > 0) {
		r->off += (size_t)w;
		r->pending -= (size_t)w;
	}
}

/* Back from a stop (ours or the agent's): raw again if in the foreground, and the agent goes on. */
static void resume(struct relay *r)
{
	terminal_raw(r);
	copy_size(r);
	r->reading = foreground(r);
	ruas_child_signal(r->child, SIGCONT, NULL);
}

/* The terminal as it was, then stop as a job does; resume() once continued. */
static void suspend(struct relay *r)
{
	sigset_t tstp;
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	terminal_restore(r);
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

/* Everything the agent printed before the end, until EIO (every slave closed) or a pause. */
static void drain(struct relay *r)
{
	for (int idle = 0; !r->master_end && idle < 2;) {
		struct pollfd pf = {r->master, POLLIN, 0};
		if (poll(&pf, 1, 100) <= 0) {
			idle++;
			continue;
		}
		from_master(r);
	}
}

/* One round of the poll loop: waits, then serves what is ready. -1 when poll failed. */
static int round_trip(struct relay *r, int *state_fd, unsigned int grace)
{
	enum { SIG, PID, NEWS, IN, MASTER, N };
	struct pollfd pf[N] = {
		{r->sfd, POLLIN, 0},
		{ruas_child_pidfd(r->child), POLLIN, 0},
		{*state_fd, POLLIN, 0},
		{r->reading && !r->in_end && r->pending == 0 ? 0 : -1, POLLIN, 0},
		{r->master_end ? -1 : r->master, (short)(POLLIN | (r->pending ? POLLOUT : 0)), 0},
	};
	if (poll(pf, N, pf[PID].fd < 0 || r->end.on ? 100 : 1000) < 0)
		return errno == EINTR ? 0 : -1;
	if (pf[MASTER].revents & (POLLIN | POLLHUP | POLLERR))
		from_master(r);
	if ((pf[IN].revents & (POLLIN | POLLHUP | POLLERR)) ||
	    (r->pending && (pf[MASTER].revents & POLLOUT)))
		to_master(r);
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
	r->master = ruas_child_pty_fd(child);
	r->out = isatty(1) || !isatty(2) ? 1 : 2;
	r->tty = isatty(0) && tcgetattr(0, &r->saved) == 0 ? 0 : -1;
	if (sigprocmask(SIG_BLOCK, &all, NULL) < 0 ||
	    (r->sfd = signalfd(-1, &all, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		perror("ruas: signalfd");
		return -1;
	}
	terminal_raw(r);
	copy_size(r);
	r->reading = foreground(r);
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
			terminal_restore(&r);
			fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
			ruas_error_free(err);
			rc = EXIT_SPAWN;
			break;
		}
		if (w == 0 || round_trip(&r, &state_fd, grace) < 0)
			break;
	}
	drain(&r);
	terminal_restore(&r);
	close(r.sfd);
	return rc;
}
