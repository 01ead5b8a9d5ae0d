/* SPDX-License-Identifier: ISC */
/*
 * child.c - the handle of a started agent: its pid, waiting for it,
 * signalling it, and at free its deny files. One lock orders reaping
 * against signalling, so that no signal goes to a recycled pid.
 *
 * Behind sudo or ruas-session, signals travel over the channel to
 * ruas-exec (channel.h), never as kill(2) of sudo: a non-root supervisor
 * may not signal sudo for a moment after it starts, sudo turns what it
 * relays into the helper's death, and only the helper knows the agent's
 * process group. The helper's EXIT message tells an exit status from a
 * signal, which sudo's own status (128+N) cannot.
 */
#include "spawn/child.h"

#include "cred/serve.h"
#include "spawn/wall_time.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "audit/run.h"
#include "buf.h"
#include "channel.h"
#include "control.h"
#include "error.h"
#include "exit_status.h"
#include "proc.h"
#include "people/deny_files.h"
#include "spawn/limit_cgroup.h"
#include "spawn/relay.h"

/* How long free() waits for a killed tree before it kills sudo itself. */
#define FREE_WAIT_MS 2000

pid_t ruas_child_pid(const ruas_child *c)
{
	return c ? c->pid : RUAS_ERR_INVALID;
}

pid_t ruas_child_agent_pid(const ruas_child *c)
{
	return c ? c->agent_pid : RUAS_ERR_INVALID;
}

const char *ruas_child_run_id(const ruas_child *c)
{
	return c ? audit_run_id(c->audit) : NULL;
}

/* A handle function called with NULL: refused, never a crash. */
static int null_child(ruas_error **err, const char *fn)
{
	return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0, "%s: child is NULL", fn);
}

void child_take_message(ruas_child *c, int type, const struct buf *body)
{
	struct msg_exit e;
	int sig;
	if (type == CHANNEL_EXIT && msg_exit_decode(body->data, body->len, &e) == 0) {
		c->said = 1;
		c->said_exit = e;
		if (e.survivors != MSG_EXIT_SURVIVORS_UNKNOWN)
			c->survivors = e.survivors;
		c->started = e.started;
	} else if (type == CHANNEL_STOPPED && msg_stopped_decode(body->data, body->len, &sig) == 0) {
		c->state = RUAS_CHILD_STOPPED;
		c->stop_signal = sig;
	} else if (type == CHANNEL_CONTINUED && msg_continued_decode(body->data, body->len) == 0) {
		c->state = RUAS_CHILD_RUNNING;
	}
}

/*
 * Whatever the helper has said, without blocking (the channel is
 * non-blocking from here on; its messages are a few bytes, each sent
 * whole): a stop, a continue, and its last word, EXIT, which is kept for
 * read_exit(). Under the lock.
 */
static void take_news(ruas_child *c)
{
	if (c->chan < 0 || c->state == RUAS_CHILD_ENDING)
		return;
	int fl = fcntl(c->chan, F_GETFL);
	if (fl >= 0 && !(fl & O_NONBLOCK))
		fcntl(c->chan, F_SETFL, fl | O_NONBLOCK);
	for (;;) {
		struct buf body = BUF_INIT;
		int type;
		int r = channel_recv(c->chan, &type, &body, NULL, NULL);
		if (r == 1)
			child_take_message(c, type, &body);
		buf_free(&body);
		if (r != 1 || c->said) {
			/* At the end, or an error that is not "nothing yet": no more news. */
			if (r == 0 || c->said || (errno != EAGAIN && errno != EINTR))
				c->state = RUAS_CHILD_ENDING;
			break;
		}
	}
}

/*
 * Once what we started has been reaped, the helper's last word, if it said
 * one: how the agent ended. The helper has ended too (sudo and ruas-session
 * outlive it), so this never blocks for long; a helper that was killed
 * said nothing, and the status of sudo stands. Under the lock.
 */
