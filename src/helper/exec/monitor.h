/* SPDX-License-Identifier: ISC */
/*
 * monitor.h - the agent's session leader on a pty of its own (EXEC_PTY),
 * so that the terminal's Ctrl-Z stops an agent that is not a shell.
 *
 * Why it exists: the agent, were it the session leader itself, would be in
 * a process group whose parent (the helper) is in another session: an
 * orphaned group, for which the kernel discards the terminal's SIGTSTP,
 * SIGTTIN and SIGTTOU, so that `cat` run directly ignored Ctrl-Z. As with
 * sudo's monitor (exec_monitor.c), a small process leads the session and
 * the agent runs in a process group of its own below it: a group with a
 * parent in the same session but another group is not orphaned.
 *
 * The monitor, forked by the helper where the agent would have been (its
 * PID namespace, when there is one), as the target like everything the
 * helper forks:
 *   - takes the pty (stdin) as its session's controlling terminal, forks
 *     the agent into a new process group and makes that group the
 *     terminal's foreground (both of them do, whichever runs first);
 *   - reports the agent's stops and continues to the helper over a
 *     socketpair (a 4-byte signal number, big-endian: the stop signal, or
 *     0 for a continue), and never stops itself: a SIGCONT cannot be lost
 *     between a stop seen and a stop made, and signals still reach the
 *     agent while it is stopped;
 *   - takes the helper's signals over the same socket (4 bytes, the
 *     signal) and sends them to the agent's process group; SIGCONT after
 *     giving that group the terminal again, as sudo does. The terminal's
 *     hangup (SIGHUP to the session leader) goes to the group too;
 *   - ends as the agent does: the same exit code, or death by the same
 *     signal (without a core), so that the helper's wait status is the
 *     agent's.
 *
 * It holds nothing the agent does not: the target's uid, the agent's pty
 * as stdio, its end of the socket and (until the agent's fork) the login
 * shell's descriptor 3; every other descriptor of the helper's is closed
 * in it. The agent can kill it (same uid): the helper
 * then sees its child die of that signal and ends the tree, as when the
 * agent itself dies; or stop it, which only stops the reports and the
 * relayed signals until it is continued.
 */
#ifndef RUAS_MONITOR_H
#define RUAS_MONITOR_H

#include <signal.h>
#include <sys/types.h>

#include "launch.h"

/*
 * Forks the monitor, which starts the agent (l: its login shell first)
 * with the signal mask old. Returns the monitor's pid with *fd the
 * helper's end of the socket (close-on-exec, non-blocking), or -1 after a
 * complaint.
 */
pid_t monitor_start(const struct launch *l, const sigset_t *old, int *fd);

/* Asks the monitor to send sig to the agent's process group: 0, or -1 when it is gone. */
int monitor_signal(int fd, int sig);

/*
 * One report of the monitor's: 1 with *stop_sig the agent's stop signal,
 * or 0 when it runs again; 0 when the monitor has gone (end of file); -1
 * when there is nothing to read now.
 */
int monitor_news(int fd, int *stop_sig);

#endif
