/* SPDX-License-Identifier: ISC */
/* inner.c - see inner.h. */
#include "inner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "buf.h"
#include "channel.h"
#include "exit_status.h"
#include "work_dir.h"

/* Descriptor 3, as the outer helper gave it to the login shell. */
#define CONT 3

static _Noreturn void give_up(const char *what, const char *why)
{
	fprintf(stderr, "ruas-exec: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	_exit(EXIT_HELPER);
}

/*
 * START with state and errnum, and with fd (-1: none) attached; a login
 * file may have closed the channel: then nothing.
 */
static void say(int state, int errnum, int fd)
{
	struct buf b = BUF_INIT;
	if (msg_start_encode(&b, state, errnum) == 0)
		(void)channel_send(CONT, CHANNEL_START, b.data, b.len, &fd, fd >= 0 ? 1 : 0);
	buf_free(&b);
}

/*
 * START_EXEC, with the read end of a pipe whose write end is this
 * process's alone and closes at the exec: its end of file, with no
 * START_FAILED before it, tells the outer helper that the exec succeeded,
 * whatever a login file left holding descriptor 3.
 */
static void say_exec(void)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		give_up("cannot tell the start", strerror(errno));
	say(START_EXEC, 0, p[0]);
	close(p[0]);
}

/* The AGENT message's descriptors from CONT, without waiting: it was sent before the shell ran. */
static void take_agent(int fds[AGENT_NFDS])
{
	char head[16];
	size_t nfds = AGENT_NFDS, off = 0, blen;
	const char *body;
	int type;
	ssize_t n = channel_recv_some(CONT, head, sizeof head, fds, &nfds);
	if (n < 0 || nfds != AGENT_NFDS ||
	    channel_next(head, (size_t)n, &off, &type, &body, &blen) != 1 || off != (size_t)n ||
	    type != CHANNEL_AGENT || blen != 0)
		give_up("no start message on descriptor 3",
			n < 0 ? strerror(errno)
			      : "a login file of this user took, closed or replaced it");
}

/* The body from its memfd. */
static void read_agent(int fd, struct agent_start *a)
{
	struct stat st;
	struct buf b = BUF_INIT;
	const char *why = NULL;
	if (fstat(fd, &st) < 0 || st.st_size < 0 || (unsigned long long)st.st_size > CHANNEL_MAX_BODY ||
	    buf_reserve(&b, (size_t)st.st_size) < 0)
		give_up("cannot read the start message", strerror(errno ? errno : EFBIG));
	while (b.len < (size_t)st.st_size) {
		ssize_t n = pread(fd, b.data + b.len, (size_t)st.st_size - b.len, (off_t)b.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			give_up("cannot read the start message", n < 0 ? strerror(errno) : "short");
		b.len += (size_t)n;
	}
	if (agent_decode(b.data, b.len, a, &why) < 0)
		give_up("bad start message", why);
	buf_free(&b);
	close(fd);
}

/* fds[i] onto i, each exactly once, whatever their numbers. */
static void take_stdio(const int fds[3])
{
	int high[3];
	for (int i = 0; i < 3; i++)
		if ((high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			give_up("cannot take the agent's stdio", strerror(errno));
	for (int i = 0; i < 3; i++) {
		close(fds[i]);
		if (dup2(high[i], i) < 0)
			give_up("cannot take the agent's stdio", strerror(errno));
		close(high[i]);
	}
}

/* What a login file may have left: every disposition back to default, nothing blocked. */
static void default_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

_Noreturn void inner_main(void)
{
	int fds[AGENT_NFDS];
	struct agent_start a;
	take_agent(fds);
	read_agent(fds[AGENT_FD_BODY], &a);
	for (size_t i = 0; i < a.nenv; i++)
		if (setenv(a.env_names[i], a.env_values[i], 1) < 0)
			give_up("cannot set a variable", strerror(errno));
	/* The login shell left PWD at the home directory. */
	if (setenv("PWD", a.work_dir, 1) < 0 || unsetenv("OLDPWD") < 0)
		give_up("cannot set PWD", strerror(errno));
	/*
	 * By name, here: inside the run's mount namespace (its /proc, bubblewrap's
	 * masks), which a descriptor from the outer helper would lead out of.
	 */
	int wd = work_dir_open(a.root, a.scope, a.work_dir);
	if (wd < 0) {
		say(START_NO_WORK_DIR, errno ? errno : EACCES, -1);
		_exit(EXIT_HELPER);
	}
	close(wd);
	take_stdio(fds + AGENT_FD_STDIN);
	/* Nothing the login files opened reaches the agent; descriptor 3 closes at the exec. */
	close_range(CONT + 1, ~0U, 0);
	if (fcntl(CONT, F_SETFD, FD_CLOEXEC) < 0)
		give_up("cannot keep descriptor 3 from the agent", strerror(errno));
	default_signals();
	say_exec();
	execvp(a.argv[0], a.argv);
	int e = errno;
	say(START_FAILED, e ? e : ENOEXEC, -1);
	fprintf(stderr, "ruas-exec: cannot run \"%s\": %s\n", a.argv[0], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}
