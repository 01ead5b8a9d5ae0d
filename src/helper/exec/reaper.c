/* SPDX-License-Identifier: ISC */
/* reaper.c - see reaper.h. */
#include "reaper.h"

#include "buf.h"
#include "channel.h"
#include "control.h"
#include "cred_gate.h"
#include "launch.h"
#include "tell_started.h"
#include "userns.h"
#include "exit_status.h"
#include "monitor.h"
#include "payload.h"
#include "people_exec.h"
#include "pidns.h"
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a supervisor whose channel has ended may take to exit (supervisor_exited()). */
#define SUPERVISOR_EXIT_MS 5000


/*
 * Signals every descendant of this process. Orphans come back to us (we are
 * a subreaper), so the descendants are the processes whose parent chain
 * reaches us. Returns how many were signalled.
 */
static int signal_tree(int sig)
{
	pid_t self = getpid();
	size_t cap = 256, n = 0;
	pid_t *pids = malloc(cap * sizeof *pids), *ppids = malloc(cap * sizeof *ppids);
	DIR *d = opendir("/proc");
	int count = 0;
	if (!pids || !ppids || !d)
		goto out;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long v = strtol(e->d_name, &end, 10);
		if (*end || v <= 0)
			continue;
		if (n == cap) {
			cap *= 2;
			pid_t *a = realloc(pids, cap * sizeof *a);
			if (a)
				pids = a;
			pid_t *b = realloc(ppids, cap * sizeof *b);
			if (b)
				ppids = b;
			if (!a || !b)
				goto out;
		}
		pids[n] = (pid_t)v;
		ppids[n] = process_parent((pid_t)v);
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		pid_t p = ppids[i];
		for (int depth = 0; p > 1 && depth < 4096; depth++) {
			if (p == self) {
				if (kill(pids[i], sig) == 0)
					count++;
				break;
			}
			size_t j = 0;
			while (j < n && pids[j] != p)
				j++;
			p = j < n ? ppids[j] : -1;
		}
	}
out:
	if (d)
		closedir(d);
	free(pids);
	free(ppids);
	return count;
}

/* What the reaper watches while the agent runs. */
struct reaper {
	int sfd, sup_fd, par_fd; /* the signalfd; the supervisor's and the parent's pidfds */
	int chan;                /* the spawn channel, -1 once it has ended */
	int ctl;                 /* the PID namespace's init (pidns.h), -1: the subreaper alone */
	unsigned int grace_seconds;
	pid_t agent;
	int agent_status; /* -1 while it runs */
	int terminating;
	long long kill_at; /* monotonic ms: when the tree gets (the next) SIGKILL */
	int mon;           /* the agent's monitor's socket (pty), -1 without or once it has gone */
	long survivors;    /* what was left when the agent ended, -1 until then */
	int supervisor_lost;
	int library_records_end; /* the supervisor's free said so (control.h KILL) */
	struct launch *launch;   /* the login shell's start, and what START said (launch.h) */
	int parent_is_sudo;      /* the sudo backend: SIGCONT goes on to it (continue_sudo()) */
};

/*
 * A process of the target's stopped this helper (it may: its uid) and has
 * continued it. sudo, which suspends itself when its command stops and
 * waits for a SIGCONT that only its invoker or root could send it, would
 * stay stopped, and the supervisor's wait with it. The kernel lets a
 * process continue any other of its session, as this one does sudo.
 * sudo ignores a signal from its own command, so nothing comes back.
 */
static void continue_sudo(const struct reaper *r)
{
	if (r->parent_is_sudo && r->par_fd >= 0)
		(void)syscall(SYS_pidfd_send_signal, r->par_fd, SIGCONT, NULL, 0);
}

