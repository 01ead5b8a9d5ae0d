/* SPDX-License-Identifier: ISC */
/* start_wait.c - see start_wait.h. */
#include "spawn/start_wait.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/run.h"
#include "buf.h"
#include "channel.h"
#include "config/config_int.h"
#include "control.h"
#include "error.h"
#include "payload.h"
#include "proc.h"
#include "started.h"
#include "spawn/sudo_call.h"

_Static_assert((int)RUAS_STAGE_SUDO == STARTED_STAGE_SUDO &&
		       (int)RUAS_STAGE_WORK_DIR == STARTED_STAGE_WORK_DIR &&
		       (int)RUAS_STAGE_EXEC == STARTED_STAGE_EXEC &&
		       (int)RUAS_STAGE_LOGIN == STARTED_STAGE_LOGIN &&
		       (int)RUAS_STAGE_HELPER == STARTED_STAGE_HELPER,
	       "started.h's stages are ruas.h's");

/* How much of sudo's words a refusal quotes. */
#define CAPTURE_MAX 4096

static const char *stage_name(int stage)
{
	static const char *const names[] = {"", "sudo", "work_dir", "exec", "login", "helper"};
	return stage >= 1 && stage <= STARTED_STAGE_MAX ? names[stage] : "helper";
}

/* What the helper said, or did not. */
struct verdict {
	int said;  /* STARTED came */
	struct msg_started m;
	int ended; /* EXIT came, or the channel ended: the run is over or ending */
	int timed_out;
};

/*
 * One message from the helper into v (and c, for EXIT, STOPPED, CONTINUED),
 * never waiting (each comes whole): 0 for one, 1 for none yet, -1 once the
 * channel has ended.
 */
static int take_one(struct ruas_child *c, struct verdict *v)
{
	struct buf body = BUF_INIT;
	int type, r = channel_recv(c->chan, &type, &body, NULL, NULL);
	if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
		buf_free(&body);
		return 1;
	}
	struct msg_started m;
	if (r == 1 && type == CHANNEL_STARTED && !v->said &&
	    msg_started_decode(body.data, body.len, &m) == 0) {
		v->said = 1;
		v->m = m;
	} else if (r == 1) {
		/* A stop before STARTED (a login file's): kept, as the handle's own reader would. */
		child_take_message(c, type, &body);
		v->ended = c->said;
	}
	buf_free(&body);
	if (r == 1)
		return 0;
	v->ended = 1;
	return -1;
}

/* Until STARTED, the run's end, or the deadline. */
static void await(struct ruas_child *c, struct verdict *v, long long deadline)
{
	/* Non-blocking from here on, as the handle reads it (child.c take_news()). */
	int fl = fcntl(c->chan, F_GETFL);
	if (fl < 0 || fcntl(c->chan, F_SETFL, fl | O_NONBLOCK) < 0) {
		v->ended = 1;
		return;
	}
	while (!v->said && !v->ended) {
		long long left = deadline - monotonic_ms();
		if (left <= 0) {
			v->timed_out = 1;
			return;
		}
		struct pollfd pf[2] = {{c->chan, POLLIN, 0}, {c->pidfd, POLLIN, 0}};
		/* Without a pidfd (Linux < 5.3, valgrind), look at the child every 50 ms. */
		int slice = c->pidfd >= 0 ? 1000 : 50;
		int n = poll(pf, c->pidfd >= 0 ? 2 : 1, left > slice ? slice : (int)left);
		if (n < 0 && errno != EINTR) {
			v->ended = 1;
			return;
		}
		if (n > 0 && pf[0].revents) {
			(void)take_one(c, v);
			continue;
		}
		/* What was started has ended: whatever the helper said is in the channel by now. */
		if ((n > 0 && pf[1].revents) || (c->pidfd < 0 && child_has_ended(c->pid) == 1)) {
			while (!v->said && !v->ended && take_one(c, v) == 0)
				;
			v->ended = 1;
		}
	}
}