static void read_exit(ruas_child *c)
{
	if (c->chan < 0)
		return;
	take_news(c);
	/* The decoder took only values in range (control.h). */
	if (c->said && c->said_exit.how == EXIT_HOW_SIGNALED) {
		c->exit_code = 128 + (int)c->said_exit.value;
		c->term_signal = (int)c->said_exit.value;
	} else if (c->said) {
		c->exit_code = (int)c->said_exit.value;
		c->term_signal = 0;
	}
	close(c->chan);
	c->chan = -1;
}

int ruas_child_pty_fd(const ruas_child *c)
{
	if (!c)
		return RUAS_ERR_INVALID;
	return c->relayed ? -1 : c->master;
}

int ruas_child_state_fd(const ruas_child *c)
{
	if (!c)
		return RUAS_ERR_INVALID;
	pthread_mutex_t *lock = (pthread_mutex_t *)&c->lock;
	pthread_mutex_lock(lock);
	int fd = c->master >= 0 && !c->relayed ? c->chan : -1;
	pthread_mutex_unlock(lock);
	return fd;
}

int ruas_child_state(ruas_child *c, int *stop_signal)
{
	if (!c)
		return RUAS_ERR_INVALID;
	pthread_mutex_lock(&c->lock);
	if (c->chan < 0)
		c->state = c->reaped || c->master >= 0 ? RUAS_CHILD_ENDING : RUAS_CHILD_RUNNING;
	else
		take_news(c);
	int state = c->state;
	if (stop_signal)
		*stop_signal = state == RUAS_CHILD_STOPPED ? c->stop_signal : 0;
	pthread_mutex_unlock(&c->lock);
	return state;
}

/*
 * Under the lock, once reaped: whether this caller is the one to make the
 * end record (after it has let go of the lock, so that a callback sink may
 * ask the handle about itself).
 */
/*
 * Under the lock, as c is reaped: whether wall_time_max ended the run (its
 * deadline came while the run still ran), fixed then, so that nothing the
 * thread does later changes what the end record and ruas_child_limit() say.
 */
static void note_limit(ruas_child *c)
{
	c->time_limited = c->wall_fired || wall_time_fired(c->wall);
	c->peak_bytes = c->cpu_usec = ULLONG_MAX;
	if (c->cg) {
		struct limit_counts k;
		limit_cgroup_counts(c->cg, &k);
		c->memory_limited = k.memory;
		c->tasks_limited = k.tasks;
		c->peak_bytes = k.peak_bytes;
		c->cpu_usec = k.cpu_usec;
	}
}

/*
 * Once reaped, not under the lock: the run's cgroup killed whole (what the
 * helper missed goes too), waited for and removed, by one caller at a
 * time. A try-wait does not wait for it to empty: what still runs in it
 * is waited for by the next wait, or by free.
 */
static void cgroup_finish(ruas_child *c, int block)
{
	pthread_mutex_lock(&c->lock);
	struct limit_cgroup *cg = c->reaped ? c->cg : NULL;
	c->cg = cg ? NULL : c->cg;
	pthread_mutex_unlock(&c->lock);
	if (cg && !limit_cgroup_end(cg, block ? CGROUP_END_WAIT_MS : 0, 0)) {
		pthread_mutex_lock(&c->lock);
		c->cg = cg;
		pthread_mutex_unlock(&c->lock);
	}
}

int child_has_been_reaped(ruas_child *c)
{
	pthread_mutex_lock(&c->lock);
	int r = c->reaped;
	pthread_mutex_unlock(&c->lock);
	return r;
}

static int end_is_mine(ruas_child *c)
{
	int mine = c->reaped && !c->end_recorded;
	if (mine)
		c->end_recorded = 1;
	return mine;
}