/* Subreaper, the supervisor's and the parent's pidfds, the relayed signals on a signalfd. */
static int reaper_setup(struct reaper *r, const struct reaper_options *o, sigset_t *old)
{
	sigset_t set;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror("ruas-exec: PR_SET_CHILD_SUBREAPER");
		return -1;
	}
	if (o->supervisor > 0) {
		r->sup_fd = process_pidfd_of_peer(o->chan, o->supervisor, o->supervisor_start);
		if (r->sup_fd < 0 && errno == EACCES) {
			fprintf(stderr, "ruas-exec: cannot tell whether the supervisor (pid %d) is "
					"alive: /proc hides it from this user (hidepid) and this "
					"kernel cannot name the channel's peer (SO_PEERPIDFD, Linux "
					"6.5); not starting the agent\n",
				(int)o->supervisor);
			return -1;
		}
		if (r->sup_fd < 0) {
			/* Its start was recorded: its end is this helper's to record. */
			r->supervisor_lost = 1;
			fputs("ruas-exec: the supervisor is gone; not starting the agent\n", stderr);
			return -1;
		}
	}
	r->par_fd = process_pidfd(getppid());

	/*
	 * And SIGCONT, which blocked still continues this process, to pass on
	 * to sudo; and the signals that sudo (ruas-session) relays from a
	 * supervisor's kill(2) of its pid, for the agent (agent_signal()).
	 */
	if (block_relayed_signals(&set, old) < 0 || sigaddset(&set, SIGCONT) < 0 ||
	    sigaddset(&set, SIGUSR1) < 0 || sigaddset(&set, SIGUSR2) < 0 ||
	    sigaddset(&set, SIGALRM) < 0 || sigaddset(&set, SIGPIPE) < 0 ||
	    sigprocmask(SIG_BLOCK, &set, NULL) < 0) {
		perror("ruas-exec: sigprocmask");
		return -1;
	}
	r->parent_is_sudo = !o->via_fd;
	/* Blocked since main() (a SIGCONT that came before is pending here); not the agent's. */
	sigdelset(old, SIGCONT);
	r->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sfd < 0) {
		perror("ruas-exec: signalfd");
		return -1;
	}
	return 0;
}

/*
 * The agent's PID namespace, when the lifetime asks for one: the one that
 * ruas-session made (pam), or one made here (sudo). 0 to go on (r->ctl set,
 * or left at -1 for the subreaper); -1 when the agent must not run.
 */
static int lifetime_begin(struct reaper *r, struct reaper_options *o)
{
	char why[256] = "ruas-session made none";
	int got = PIDNS_UNAVAILABLE;
	if (o->init_ctl >= 0) {
		r->ctl = o->init_ctl;
		got = PIDNS_OK;
	} else if (o->lifetime == LIFETIME_SUBREAPER) {
		return o->gate >= 0 ? cred_gate_open(o->gate_name, o->gate, -1) : 0;
	} else if (!o->via_fd) {
		got = pidns_start(userns_enter, &r->ctl, why, sizeof why);
	}
	/* Credentials need the namespace (cred_gate.h): auto does not fall back without it. */
	if (got == PIDNS_UNAVAILABLE && o->lifetime == LIFETIME_AUTO && o->gate < 0)
		return 0;
	if (got != PIDNS_OK) {
		fprintf(stderr, "ruas-exec: %s: %s\n", pidns_failure(got), why);
		return -1;
	}
	if (o->init_ctl < 0 && o->private_tmp && private_tmp_cover(o->private_tmp) < 0)
		return -1;
	if (o->gate >= 0) {
		int gate = o->gate;
		o->gate = -1;
		if (cred_gate_open(o->gate_name, gate, r->ctl) < 0)
			return -1;
	}
	/*
	 * The agent's /proc shows its namespace only; should the mount fail, it
	 * sees the host's, and this helper there: nothing of its uid may then
	 * ptrace the helper or write its memory.
	 */
	int err = 0;
	if (prctl(PR_SET_DUMPABLE, 0) < 0 || pidns_mount_proc(r->ctl, &err) < 0) {
		perror("ruas-exec: the agent's PID namespace");
		return -1;
	}
	/*
	 * Through the host's /proc, /proc/PID/root of another person's agent
	 * (same uid, dumpable) leads into its namespace, around the cover.
	 */
	if (err && o->private_tmp) {
		fprintf(stderr, "ruas-exec: cannot mount the run's own /proc (%s): the private "
				"TMPDIR %s would show to the other people of this user through "
				"the host's; not starting the agent\n",
			strerror(err), o->private_tmp);
		return -1;
	}
	return 0;
}

/*
 * The run's first process inside: a session of its own, the signal mask
 * the helper had, then the login shell (launch.h); on a pty, below its
 * monitor (monitor.h), whose socket is *mon. The pid the helper waits for
 * (the agent's, once the login shell has become it, or its monitor's), or
 * -1 when fork failed.
 */