/* The capture's lines as one line (joined with "; ", blank ones left out), fit to size. */
static void capture_words(int fd, char *out, size_t size)
{
	char raw[CAPTURE_MAX];
	ssize_t n = fd >= 0 ? pread(fd, raw, sizeof raw, 0) : -1;
	struct buf b = BUF_INIT;
	for (ssize_t i = 0, from = 0; i <= n; i++) {
		if (i < n && raw[i] != '\n')
			continue;
		if (i > from) {
			if (b.len)
				buf_adds(&b, "; ");
			buf_add(&b, raw + from, (size_t)(i - from));
		}
		from = i + 1;
	}
	started_reason_fit(out, size, b.oom ? NULL : b.data);
	buf_free(&b);
}

static int refused(struct start *s, int exit_code, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	int pam = project_backend(p) == BACKEND_PAM;
	char words[STARTED_REASON_MAX + 1];
	capture_words(s->capture, words, sizeof words);
	/*
	 * What refused before the HELLO may be ruas's own helper (its words say
	 * so): ruas-exec, or ruas-session for anything but the PAM stack's
	 * verdict on the account.
	 */
	int session_own = strncmp(words, "ruas-session:", 13) == 0 && !strstr(words, " PAM ") &&
			  strncmp(words, "ruas-session: user ", 19) != 0;
	if (strncmp(words, "ruas-exec:", 10) == 0 || session_own)
		return error_set_start(err, RUAS_STAGE_HELPER, NULL, 0,
				       "project \"%s\": the agent did not start as user \"%s\" "
				       "(helper): %s (exit status %d)",
				       p->name, p->run_as_user, words, exit_code);
	/* Only a refusal is the rules' or the account's; a failure or a signal is said as one. */
	int own = pam ? 0 : sudo_failed_itself(words, p->run_as_user);
	if (own || exit_code > 128 || exit_code < 0) {
		char why[SUDO_WORDS_MAX];
		return error_set_start(
			err, RUAS_STAGE_SUDO, NULL, own > 0 ? own : 0,
			"project \"%s\": the agent did not start as user \"%s\" (sudo): %s %s: "
			"%s (%s %d)%s%s%s",
			p->name, p->run_as_user, pam ? "ruas-session" : "sudo",
			exit_code > 128 ? "was killed" : exit_code < 0 ? "did not end" : "failed",
			*words ? words : "it said nothing",
			exit_code > 128 ? "signal" : "exit status",
			exit_code > 128 ? exit_code - 128 : exit_code, own ? ". " : "",
			own ? sudo_failure_words(words, why, sizeof why) : "",
			/* sudo ends by the signal that ended its command (ruas-exec) */
			exit_code > 128 && !pam ? ". The signal ended sudo or the helper it ran "
						  "(ruas-exec): sudo ends by the signal that "
						  "ended its command"
						: "");
	}
	return error_set_start(
		err, RUAS_STAGE_SUDO, NULL, 0,
		"project \"%s\": the agent did not start as user \"%s\" (sudo): %s refused: %s "
		"(exit status %d). Fix: %s",
		p->name, p->run_as_user, pam ? "the PAM session (ruas-session)" : "sudo",
		*words ? words : "it said nothing", exit_code,
		pam ? "ruas check, as root, names the account's state (expired, locked, or "
		      "refused by the PAM service)"
		    : "ruas check names what is missing; ruas-setup install gives the "
		      "supervisor a NOPASSWD rule for the target");
}

static int failed(struct start *s, const struct verdict *v, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	if (v->timed_out)
		return error_set_start(err, RUAS_STAGE_LOGIN, NULL, ETIMEDOUT,
				       "project \"%s\": the agent did not start as user \"%s\" "
				       "(login): its login shell had not run it after %d s (a login "
				       "file of the target's that waits, or a PAM module)",
				       p->name, p->run_as_user, START_WAIT_MS / 1000);
	if (!v->said)
		return error_set_start(err, RUAS_STAGE_HELPER, NULL, 0,
				       "project \"%s\": the agent did not start as user \"%s\" "
				       "(helper): the ruas helper ended without saying why (its "
				       "messages are on the agent's stderr)",
				       p->name, p->run_as_user);
	const char *file = NULL;
	const char *fix = "";
	if (v->m.stage == STARTED_STAGE_EXEC) {
		file = p->command[0];
		if (v->m.errnum == ENOENT)
			fix = ". Fix: install it, or name it by its absolute path in command";
	} else if (v->m.stage == STARTED_STAGE_WORK_DIR) {
		file = s->v && s->v->work_dir ? s->v->work_dir : p->work_dir;
		if (v->m.errnum == EACCES)
			fix = ". Fix: ruas-setup acl gives the target its work_dir";
	}
	return error_set_start(err, (ruas_stage)v->m.stage, file, v->m.errnum,
			       "project \"%s\": the agent did not start as user \"%s\" (%s): %s%s",
			       p->name, p->run_as_user, stage_name(v->m.stage), v->m.reason, fix);
}