static void record_end(ruas_child *c)
{
	if (c->end_unknown)
		audit_run_end(c->audit, -1, -1, -1, -1, NULL, -1, -1);
	else
		audit_run_end(c->audit, c->exit_code, c->term_signal, c->survivors, c->started,
			      c->time_limited	  ? "time"
			      : c->memory_limited ? "memory"
			      : c->tasks_limited  ? "tasks"
						  : "none",
			      c->peak_bytes == ULLONG_MAX ? -1 : (long long)c->peak_bytes,
			      c->cpu_usec == ULLONG_MAX ? -1 : (long long)c->cpu_usec);
}

/*
 * Under the lock: the end record of a run whose end this handle cannot
 * know (someone else reaped it; its helper did not answer at free) is
 * this caller's to make, once.
 */
static int unknown_end_is_mine(ruas_child *c)
{
	if (c->end_recorded)
		return 0;
	c->end_recorded = 1;
	c->end_unknown = 1;
	return 1;
}

/*
 * Waits without reaping first (WNOWAIT), then reaps under the lock, so a
 * concurrent ruas_child_signal() can never hit a recycled pid.
 */
static int wait_common(ruas_child *c, int *exit_code, int block, ruas_error **err)
{
	siginfo_t si;
	pthread_mutex_lock(&c->lock);
	int done = c->reaped;
	pthread_mutex_unlock(&c->lock);
	if (!done) {
		memset(&si, 0, sizeof si);
		int r;
		while ((r = waitid(P_PID, (id_t)c->pid, &si,
				   WEXITED | WNOWAIT | (block ? 0 : WNOHANG))) < 0 &&
		       errno == EINTR)
			;
		if (r < 0 && errno != ECHILD)
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
					 "waiting for pid %d: %s", (int)c->pid,
					 strerror(errno));
		if (r == 0 && si.si_pid == 0)
			return 1; /* still running */
		pthread_mutex_lock(&c->lock);
		if (!c->reaped) {
			int status;
			pid_t w;
			while ((w = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR)
				;
			if (w == c->pid) {
				c->exit_code = exit_status_code(status);
				c->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
				c->reaped = 1;
				note_limit(c);
				read_exit(c);
			}
		}
		done = c->reaped;
		int record = end_is_mine(c);
		pthread_mutex_unlock(&c->lock);
		if (record)
			record_end(c);
		if (!done) {
			pthread_mutex_lock(&c->lock);
			int unknown = unknown_end_is_mine(c);
			pthread_mutex_unlock(&c->lock);
			if (unknown)
				record_end(c);
			spawn_relay_finish(c, 1); /* it has ended, whoever reaped it */
			return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, ECHILD,
					 "pid %d was reaped by someone else", (int)c->pid);
		}
	}
	cgroup_finish(c, block);
	/* The agent's last output written out and the terminal restored before the wait returns. */
	spawn_relay_finish(c, 1);
	if (exit_code)
		*exit_code = c->exit_code;
	return 0;
}

int ruas_child_wait(ruas_child *c, int *exit_code, ruas_error **err)
{
	if (!c)
		return null_child(err, "ruas_child_wait");
	return wait_common(c, exit_code, 1, err);
}

int ruas_child_try_wait(ruas_child *c, int *exit_code, ruas_error **err)
{
	if (!c)
		return null_child(err, "ruas_child_try_wait");
	return wait_common(c, exit_code, 0, err);
}

int ruas_child_terminate(ruas_child *c, ruas_error **err)
{
	if (!c)
		return null_child(err, "ruas_child_terminate");
	return ruas_child_signal(c, SIGTERM, err);
}

/* What a signal becomes on the channel, its body in *body; 0 when it is not for the channel. */
static int channel_message(int sig, struct buf *body)
{
	if (sig == SIGTERM)
		return msg_terminate_encode(body) == 0 ? CHANNEL_TERMINATE : 0;
	if (sig == SIGKILL)
		return msg_kill_encode(body, 0) == 0 ? CHANNEL_KILL : 0;
	return msg_signal_encode(body, sig) == 0 ? CHANNEL_SIGNAL : 0;
}

