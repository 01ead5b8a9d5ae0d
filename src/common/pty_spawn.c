/* SPDX-License-Identifier: ISC */
/* pty_spawn.c - see pty_spawn.h. */
#include "pty_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "proc.h"
#include "spawn_attr.h"

/*
 * sudo wraps `sudo -l` at the terminal's width; a wide window keeps its
 * lines whole in all but freak cases (the parser joins wrapped lines too).
 */
#define PTY_COLUMNS 4096

int pty_pair_open(int *master, int *slave, char *name, size_t namesz, const struct winsize *ws)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0)
		return errno;
	int e = 0;
	if (grantpt(*master) < 0 || unlockpt(*master) < 0 ||
	    ptsname_r(*master, name, namesz) != 0)
		e = errno ? errno : EIO;
	else if ((*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		e = errno;
	else if (ioctl(*slave, TIOCSWINSZ, ws) < 0) {
		e = errno;
		close(*slave);
	}
	if (e) {
		close(*master);
		*master = -1;
	}
	return e;
}

static int open_pair(int *master, int *slave, char *name, size_t namesz)
{
	struct winsize ws = {.ws_row = 24, .ws_col = PTY_COLUMNS};
	int e = pty_pair_open(master, slave, name, namesz, &ws);
	if (e == 0 && fcntl(*master, F_SETFL, O_NONBLOCK) < 0) {
		e = errno;
		close(*slave);
		close(*master);
		*master = -1;
	}
	return e;
}

int pty_spawn(struct pty_child *c, const char *path, char *const argv[],
	      char *const envp[])
{
	char name[128];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	c->pid = -1;
	c->master = c->slave = c->pidfd = -1;
	int e = open_pair(&c->master, &c->slave, name, sizeof name);
	if (e)
		return e;
	/*
	 * glibc runs setsid() before the file actions, and the first terminal
	 * a session leader opens without O_NOCTTY becomes its controlling one.
	 */
	if ((e = spawn_setup(&fa, &attr, 1)) == 0) {
		if (posix_spawn_file_actions_addopen(&fa, 0, name, O_RDWR, 0) ||
		    posix_spawn_file_actions_adddup2(&fa, 0, 1) ||
		    posix_spawn_file_actions_adddup2(&fa, 0, 2) ||
		    spawn_close_rest(&fa))
			e = ENOMEM;
		else
			e = posix_spawn(&c->pid, path, &fa, &attr, argv, envp);
		spawn_teardown(&fa, &attr);
	}
	if (e) {
		close(c->master);
		close(c->slave);
		c->master = c->slave = -1;
		c->pid = -1;
		return e;
	}
	/*
	 * Since the slave stays open here, the master never hangs up: the exit
	 * is what ends the output. A pidfd says when at once; without one
	 * (Linux < 5.3) the caller looks every few milliseconds.
	 */
	c->pidfd = process_pidfd(c->pid);
	return 0;
}

void pty_child_reaped(struct pty_child *c)
{
	if (c->slave >= 0)
		close(c->slave);
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->slave = c->pidfd = -1;
}
