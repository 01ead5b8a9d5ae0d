/* SPDX-License-Identifier: ISC */
/*
 * pty.c - see pty.h. The pair is opened here, in the supervisor's uid
 * (root on the pam backend), never by a process of the target's: the
 * helper gets only the slave, as the agent's stdio over the spawn channel,
 * and neither sudo, ruas-session nor anything of the target's uid gets the
 * caller's terminal. The master stays in the handle.
 */
#include "spawn/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "pty_copy.h"
#include "pty_spawn.h"

int spawn_pty_check(const struct ruas_project *p, const ruas_spawn_options *o, ruas_error **err)
{
	if (o->pty != RUAS_PTY_NONE && o->pty != RUAS_PTY_ALWAYS && o->pty != RUAS_PTY_AUTO)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: project \"%s\": pty is %d, not 0 (none), -1 (when "
				 "stdin is a terminal) or 1 (always)", p->name, o->pty);
	if (o->pty_relay != RUAS_PTY_RELAY_LIBRARY && o->pty_relay != RUAS_PTY_RELAY_CALLER)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: project \"%s\": pty_relay is %d, not 0 (the "
				 "library relays) or 1 (the caller does)", p->name, o->pty_relay);
	if (o->pty == RUAS_PTY_ALWAYS && !p->run_as_user)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: project \"%s\": pty = 1 needs a run_as_user (the "
				 "pty is the agent's own, across the user boundary)", p->name);
	if (o->pty == RUAS_PTY_ALWAYS && (o->stdin_fd >= 0 || o->stdout_fd >= 0 || o->stderr_fd >= 0))
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: project \"%s\": pty = 1 makes the pty the agent's "
				 "stdin, stdout and stderr: leave stdin_fd, stdout_fd and stderr_fd "
				 "at -1", p->name);
	return 0;
}

/* The first of fds that is a terminal, or -1. */
static int first_tty(const int fds[3])
{
	for (int i = 0; i < 3; i++)
		if (isatty(fds[i]))
			return fds[i];
	return -1;
}

/*
 * The caller's terminal modes and size, onto the slave, as sudo and script
 * do, so that the agent's terminal starts as the caller's was (its echo,
 * its erase character, its size); one started in the background, or on a
 * terminal that is raw (another agent's relay has it, or a full-screen
 * caller), gets the caller's size and the kernel's default modes, those of
 * a new terminal: in the background the modes are the foreground job's,
 * the operator's shell for one, whose line editor keeps the terminal
 * without echo and without lines while it waits at its prompt.
 */
static int pair_like(int tty, int *master, int *slave)
{
	char name[128];
	struct termios t;
	struct winsize ws = {.ws_row = 24, .ws_col = 80};
	if (tty >= 0 && ioctl(tty, TIOCGWINSZ, &ws) < 0)
		ws = (struct winsize){.ws_row = 24, .ws_col = 80};
	int e = pty_pair_open(master, slave, name, sizeof name, &ws);
	if (e)
		return e;
	if ((tty >= 0 && term_foreground(tty) && tcgetattr(tty, &t) == 0 && !term_is_raw(&t) &&
	     tcsetattr(*slave, TCSANOW, &t) < 0) ||
	    fcntl(*master, F_SETFL, O_NONBLOCK) < 0) {
		e = errno;
		close(*slave);
		close(*master);
		*master = -1;
	}
	return e;
}

/*
 * For the library's relay: the caller's stdin, and where the agent's
 * output goes, the first of its stdout and stderr that the pty replaces
 * (else the stdin terminal, so that echo shows). 0 or an errno.
 */
static int keep_for_relay(struct start *s, const int copies[3])
{
	int out = copies[1] >= 0 ? 1 : copies[2] >= 0 ? 2 : 0;
	if ((s->term_in = fcntl(s->stdio[0], F_DUPFD_CLOEXEC, 10)) < 0)
		return errno;
	if ((s->term_out = fcntl(s->stdio[out], F_DUPFD_CLOEXEC, 10)) < 0) {
		int e = errno;
		close(s->term_in);
		s->term_in = -1;
		return e;
	}
	return 0;
}

int spawn_pty_open(struct start *s, int pty, int relay, ruas_error **err)
{
	s->master = s->term_in = s->term_out = -1;
	if (!s->p->run_as_user || pty == RUAS_PTY_NONE ||
	    (pty == RUAS_PTY_AUTO && !isatty(s->stdio[0])))
		return 0;
	int master, slave, copies[3] = {-1, -1, -1};
	int e = pair_like(first_tty(s->stdio), &master, &slave);
	for (int i = 0; e == 0 && i < 3; i++)
		if ((pty == RUAS_PTY_ALWAYS || isatty(s->stdio[i])) &&
		    (copies[i] = fcntl(slave, F_DUPFD_CLOEXEC, 10)) < 0)
			e = errno;
	if (e == 0 && relay)
		e = keep_for_relay(s, copies);
	if (e == 0) {
		for (int i = 0; i < 3; i++)
			if (copies[i] >= 0) {
				close(s->stdio[i]);
				s->stdio[i] = copies[i];
			}
		s->master = master;
	} else {
		for (int i = 0; i < 3; i++)
			if (copies[i] >= 0)
				close(copies[i]);
		if (master >= 0)
			close(master);
	}
	if (master >= 0 || e == 0)
		close(slave);
	if (e)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot open a pty for the agent: %s", s->p->name,
				 strerror(e));
	return 0;
}