int ruas_child_signal(ruas_child *c, int sig, ruas_error **err)
{
	if (!c)
		return null_child(err, "ruas_child_signal");
	/* As kill(2): 0 asks only whether it could be sent; a number past SIGRTMAX is none. */
	if (sig < 0 || sig > SIGRTMAX)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_child_signal: %d is not a signal (1 to %d)", sig, SIGRTMAX);
	if (sig == 0)
		return 0;
	int r = 0;
	struct buf body = BUF_INIT;
	int type = channel_message(sig, &body);
	pthread_mutex_lock(&c->lock);
	if (c->reaped) {
		/* nothing to signal */
	} else if (c->chan >= 0 && type) {
		/*
		 * Queued in the socket even while the helper is busy, so a
		 * terminate is never lost. Refused with EPIPE or ECONNRESET only
		 * when the helper has gone, and sudo is about to end after it:
		 * nothing is sent. kill(2) of sudo would reach no tree then, and
		 * killing it (free's SIGKILL) would skip its own cleanup and
		 * orphan the helper's zombie to the nearest subreaper, perhaps
		 * this process. Any other refusal (the socket full) sends the
		 * signal to sudo below.
		 */
		if (channel_send_control(c->chan, type, &body) < 0 && errno != EPIPE &&
		    errno != ECONNRESET && kill(c->pid, sig) < 0 && errno != ESRCH)
			r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno, "signal %d to pid %d: %s",
				      sig, (int)c->pid, strerror(errno));
	} else if (kill(c->pid, sig) < 0 && errno != ESRCH) {
		r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno, "signal %d to pid %d: %s", sig,
			      (int)c->pid, strerror(errno));
	}
	pthread_mutex_unlock(&c->lock);
	buf_free(&body);
	return r;
}

int ruas_child_pidfd(const ruas_child *c)
{
	return c ? c->pidfd : RUAS_ERR_INVALID;
}

/*
 * Under the lock: it may be asked while another thread reaps. The lock is
 * the handle's own, not part of what the caller sees as const.
 */
int ruas_child_term_signal(const ruas_child *c)
{
	if (!c)
		return RUAS_ERR_INVALID;
	pthread_mutex_t *lock = (pthread_mutex_t *)&c->lock;
	pthread_mutex_lock(lock);
	int sig = c->reaped ? c->term_signal : 0;
	pthread_mutex_unlock(lock);
	return sig;
}

void child_wait_end(const ruas_child *c, int ms_max)
{
	if (c->pidfd >= 0) {
		struct pollfd pf = {c->pidfd, POLLIN, 0};
		while (poll(&pf, 1, ms_max) < 0 && errno == EINTR)
			;
		return;
	}
	for (int ms = 0; ms < ms_max; ms += 10) {
		if (child_has_ended(c->pid) != 0)
			return;
		struct timespec ts = {0, 10 * 1000000L};
		nanosleep(&ts, NULL);
	}
}

/*
 * SIGKILL at free: over the channel, as KILL saying that the library
 * records the run's end (so that the helper, seeing this process end
 * later, does not record it a second time as supervisor=lost); without
 * one, kill(2). 0 when sent.
 */
static int kill_at_free(ruas_child *c)
{
	struct buf body = BUF_INIT;
	int ok = msg_kill_encode(&body, 1) == 0;
	pthread_mutex_lock(&c->lock);
	int sent = ok && !c->reaped && c->chan >= 0 &&
		   channel_send_control(c->chan, CHANNEL_KILL, &body) == 0;
	pthread_mutex_unlock(&c->lock);
	buf_free(&body);
	return sent ? 0 : ruas_child_signal(c, SIGKILL, NULL);
}

/*
 * What we started, when its helper did not answer free's KILL. sudo is
 * killed, and the helper, whose channel is then closed, ends the tree when
 * it runs again. ruas-session (root) is told to kill its helper at once
 * (SESSION_KILL_SIGNAL), and its init and whatever else of the run is left with it,
 * and to close its PAM session: killing ruas-session itself would leave
 * root's init and the session behind. Only if it does not end in time is
 * it killed. Under the lock.
 */
