/* SPDX-License-Identifier: ISC */
/*
 * reaper.h - run the agent and guarantee that its whole process tree ends.
 *
 * Two ways to own the tree (the payload's lifetime, src/common/pidns.h):
 *
 *   pidns      the agent runs in a PID namespace of its own, whose init
 *              the agent can neither see nor signal, and whose end the
 *              kernel enforces when the init exits; the helper stays
 *              outside, where the agent cannot reach it. On the sudo
 *              backend the helper makes it (with a user namespace); on the
 *              pam backend ruas-session did, as root, and hands down the
 *              init's control socket.
 *   subreaper  the helper alone, as below: the agent, of the same uid,
 *              can kill or stop it and so end its own supervision.
 *
 * Either way the rest holds: the events that end the tree, the channel,
 * the agent's exact status.
 *
 * The helper is the part that runs as the target, so it owns this: the
 * supervisor cannot signal another uid, sudo cannot relay SIGKILL, and
 * PR_SET_PDEATHSIG does not survive sudo's exec. The helper becomes a child
 * subreaper, so that every orphaned descendant (double-forked, setsid'd)
 * is re-parented to it, and it watches the supervisor and its own parent
 * through pidfds. The tree gets SIGTERM, then SIGKILL after the grace
 * period, when:
 *   - the helper receives SIGTERM (SIGINT, SIGHUP, SIGQUIT, SIGUSR1,
 *     SIGUSR2, SIGALRM and SIGPIPE, which sudo or ruas-session relay from
 *     a kill(2) of the pid the supervisor holds, go to the agent's process
 *     group, as ruas_child_signal() sends them);
 *   - the supervisor or the helper's parent (sudo) dies, or the channel
 *     to the supervisor ends or says TERMINATE (KILL: no grace);
 *   - the agent itself exits (nothing of it may outlive it).
 * The agent runs in a new session, so it has no controlling terminal and
 * cannot push input into one with TIOCSTI; or, with a pty (EXEC_PTY), its
 * stdin is the slave of a pty that the supervisor opened for it, which
 * becomes that session's controlling terminal, led by the agent's monitor
 * (monitor.h), with the agent in a process group of its own as its
 * foreground: job control works inside, Ctrl-Z stops the agent whatever
 * it is, and the only terminal it can push input into is its own. The
 * helper then waits for the monitor, which ends as the agent does, and
 * the monitor reports the agent's stops and continues, which go over the
 * channel (STOPPED, CONTINUED), so that the supervisor can suspend itself
 * with it, as sudo does.
 */
#ifndef RUAS_REAPER_H
#define RUAS_REAPER_H

#include <sys/types.h>

#include "launch.h"

struct reaper_options {
	pid_t supervisor;                    /* 0: do not watch */
	unsigned long long supervisor_start; /* /proc/PID/stat field 22 */
	unsigned int grace_seconds;
	/*
	 * The spawn channel (channel.h), or -1: its SIGNAL messages go to the
	 * agent's process group, TERMINATE and its end of file end the tree
	 * with the grace, KILL at once.
	 */
	int chan;
	unsigned int lifetime; /* enum payload_lifetime */
	/*
	 * The init's control socket that ruas-session handed down (pam), or
	 * -1; with via_fd (the pam backend) the helper makes no namespace of
	 * its own.
	 */
	int init_ctl;
	int via_fd;
	int pty; /* stdin is the agent's pty slave (EXEC_PTY) */
	/*
	 * A person's private TMPDIR (/tmp/PARENT/PERSON), or NULL: in the PID
	 * namespace this helper makes (sudo), covered so that only it shows
	 * under PARENT (tmp_cover.h); ruas-session does it on pam.
	 */
	const char *private_tmp;
	/*
	 * The run's credential gate (cred_gate.h): its abstract name ("" or
	 * NULL: none) and the library's end of it (-1: none), which the
	 * reaper hands to the PID namespace's init before the agent starts.
	 */
	const char *gate_name;
	int gate;
	int status; /* out: the agent's wait status, -1 when it never ran */
	int lifetime_used; /* out: LIFETIME_PIDNS or LIFETIME_SUBREAPER, what the run had */
	/*
	 * out: how many processes of the run were still there when the agent
	 * ended (and were then ended with it): those of the agent's PID
	 * namespace as its init counts them, or the subreaper's descendants;
	 * -1 when the agent never ran.
	 */
	long survivors;
	/* out: the supervisor died without its free having said that it records the end */
	int supervisor_lost;
	/*
	 * out: supervisor_lost comes from the supervisor's pidfd, opened while
	 * /proc was the host's (the sudo backend's PID namespace mounts its
	 * own over it, where the supervisor cannot be looked up by pid)
	 */
	int supervisor_watched;
	/* out: the tree was told to end (a signal, TERMINATE, KILL, the supervisor gone) before the agent ended */
	int ended_early;
	/* out: the supervisor's free said that it records the end (control.h KILL) */
	int library_records_end;
	long long started_ms; /* monotonic, when the run began (the payload came) */
};

/*
 * Forks the run's first process (launch.h: the login shell, which becomes
 * the agent) in a new session, then supervises it as above; the agent's
 * PID namespace, when lifetime asks for one, is made (or taken) first.
 * What START said stays in l. Returns the wait status's exit code: the
 * agent's status, 128+N when signal N killed it, 126/127 when it could not
 * be run, 125 when the supervisor was already gone, the helper could not
 * set up, or lifetime is pidns and no PID namespace could be had.
 */
int reaper_run(struct launch *l, struct reaper_options *o);

#endif