static pid_t start_agent(const struct launch *l, const sigset_t *old, int pty, int *mon)
{
	if (pty)
		return monitor_start(l, old, mon);
	pid_t agent = fork();
	if (agent < 0) {
		perror("ruas-exec: fork");
		return -1;
	}
	if (agent == 0) {
		setsid();
		launch_exec(l, old);
	}
	return agent;
}

/*
 * What is left of the run once the agent has ended: in its PID namespace,
 * as its init counts them (pidns.h: this uid may not see every process
 * there), or the descendants of this subreaper (signal 0 only asks).
 */
static long count_left(const struct reaper *r)
{
	if (r->ctl >= 0)
		return pidns_count(r->ctl);
	return signal_tree(0);
}

/*
 * KILL: SIGKILL to the whole tree now, with no SIGTERM before it that a
 * trap could take; again every 200 ms for what a fork raced past it.
 */
static void kill_now(struct reaper *r)
{
	r->terminating = 1;
	if (r->ctl >= 0)
		pidns_kill(r->ctl);
	else
		signal_tree(SIGKILL);
	r->kill_at = monotonic_ms() + 200;
}

/* SIGTERM to the whole tree, and SIGKILL once the grace period is over. */
static void begin_terminating(struct reaper *r)
{
	if (r->terminating)
		return;
	r->terminating = 1;
	if (r->ctl >= 0)
		pidns_terminate(r->ctl, r->grace_seconds); /* gone: the namespace is too */
	else
		signal_tree(SIGTERM);
	r->kill_at = monotonic_ms() + 1000LL * r->grace_seconds;
}

/*
 * The agent stopped (stop_sig) or runs again (0), as its monitor said: the
 * supervisor hears of it; full or gone, it does not.
 */
static void report_stop(const struct reaper *r, int stop_sig)
{
	struct buf body = BUF_INIT;
	if (r->chan < 0)
		return;
	if (stop_sig > 0 && msg_stopped_encode(&body, stop_sig) == 0)
		(void)channel_send_control(r->chan, CHANNEL_STOPPED, &body);
	else if (stop_sig == 0 && msg_continued_encode(&body) == 0)
		(void)channel_send_control(r->chan, CHANNEL_CONTINUED, &body);
	buf_free(&body);
}

/*
 * Reaps whatever has ended, noting the agent's status (on a pty its
 * monitor's, which ends as the agent did); 1 when no child is left.
 */
static int reap(struct reaper *r)
{
	int st;
	pid_t w;
	while ((w = waitpid(-1, &st, WNOHANG)) > 0)
		if (w == r->agent)
			r->agent_status = st;
	return w < 0 && errno == ECHILD;
}

static void settle_start(struct reaper *r);

/*
 * The monitor's reports of the agent's stops; its end of file when it has
 * gone. An agent that stops has run: its STARTED goes first, which the
 * library's ruas_spawn() waits for before anything else.
 */
static void monitor_event(struct reaper *r)
{
	int got, stop_sig;
	while ((got = monitor_news(r->mon, &stop_sig)) > 0) {
		if (!r->launch->told)
			settle_start(r);
		report_stop(r, stop_sig);
	}
	if (got == 0) {
		close(r->mon);
		r->mon = -1;
	}
}

/*
 * A signal for the agent's process group: through its monitor (pty), else
 * the group is the agent's pid, a session leader's. Until the agent's
 * setsid() its group does not exist: the signal then goes to the agent
 * alone, so it is never lost.
 */
static void signal_agent(const struct reaper *r, int sig)
{
	if (r->agent_status != -1 || sig <= 0 || sig >= NSIG)
		return;
	if (r->mon >= 0)
		(void)monitor_signal(r->mon, sig);
	else
		kill_group_else_leader(r->agent, sig);
}

/*
 * One message from the supervisor: 1 when the tree is to end, 0 when not.
 * A signal goes to the agent's process group, not to the tree, so that SIGINT interrupts the agent, which
 * decides what its children get, as a terminal's Ctrl-C would.
 */