static void kill_unanswered(ruas_child *c)
{
	if (c->pam && kill(c->pid, SESSION_KILL_SIGNAL) == 0) {
		pthread_mutex_unlock(&c->lock);
		child_wait_end(c, FREE_WAIT_MS);
		pthread_mutex_lock(&c->lock);
		if (c->reaped || child_has_ended(c->pid) == 1)
			return;
	}
	kill(c->pid, SIGKILL);
}

void child_end_unanswered(ruas_child *c)
{
	pthread_mutex_lock(&c->lock);
	if (!c->reaped && child_has_ended(c->pid) != 1)
		kill_unanswered(c);
	pthread_mutex_unlock(&c->lock);
}

/*
 * A child still running at free: its tree is killed at once, and what we
 * started is reaped, so that neither a zombie nor an orphan is left. Over
 * the channel the helper kills the tree and ends, and sudo with it; if
 * that takes longer than FREE_WAIT_MS (a helper stopped by its own agent),
 * sudo is killed, and the helper, whose channel is then closed, ends the
 * tree as when the supervisor dies.
 */
static void end_running(ruas_child *c)
{
	if (kill_at_free(c) == 0)
		child_wait_end(c, FREE_WAIT_MS);
	pthread_mutex_lock(&c->lock);
	int unknown = 0;
	if (!c->reaped) {
		int status;
		pid_t w = waitpid(c->pid, &status, WNOHANG);
		if (w == 0) {
			/*
			 * The helper did not answer (its agent stopped it): how the
			 * tree ends is the helper's, once it runs again, and not
			 * this kill's. The end record says it is unknown.
			 */
			unknown = unknown_end_is_mine(c);
			kill_unanswered(c);
			while ((w = waitpid(c->pid, &status, 0)) < 0 && errno == EINTR)
				;
		}
		if (w == c->pid) {
			c->exit_code = exit_status_code(status);
			c->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
			read_exit(c);
		}
		c->reaped = 1;
		note_limit(c);
	}
	int record = unknown || end_is_mine(c);
	pthread_mutex_unlock(&c->lock);
	if (record)
		record_end(c);
}

ruas_limit ruas_child_limit(const ruas_child *c)
{
	if (!c)
		return RUAS_LIMIT_NONE;
	pthread_mutex_lock((pthread_mutex_t *)&c->lock);
	ruas_limit l = !c->reaped	    ? RUAS_LIMIT_NONE
		       : c->time_limited   ? RUAS_LIMIT_TIME
		       : c->memory_limited ? RUAS_LIMIT_MEMORY
		       : c->tasks_limited  ? RUAS_LIMIT_TASKS
					   : RUAS_LIMIT_NONE;
	pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
	return l;
}

void ruas_child_free(ruas_child *c)
{
	if (!c)
		return;
	/* Before anything ends or is freed: the wall clock signals nothing after this. */
	c->wall_fired = wall_time_stop(c->wall);
	c->wall = NULL;
	int code;
	spawn_relay_finish(c, 0);
	if (wait_common(c, &code, 0, NULL) == 1)
		end_running(c);
	/* Nothing more is served, and every value it kept is wiped. */
	cred_serve_free(c->cred);
	c->cred = NULL;
	/* Reaped by whoever, or never: the run's cgroup goes with the handle all the same. */
	limit_cgroup_end(c->cg, CGROUP_END_WAIT_MS, 1);
	c->cg = NULL;
	if (c->chan >= 0)
		close(c->chan);
	if (c->pidfd >= 0)
		close(c->pidfd);
	if (c->master >= 0)
		close(c->master);
	if (c->files) {
		deny_files_remove(c->files);
		free(c->files);
	}
	/* Whatever happened, a run that started has its end record. */
	if (unknown_end_is_mine(c))
		record_end(c);
	audit_run_free(c->audit);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->relay_lock);
	free(c);
}
