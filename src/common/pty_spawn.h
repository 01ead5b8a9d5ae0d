/* SPDX-License-Identifier: ISC */
/*
 * pty_spawn.h - start a command on a terminal of its own.
 *
 * The escalation probes must run sudo the way the agent could: an agent can
 * allocate a pty itself (script -qec "sudo -n id" /dev/null), so a probe
 * without a terminal proves nothing where sudoers sets requiretty. The
 * command gets a new session whose controlling terminal is a fresh pty;
 * the caller reads what it prints from the master.
 */
#ifndef RUAS_PTY_SPAWN_H
#define RUAS_PTY_SPAWN_H

#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/types.h>

struct pty_child {
	pid_t pid;
	int master; /* O_NONBLOCK, O_CLOEXEC; read the command's output here */
	int slave;  /* held open until the child is reaped; see pty_child_reaped() */
	int pidfd;  /* polls readable when the child exits (-1 without pidfd_open) */
};

/*
 * Starts path with argv and envp on a new pty: stdin, stdout and stderr are
 * the slave, which is its controlling terminal (a new session), every other
 * descriptor is closed and signals are reset. 0, or an errno (nothing is
 * left open then).
 *
 * The parent keeps the slave open: a master whose slave was never opened,
 * or was opened and closed again, reads EIO on Linux, which would look like
 * an end of output before the child has even started.
 */
int pty_spawn(struct pty_child *c, const char *path, char *const argv[],
	      char *const envp[]);

/*
 * A new pty pair, both ends close-on-exec and neither a controlling
 * terminal of this process: *master, *slave (opened, so that the master
 * does not read EIO before the slave's user has it), name its path. The
 * slave gets the window size ws. 0, or an errno with nothing left open.
 */
int pty_pair_open(int *master, int *slave, char *name, size_t namesz, const struct winsize *ws);

/*
 * After waitpid() reaped c->pid: closes the slave and the pidfd, so that
 * the master reads what is left and then EIO (or EAGAIN, when a grandchild
 * still holds the terminal: the caller stops reading then).
 */
void pty_child_reaped(struct pty_child *c);

#endif