static int channel_event(struct reaper *r)
{
	struct buf body = BUF_INIT;
	int type = 0, sig, records;
	int got = channel_recv(r->chan, &type, &body, NULL, NULL);
	int stop = 0;
	if (got <= 0) {
		/* The supervisor is gone, or freed us: nothing may outlive it. */
		close(r->chan);
		r->chan = -1;
		stop = 1;
	} else if (type == CHANNEL_SIGNAL && msg_signal_decode(body.data, body.len, &sig) == 0) {
		signal_agent(r, sig);
	} else if (type == CHANNEL_TERMINATE && msg_terminate_decode(body.data, body.len) == 0) {
		stop = 1;
	} else if (type == CHANNEL_KILL && msg_kill_decode(body.data, body.len, &records) == 0) {
		stop = 1;
		r->library_records_end |= records;
		kill_now(r);
	}
	buf_free(&body);
	return stop;
}

/* How the run is held: what LIFETIME_AUTO became (started.h). */
static int lifetime_used(const struct reaper *r)
{
	return r->ctl >= 0 ? LIFETIME_PIDNS : LIFETIME_SUBREAPER;
}

/*
 * START_EXEC's pipe has news: at its end of file with no START_FAILED
 * before it, the agent's exec succeeded, and the library hears so at once
 * (its ruas_spawn() waits for this).
 */
static void exec_news(struct reaper *r, short revents)
{
	struct launch *l = r->launch;
	if (l->told || l->exec_pipe < 0 || !launch_exec_done(l, revents))
		return;
	l->told = 1;
	l->exec_ok = 1;
	(void)tell_started_ok(r->chan, lifetime_used(r), l->agent_pid, l->pid_level);
}

/*
 * Once the agent has ended: what START said, and the end of its exec's
 * pipe, which has come by now if the exec succeeded (the agent held the
 * pipe's write end only until it).
 */
static void settle_start(struct reaper *r)
{
	struct launch *l = r->launch;
	launch_news(l);
	struct pollfd pf = {l->exec_pipe, POLLIN, 0};
	if (l->exec_pipe >= 0 && poll(&pf, 1, 0) == 1)
		exec_news(r, pf.revents);
	launch_first_ended(l, r->agent_status != -1);
}

/*
 * Waits for a relayed signal, the end of the supervisor or of the parent,
 * a message on the channel, or (terminating) the next deadline: 1 when the
 * tree is to end, 0 when not, -1 when poll() failed.
 */
static int wait_event(struct reaper *r)
{
	struct pollfd pf[7] = {{r->sfd, POLLIN, 0}, {r->sup_fd, POLLIN, 0}, {r->par_fd, POLLIN, 0},
			       {r->chan, POLLIN, 0},  {r->mon, POLLIN, 0},    {r->launch->news, POLLIN, 0},
			       {r->launch->exec_pipe, POLLIN, 0}};
	long long left = r->terminating ? r->kill_at - monotonic_ms() : -1;
	int timeout = r->terminating ? (left < 0 ? 0 : left > 1000 ? 1000 : (int)left) : -1;
	if (poll(pf, 7, timeout) < 0 && errno != EINTR)
		return -1;
	int stop = 0;
	if (pf[5].revents)
		launch_news(r->launch);
	/* The pipe polled, not one that launch_news() has just put in its place. */
	if (pf[6].revents && pf[6].fd == r->launch->exec_pipe)
		exec_news(r, pf[6].revents);
	if (pf[4].revents)
		monitor_event(r);
	if (pf[3].revents & (POLLIN | POLLHUP | POLLERR))
		stop = channel_event(r);
	if (pf[0].revents & POLLIN) {
		struct signalfd_siginfo si;
		while (read(r->sfd, &si, sizeof si) == sizeof si) {
			if (si.ssi_signo == SIGCONT)
				continue_sudo(r);
			else if (si.ssi_signo == SIGTERM)
				stop = 1;
			else if (si.ssi_signo != SIGCHLD)
				/*
				 * What sudo or ruas-session relayed from a kill(2) of
				 * the pid the supervisor holds, or the target's own:
				 * the agent's, as ruas_child_signal() gives it.
				 */
				signal_agent(r, (int)si.ssi_signo);
		}
	}
	if ((pf[1].revents | pf[2].revents) & (POLLIN | POLLHUP)) {
		stop = 1;
		/* Level-triggered: stop watching once seen. */
		if (pf[1].revents) {
			close(r->sup_fd);
			r->sup_fd = -1;
			r->supervisor_lost = 1;
		}
		if (pf[2].revents) {
			close(r->par_fd);
			r->par_fd = -1;
		}
	}
	return stop;
}

