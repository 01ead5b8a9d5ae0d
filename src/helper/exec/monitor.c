/* SPDX-License-Identifier: ISC */
/* monitor.c - the agent's session leader on its pty, so that Ctrl-Z stops it (monitor.h). */
#include "monitor.h"
#include "exit_status.h"
#include "proc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/*
 * The agent's group as the pty's foreground. From a background group the
 * kernel would send SIGTTOU (or, the monitor's group being orphaned, fail
 * with EIO): blocked, the change is allowed. 0, or -1 with errno.
 */
static int give_terminal(pid_t group)
{
	sigset_t ttou, old;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	int r = tcsetpgrp(0, group);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}

/* Both ends of the socket carry one signal number a message, 4 bytes big-endian. */
static int send_number(int fd, int n)
{
	unsigned char body[4] = {(unsigned char)((unsigned int)n >> 24),
				 (unsigned char)((unsigned int)n >> 16),
				 (unsigned char)((unsigned int)n >> 8), (unsigned char)n};
	return send(fd, body, sizeof body, MSG_DONTWAIT | MSG_NOSIGNAL) == sizeof body ? 0 : -1;
}

int monitor_signal(int fd, int sig)
{
	return send_number(fd, sig);
}

int monitor_news(int fd, int *stop_sig)
{
	unsigned char body[4];
	ssize_t n = recv(fd, body, sizeof body, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -1 : 0;
	if (n != sizeof body)
		return n == 0 ? 0 : -1; /* a short message is none */
	*stop_sig = (int)((unsigned int)body[0] << 24 | (unsigned int)body[1] << 16 |
			  (unsigned int)body[2] << 8 | body[3]);
	return 1;
}

/* The agent's end as the monitor's own: its exit code, or death by its signal (no core). */
static _Noreturn void end_as(int status)
{
	if (!WIFSIGNALED(status))
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_HELPER);
	int sig = WTERMSIG(status);
	struct rlimit none = {0, 0};
	sigset_t one;
	(void)setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	/* Single-threaded: delivered before kill() returns; should it not kill, 128+sig says it. */
	kill(getpid(), sig);
	_exit(128 + sig);
}

/* A signal for the agent: to its process group, or to it alone should it have left the group. */
static void deliver(pid_t agent, int sig)
{
	if (sig <= 0 || sig >= NSIG)
		return;
	if (sig == SIGCONT)
		(void)give_terminal(agent);
	kill_group_else_leader(agent, sig);
}

/* The agent's stops and continues go to the helper; its end is the monitor's. */
static void reap(pid_t agent, int sock)
{
	int st;
	while (waitpid(agent, &st, WNOHANG | WUNTRACED | WCONTINUED) == agent) {
		if (WIFSTOPPED(st))
			(void)send_number(sock, WSTOPSIG(st));
		else if (WIFCONTINUED(st))
			(void)send_number(sock, 0);
		else
			end_as(st);
	}
}

/*
 * The tree's SIGTERM reaches the agent directly, except one that came
 * before the agent was forked: pending here then (blocked), not in the
 * agent (fork(2) clears that). It is passed on, once, so that the
 * terminate ends the agent as it would without a pty, not only the SIGKILL
 * after the grace; a later one the agent gets itself, and only once.
 */
static void pass_early_term(pid_t agent)
{
	sigset_t pending, term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	struct timespec now = {0, 0};
	if (sigpending(&pending) == 0 && sigismember(&pending, SIGTERM) &&
	    sigtimedwait(&term, NULL, &now) == SIGTERM)
		kill_group_else_leader(agent, SIGTERM);
}

/*
 * The monitor's loop, until the agent ends. SIGCHLD and SIGHUP come on a
 * signalfd; the helper's other relayed signals stay blocked here, and the
 * helper's end of file leaves the agent running, as the agent would be
 * without a monitor.
 */
static _Noreturn void watch(pid_t agent, int sock)
{
	pass_early_term(agent);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGHUP);
	int sfd = -1;
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		perror("ruas-exec: the agent's monitor: signalfd");
		kill(agent, SIGKILL);
	}
	for (;;) {
		struct pollfd pf[2] = {{sfd, POLLIN, 0}, {sock, POLLIN, 0}};
		if (poll(pf, 2, sfd < 0 ? 100 : -1) < 0 && errno != EINTR)
			pf[0].revents = POLLIN; /* reap at least */
		int sig;
		if (pf[1].revents) {
			int got;
			while ((got = monitor_news(sock, &sig)) > 0)
				deliver(agent, sig);
			if (got == 0) {
				close(sock);
				sock = -1;
			}
		}
		struct signalfd_siginfo si;
		while (sfd >= 0 && read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
			if (si.ssi_signo == SIGHUP)
				deliver(agent, SIGHUP);
		reap(agent, sock);
	}
}

/*
 * The agent below the monitor: a process group of its own, the terminal's
 * foreground (before exec, so that its first read is not a background
 * one), then its login shell, which becomes it (launch.h).
 */
static _Noreturn void agent_start(const struct launch *l, const sigset_t *old)
{
	if (setpgid(0, 0) < 0 || give_terminal(getpid()) < 0) {
		fprintf(stderr, "ruas-exec: cannot make the agent the pty's foreground: %s\n",
			strerror(errno));
		_exit(EXIT_HELPER);
	}
	launch_exec(l, old);
}

/* Every descriptor from 3 on but keep[0] and keep[1] (ascending) closes. */
static void close_but(const int keep[2])
{
	unsigned int from = 3;
	for (int i = 0; i < 2; i++) {
		if ((unsigned int)keep[i] > from)
			close_range(from, (unsigned int)keep[i] - 1, 0);
		from = (unsigned int)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

/*
 * The monitor, just forked: only the pty, its end of the socket and the
 * login shell's descriptor 3 (launch.h) stay open; a session whose
 * controlling terminal is the pty (refused by the kernel when the pty is
 * another session's already: then the agent does not run); the agent
 * below.
 */
static _Noreturn void monitor_main(const struct launch *l, const sigset_t *old, int sock)
{
	int keep[2] = {sock < l->cont ? sock : l->cont, sock < l->cont ? l->cont : sock};
	close_but(keep);
	if (setsid() < 0 || ioctl(0, TIOCSCTTY, 0) < 0) {
		fprintf(stderr, "ruas-exec: cannot make the pty the agent's terminal: %s\n",
			strerror(errno));
		_exit(EXIT_HELPER);
	}
	pid_t agent = fork();
	if (agent < 0) {
		perror("ruas-exec: fork");
		_exit(EXIT_HELPER);
	}
	if (agent == 0)
		agent_start(l, old);
	close(l->cont); /* the agent's, not the monitor's */
	/* The agent's own calls decide; these only win the race to its exec. */
	(void)setpgid(agent, agent);
	(void)give_terminal(agent);
	watch(agent, sock);
}

pid_t monitor_start(const struct launch *l, const sigset_t *old, int *fd)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("ruas-exec: socketpair");
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("ruas-exec: fork");
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0)
		monitor_main(l, old, sv[1]);
	close(sv[1]);
	*fd = sv[0];
	return pid;
}