/*
 * Up to ms for what was started to end, then reaps it: 0 when it was
 * reaped (its end recorded), -1 when not (ruas_child_free() then ends it,
 * bounded).
 */
static int reap_within(struct ruas_child *c, int ms)
{
	int code;
	child_wait_end(c, ms);
	return ruas_child_try_wait(c, &code, NULL) == 0 ? 0 : -1;
}

int start_wait(struct start *s, struct ruas_child *c, ruas_error **err)
{
	struct verdict v;
	long long deadline = monotonic_ms() + START_WAIT_MS;
	memset(&v, 0, sizeof v);
	if (!s->p->run_as_user) {
		c->agent_pid = c->pid;
		audit_run_started(c->audit, "none", (long)c->pid);
		return 0;
	}
	if (c->chan >= 0)
		await(c, &v, deadline);
	if (v.said && v.m.ok) {
		free(v.m.reason);
		c->started = 1;
		/* As this host names it, for logs and audit: the helper's name is its namespace's. */
		c->agent_pid = pid_at_level(c->pid, (int)v.m.pid_level, (pid_t)v.m.agent_pid);
		audit_run_started(c->audit, v.m.lifetime == LIFETIME_PIDNS ? "pidns" : "subreaper",
				  (long)c->agent_pid);
		return 0;
	}
	int r, sudo_refused = c->chan < 0 && !s->greeted;
	if (sudo_refused) {
		/* sudo refused: nothing of the target started (the end record says so). */
		c->started = 0;
		long long left = deadline - monotonic_ms();
		int reaped = reap_within(c, (int)(left > 0 ? left : 0) + 5000) == 0;
		r = refused(s, reaped ? c->exit_code : -1, err);
	} else {
		/*
		 * The helper ends the run itself, at once (no agent ran), and says
		 * how in EXIT; a run that does not end in a few seconds more is
		 * ended by the free, which is bounded.
		 */
		if (v.said || v.ended)
			(void)reap_within(c, 5000);
		r = failed(s, &v, err);
	}
	ruas_child_free(c);
	free(v.m.reason);
	return r;
}

void start_capture_forward(struct start *s)
{
	char raw[CAPTURE_MAX];
	ssize_t n = s->capture >= 0 ? pread(s->capture, raw, sizeof raw, 0) : -1;
	struct pollfd pf = {s->stdio[2], POLLOUT, 0};
	struct stat st;
	/*
	 * Only where a write cannot stall the supervisor: a file, or a pipe
	 * whose POLLOUT alone (no POLLERR, a reader) means a page of room,
	 * which CAPTURE_MAX fits. A terminal (^S) or a socket gets none.
	 */
	if (n <= 0 || fstat(s->stdio[2], &st) < 0)
		return;
	if (!S_ISREG(st.st_mode) &&
	    (!S_ISFIFO(st.st_mode) || poll(&pf, 1, 0) != 1 || pf.revents != POLLOUT))
		return;
	/* A reader that goes away meanwhile must not SIGPIPE the supervisor: this thread's own. */
	sigset_t pipe_set, old, pending;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	int was_pending = sigismember(&pending, SIGPIPE);
	if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old) != 0)
		return;
	if (write(s->stdio[2], raw, (size_t)n) < 0 && errno == EPIPE && !was_pending) {
		struct timespec none = {0, 0};
		(void)sigtimedwait(&pipe_set, NULL, &none);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