/*
 * Whether the supervisor has gone, once the run is over. Its channel's end
 * of file may have been seen first: the kernel closes a dying process's
 * descriptors before its pidfd says that it has exited, and on a loaded
 * machine the one can come long before the other. A channel that ended
 * without the library's KILL is a supervisor on its way out, so this
 * waits for that event (up to SUPERVISOR_EXIT_MS); otherwise it only looks.
 */
static int supervisor_exited(const struct reaper *r)
{
	int dying = r->chan < 0 && !r->library_records_end;
	long long until = monotonic_ms() + (dying ? SUPERVISOR_EXIT_MS : 0);
	for (;;) {
		struct pollfd sup = {r->sup_fd, POLLIN, 0};
		long long left = until - monotonic_ms();
		int n = poll(&sup, 1, left > 0 ? (int)left : 0);
		if (n == 1)
			return (sup.revents & (POLLIN | POLLHUP)) != 0;
		if ((n < 0 && errno != EINTR) || left <= 0)
			return 0;
	}
}

int reaper_run(struct launch *l, struct reaper_options *o)
{
	struct reaper r = {.sfd = -1, .sup_fd = -1, .par_fd = -1, .chan = o->chan, .ctl = -1,
			   .grace_seconds = o->grace_seconds, .agent = -1, .agent_status = -1,
			   .mon = -1, .survivors = -1, .launch = l};
	sigset_t old;
	int rc = EXIT_HELPER;

	int ok = reaper_setup(&r, o, &old) == 0 && lifetime_begin(&r, o) == 0;
	/* The user namespace's maker, when it was not asked, is no child of the run's. */
	userns_release();
	if (ok && (r.agent = start_agent(l, &old, o->pty, &r.mon)) > 0) {
		launch_forked(l, r.agent);
		for (;;) {
			int no_children = reap(&r);
			if (r.agent_status != -1 && no_children)
				break;
			/* An agent that ended at once: its START and its exec's end of file are there by now. */
			if (r.agent_status != -1 && !l->exec_ok)
				settle_start(&r);
			/* The agent is done: nothing it started may outlive it. */
			if (r.agent_status != -1 && r.survivors < 0)
				r.survivors = count_left(&r);
			if (r.agent_status != -1 && !r.terminating) {
				begin_terminating(&r);
				/* No agent ever ran: what the login files left gets no grace. */
				if (!l->exec_ok)
					r.kill_at = monotonic_ms();
			}
			if (r.terminating && monotonic_ms() >= r.kill_at) {
				/* The init's exit makes the kernel kill all the namespace holds. */
				if (r.ctl >= 0)
					pidns_kill(r.ctl);
				else
					signal_tree(SIGKILL);
				r.kill_at = monotonic_ms() + 200;
			}
			int stop = wait_event(&r);
			if (stop < 0)
				break;
			if (stop && r.agent_status == -1)
				o->ended_early = 1; /* asked to end (or the supervisor gone) before it did */
			if (stop)
				begin_terminating(&r);
		}
		rc = exit_status_code(r.agent_status);
	}
	/* A START sent just before the agent's exec is there by now. */
	settle_start(&r);
	o->status = r.agent_status;
	o->lifetime_used = lifetime_used(&r);
	o->survivors = r.agent_status == -1 ? -1 : r.survivors < 0 ? 0 : r.survivors;
	if (r.sup_fd >= 0 && supervisor_exited(&r))
		r.supervisor_lost = 1;
	o->supervisor_lost = r.supervisor_lost && !r.library_records_end;
	o->supervisor_watched = r.sup_fd >= 0 || r.supervisor_lost;
	o->library_records_end = r.library_records_end;
	o->chan = r.chan; /* -1 when the supervisor closed it */
	if (r.sup_fd >= 0)
		close(r.sup_fd);
	if (r.par_fd >= 0)
		close(r.par_fd);
	if (r.sfd >= 0)
		close(r.sfd);
	if (r.mon >= 0)
		close(r.mon);
	/* Its end of file ends the init, and the namespace, should anything be left. */
	if (r.ctl >= 0)
		close(r.ctl);
	else if (o->init_ctl >= 0)
		close(o->init_ctl);
	o->init_ctl = -1;
	if (o->gate >= 0)
		close(o->gate); /* the run never got as far as its gate */
	o->gate = -1;
	return rc;
}
