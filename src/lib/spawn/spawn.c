/* SPDX-License-Identifier: ISC */
/*
 * spawn.c - starting a project's agent: ruas_spawn() and the choice of the
 * way to start it.
 *
 * With run_as_user: sudo -n -u USER -- ruas-exec --channel-fd 0 (sudo.c), or
 * under the pam backend ruas-session --channel-fd 3 (pam.c), started with an
 * empty environment so that nothing of the supervisor's crosses but the
 * allowlisted values inside the payload, which goes over the channel. Without: the command itself, as the supervisor, in work_dir,
 * with the supervisor's environment (direct.c).
 * Either way the child gets an empty signal mask, default dispositions and
 * no descriptor above 2. posix_spawn keeps this safe in threaded hosts.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <spawn.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "spawn/handover.h"

#include "audit/run.h"
#include "buf.h"
#include "channel.h"
#include "config/config_int.h"
#include "cred/serve.h"
#include "error.h"
#include "helper_file.h"
#include "people/deny_files.h"
#include "proc.h"
#include "ruas.h"
#include "session.h"
#include "spawn_attr.h"
#include "strv.h"
#include "spawn/stall_end.h"
#include "spawn/child.h"
#include "spawn/wall_time.h"
#include "spawn/clone_into.h"
#include "spawn/cred_start.h"
#include "spawn/limit_cgroup.h"
#include "spawn/exec_limits.h"
#include "spawn/exec_payload.h"
#include "spawn/pty.h"
#include "spawn/relay.h"
#include "spawn/start.h"
#include "spawn/start_wait.h"
#include "spawn/sudo_call.h"
#include "spawn/values.h"

extern char **environ;

/*
 * What start_target()'s file actions and spawn_setup() do for posix_spawn,
 * as a plan for clone_into_cgroup(): the same moves in the same order. An
 * errno, or 0 with *pid and s->pidfd.
 */
static int start_in_cgroup(struct start *s, int out, const char *path, const char *const *argv,
			   pid_t *pid)
{
	struct clone_plan plan = {.from = {out, out, s->chan_child},
				  .to = {1, 2, s->chan_fd},
				  .nmoves = 3,
				  .null_stdin = s->chan_fd != 0,
				  .close_from = s->chan_fd + 1 > 3 ? s->chan_fd + 1 : 3,
				  .new_session = s->master >= 0};
	return clone_into_cgroup(pid, &s->pidfd, limit_cgroup_fd(s->cg), path,
				 (char *const *)argv, (char *const *)sudo_call_envp, &plan);
}

int start_target(struct start *s, int r, const char *const *argv, pid_t *pid,
		 ruas_error **err)
{
	const struct ruas_config *cfg = s->cfg;
	const struct ruas_project *p = s->p;
	int pam = project_backend(p) == BACKEND_PAM;
	const char *path = pam ? cfg->session_helper : cfg->sudo;
	int out = s->capture >= 0 ? s->capture : s->stdio[2];
	if (r == 0 && (posix_spawn_file_actions_adddup2(&s->fa, out, 1) ||
		       posix_spawn_file_actions_adddup2(&s->fa, out, 2) ||
		       posix_spawn_file_actions_adddup2(&s->fa, s->chan_child, s->chan_fd) ||
		       (s->chan_fd != 0 &&
			posix_spawn_file_actions_addopen(&s->fa, 0, "/dev/null", O_RDONLY, 0)) ||
		       spawn_close_from(&s->fa, s->chan_fd + 1 > 3 ? s->chan_fd + 1 : 3)))
		r = RUAS_ERR_NOMEM;
	if (r < 0) {
		if (r == RUAS_ERR_TOOLONG)
			return error_set(err, RUAS_ERR_TOOLONG, NULL, 0, E2BIG,
					 "project \"%s\": the run's payload (command, arguments, "
					 "variables, work_dir and deny list) is too long for the "
					 "spawn channel (%u MiB at most)", p->name,
					 CHANNEL_MAX_BODY >> 20);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	int e = s->cg ? start_in_cgroup(s, out, path, argv, pid)
		      : posix_spawn(pid, path, &s->fa, &s->attr, (char *const *)argv,
				    (char *const *)sudo_call_envp);
	if (e != 0 && s->cg && e != ENOENT && e != EACCES)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot start \"%s\" inside the run's cgroup: %s; "
				 "nothing was started", p->name, path, strerror(e));
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 pam ? "project \"%s\": cannot run the pam backend's helper "
				       "\"%s\": %s (install ruas, or set session_helper in %s)"
				     : "project \"%s\": cannot run sudo \"%s\": %s "
				       "(install sudo, or set sudo = \"/path\" in %s)",
				 p->name, path, strerror(e), cfg->path);
	return 0;
}

/* What a stall left, for its message: "" when all of it was ended. */
static const char *stall_left(const struct stall *st, int pam)
{
	if (st->kept)
		return pam ? "; ruas-session could not be ended, and ends by itself"
			   : "; sudo could not be ended, and ends by itself";
	if (st->unseen)
		return "; what ran beneath it could not all be looked for on /proc, and may still "
		       "run";
	if (st->denied)
		return "; what its PAM stack started runs as root, which this user cannot end, "
		       "until its module returns";
	return "";
}

/*
 * sudo or ruas-session had not let ruas's helper take its payload in 60 s.
 * Where a process of the target's ran beneath it, the helper had started
 * and was held (a process of the target's can stop it): the helper's
 * stage. Else its PAM session stack (or sudo itself) stalled, as root,
 * before anything of the target ran; no login file can have, as none runs
 * before the helper.
 */
static int stalled(const struct ruas_project *p, const struct stall *st, ruas_error **err)
{
	int pam = project_backend(p) == BACKEND_PAM;
	if (st->target_ran)
		return error_set_start(
			err, RUAS_STAGE_HELPER, NULL, ETIMEDOUT,
			"project \"%s\": the agent did not start as user \"%s\" (helper): ruas's "
			"helper had started as \"%s\" but had not taken its payload after 60 s (a "
			"process of that user's can stop it); it was ended, and %s%s",
			p->name, p->run_as_user, p->run_as_user,
			pam ? "ruas-session with it" : "sudo with it", stall_left(st, pam));
	if (pam)
		return error_set_start(
			err, RUAS_STAGE_SUDO, NULL, ETIMEDOUT,
			"project \"%s\": the agent did not start as user \"%s\" (sudo): "
			"ruas-session had not started ruas's helper after 60 s: a module of the "
			"PAM session stack of service \"%s\" stalled, before anything of the "
			"target ran; ruas-session and what its stack started were ended%s. Fix: "
			"find the module that waits (ruas check, as root, runs the same stack)",
			p->name, p->run_as_user, p->pam_service, stall_left(st, pam));
	return error_set_start(
		err, RUAS_STAGE_SUDO, NULL, ETIMEDOUT,
		"project \"%s\": the agent did not start as user \"%s\" (sudo): sudo had not "
		"started ruas's helper after 60 s: a module of its PAM session stack, or sudo "
		"itself, stalled, as root, before anything of the target ran. sudo was ended%s. "
		"Fix: find the module that waits (sudo's PAM service, by default "
		"/etc/pam.d/sudo; try: sudo -n -u %s -- true)",
		p->name, p->run_as_user, stall_left(st, pam), p->run_as_user);
}

/* A started program whose helper never took its messages: end it, reap it, say why. */
static int abandon(struct start *s, pid_t pid, int why, unsigned int version, ruas_error **err)
{
	int e = why == HANDOVER_TIMEOUT ? ETIMEDOUT : errno;
	struct stall st;
	stall_end(pid, s->target_uid, &st);
	while (!st.kept && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (s->pidfd >= 0)
		close(s->pidfd);
	s->pidfd = -1;
	if (why == HANDOVER_TIMEOUT)
		return stalled(s->p, &st, err);
	if (why == HANDOVER_VERSION)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, EPROTO,
				 "project \"%s\": the ruas helper speaks payload version %u, this "
				 "library %u: ruas-exec and libruas must come from one release "
				 "(reinstall ruas)", s->p->name, version, PAYLOAD_VERSION);
	if (why == HANDOVER_BAD)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, EPROTO,
				 "project \"%s\": the ruas helper's first message was not its "
				 "HELLO (is the configured helper a ruas-exec of this release?)", s->p->name);
	return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
			 "project \"%s\": the ruas helper did not take its payload %s (%s, its PAM "
			 "session or the helper stalled; try: %s)", s->p->name, "(poll failed)",
			 project_backend(s->p) == BACKEND_PAM ? "ruas-session" : "sudo",
			 project_backend(s->p) == BACKEND_PAM ? "ruas check as root"
							     : "sudo -n -u TARGET -- true");
}

int start_hand_over(struct start *s, pid_t pid, const struct buf *session,
		    const struct buf *payload, ruas_error **err)
{
	struct channel_out first, then;
	unsigned int version = 0;
	int chan = s->chan;
	int stdio_and_gate[4] = {s->stdio[0], s->stdio[1], s->stdio[2], s->cred_fd};
	s->chan = -1;
	if (s->pidfd < 0) /* clone_into_cgroup() gave one already */
		s->pidfd = process_pidfd(pid);
	channel_out_init(&first);
	channel_out_init(&then);
	/* The payload waits for the helper's HELLO: see payload.h. */
	int r = (session && channel_out_add(&first, CHANNEL_SESSION, session->data, session->len,
					    NULL, 0) < 0) ||
			channel_out_add(&then, CHANNEL_PAYLOAD, payload->data, payload->len,
					stdio_and_gate, s->cred_fd >= 0 ? 4 : 3) < 0
		? HANDOVER_ERROR
		: handover(chan, pid, s->pidfd, &first, &then, &version);
	channel_out_free(&first);
	channel_out_free(&then);
	if (r == HANDOVER_OK) {
		s->chan = chan;
		s->greeted = 1;
		return 0;
	}
	close(chan);
	if (r == HANDOVER_GONE)
		return 0; /* sudo's or ruas-session's refusal: start_wait() reads its words */
	return abandon(s, pid, r, version, err);
}

int start_with_channel(struct start *s, int r, const char *const *argv, int chan_fd,
		       const struct buf *session, const struct buf *payload, pid_t *pid,
		       ruas_error **err)
{
	int sv[2] = {-1, -1};
	if (r == 0 && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
				 "project \"%s\": cannot open the spawn channel: %s", s->p->name,
				 strerror(errno));
	if (r == 0 && (s->capture = memfd_create("ruas-start", MFD_CLOEXEC)) < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot make the start's capture (memfd_create): %s",
				 s->p->name, strerror(e));
	}
	s->chan_child = sv[1];
	s->chan_fd = chan_fd;
	r = start_target(s, r, argv, pid, err);
	if (sv[1] >= 0)
		close(sv[1]);
	s->chan_child = -1;
	if (r < 0) {
		if (sv[0] >= 0)
			close(sv[0]);
		return r;
	}
	s->chan = sv[0];
	return start_hand_over(s, *pid, session, payload, err);
}

/* As run_as_user: ruas-exec's payload, then the backend's call of it. */
static int start_as_target(struct start *s, pid_t *pid, ruas_error **err)
{
	struct payload pl;
	unsigned int mode;
	/* Not a helper that the target's processes may take the channel from: see helper_file.h. */
	if (helper_readable(s->cfg->helper, &mode))
		return error_set(err, RUAS_ERR_CONFIG, NULL, 0, 0,
				 "project \"%s\": refusing to start the ruas helper \"%s\": other "
				 "users can read it (mode %04o), so a process of user \"%s\" could "
				 "take the spawn channel as it starts. Fix: chmod 0711 \"%s\" (make "
				 "install and the Debian package leave it so)",
				 s->p->name, s->cfg->helper, mode, s->p->run_as_user, s->cfg->helper);
	/* Now, not at load: the helper takes the login shell and home from here. */
	struct account acct;
	int lr = account_lookup(s->p->run_as_user, &acct), lerr = errno;
	if (lr != ACCOUNT_FOUND)
		return error_set(err, lr == ACCOUNT_MISSING ? RUAS_ERR_CONFIG : RUAS_ERR_SYSTEM, NULL,
				 0, lr == ACCOUNT_MISSING ? 0 : lerr,
				 "project \"%s\": run_as_user \"%s\" %s%s, so there is no login "
				 "shell to start the agent in", s->p->name, s->p->run_as_user,
				 lr == ACCOUNT_MISSING ? "has no passwd entry any more"
						       : "cannot be looked up: the user database could "
							 "not be read: ",
				 lr == ACCOUNT_MISSING ? "" : strerror(lerr));
	s->target_uid = acct.uid;
	int r = exec_payload_build(s->cfg, s->p, &acct, s->args, s->env, s->v, s->x, &pl);
	/* Its credentials: a gate that the helper hands to the run's PID namespace init. */
	char gate[64];
	if (r == 0 && (r = start_credentials(s, acct.uid, &pl, gate, err)) < 0) {
		exec_payload_free(&pl);
		account_clear(&acct);
		return r;
	}
	/* An argument list the agent's exec would refuse is refused here, before anything runs. */
	if (r == 0 && (r = exec_limits_check(s->p, pl.argv, pl.argc, pl.env_names, pl.env_values,
					     pl.nenv, 1, err)) < 0) {
		exec_payload_free(&pl);
		account_clear(&acct);
		return r;
	}
	if (s->master >= 0)
		pl.exec_flags |= EXEC_PTY;
	pl.run_id = (char *)s->run_id; /* not the payload's to free: exec_payload_free() leaves it */
	/* The helper's to find itself in, before anything of the target runs (neither is freed). */
	pl.cgroup = s->cg ? (char *)limit_cgroup_path(s->cg) : NULL;
	pl.audit_facility = s->helper_facility;
	if (r < 0)
		r = start_target(s, r, NULL, pid, err);
	else if (project_backend(s->p) == BACKEND_PAM)
		r = start_pam(s, &pl, pid, err);
	else
		r = start_sudo(s, &pl, pid, err);
	strv_free(pl.git_hosts); /* NULL-terminated: git_hosts_of() */
	exec_payload_free(&pl);
	account_clear(&acct);
	return r;
}

static int start(struct start *s, pid_t *pid, ruas_error **err)
{
	/*
	 * With a pty, no terminal of the caller's becomes sudo's or
	 * ruas-session's: without a controlling terminal, sudo's use_pty adds
	 * no pty of its own, and nothing of the run reads the caller's.
	 */
	int e = spawn_setup(&s->fa, &s->attr, s->master >= 0);
	if (e != 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot prepare spawn: %s", s->p->name,
				 strerror(e));
	int r = s->p->run_as_user ? start_as_target(s, pid, err) : start_direct(s, pid, err);
	spawn_teardown(&s->fa, &s->attr);
	/* The payload has gone (or never will): the helper's end of the gate is the helper's. */
	if (s->cred_fd >= 0)
		close(s->cred_fd);
	s->cred_fd = -1;
	if (r < 0) { /* nothing started: nothing to serve */
		cred_serve_free(s->cred);
		s->cred = NULL;
	}
	return r;
}

/*
 * The agent's stdio: the caller's descriptors, or this process's own 0, 1
 * and 2 (-1: inherit), as close-on-exec copies from STDIO_COPY_MIN up, so
 * that placing them on 0, 1 and 2 in the child can never overwrite one
 * with another (stdout_fd = 0, say), nor the channel on 3. An inherited
 * one that is closed becomes /dev/null, as a shell would give a command
 * whose stdio it closed, rather than whatever the spawn opens next.
 * -1 with errno, nothing left open.
 */
#define STDIO_COPY_MIN 10
static void stdio_close(int fds[3])
{
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * The name of the first of s->stdio that is a terminal, for PAM_TTY, as su
 * and sudo give the operator's terminal (not the agent's pty); "" for none
 * or for a name no PAM module should see.
 */
static void caller_tty(struct start *s)
{
	for (int i = 0; i < 3; i++)
		if (isatty(s->stdio[i]) && ttyname_r(s->stdio[i], s->tty, sizeof s->tty) == 0 &&
		    session_tty_ok(s->tty))
			return;
	s->tty[0] = '\0';
}

/* The pty's master and the relay's descriptors, when the spawn did not get as far as a handle. */
static void start_close_pty(struct start *s)
{
	int fds[] = {s->master, s->term_in, s->term_out};
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Once the child has the master: the agent's stdio copies, the capture, the relay's ends. */
static void start_close_after(struct start *s)
{
	stdio_close(s->stdio);
	int fds[] = {s->capture, s->term_in, s->term_out};
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	s->stdio[0] = s->stdio[1] = s->stdio[2] = s->capture = s->term_in = s->term_out = -1;
}

static int stdio_of(const int want[3], int got[3])
{
	got[0] = got[1] = got[2] = -1;
	for (int i = 0; i < 3; i++) {
		int fd = want[i] >= 0 ? want[i] : i;
		got[i] = fcntl(fd, F_DUPFD_CLOEXEC, STDIO_COPY_MIN);
		if (got[i] < 0 && want[i] < 0 && errno == EBADF) {
			int null = open("/dev/null", O_RDWR | O_CLOEXEC);
			got[i] = null < 0 ? -1 : fcntl(null, F_DUPFD_CLOEXEC, STDIO_COPY_MIN);
			if (null >= 0)
				close(null);
		}
		if (got[i] < 0) {
			int e = errno;
			stdio_close(got);
			errno = e;
			return -1;
		}
	}
	return 0;
}

/*
 * What follows a start recorded in c's audit: the start's outcome, then
 * the relay. 0, or a ruas_code with *err set, c freed and the run ended.
 * The relay starts after the outcome: the caller's terminal is left as it
 * is when nothing started, and the relay's watch of the channel comes
 * after STARTED (the pty keeps what the login files wrote meanwhile).
 */
static int spawn_started(struct start *s, struct ruas_child *c, ruas_error **err)
{
	/* What sudo said before the helper took over went to the agent's stderr, as it always did. */
	if (s->greeted)
		start_capture_forward(s);
	int r = start_wait(s, c, err);
	if (r < 0) {
		start_close_after(s);
		return r;
	}
	int e = c->relayed ? spawn_relay_start(c, s->term_in, s->term_out) : 0;
	s->term_in = s->term_out = -1;
	start_close_after(s);
	/* A wall_time_max that cannot be kept is not a run without one. */
	int we = !e && s->p->limits.wall_time
			 ? wall_time_start(c, s->p->limits.wall_time, s->p->terminate_grace, &c->wall)
			 : 0;
	if (!e && !we)
		return 0;
	/* Started, but nobody to relay or keep its time: it ends, and nothing is left of it. */
	ruas_child_free(c);
	if (we)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, we,
				 "project \"%s\": cannot keep its wall_time_max, so the run was "
				 "ended: %s",
				 s->p->name,
				 we == ENOSYS ? "the kernel gives no pidfd of it (Linux 5.3 or later does)"
					      : strerror(we));
	return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
			 "project \"%s\": cannot start the pty's relay: %s", s->p->name, strerror(e));
}

/* The rest of ruas_spawn() once the per-spawn values are checked: the child, or NULL with *r. */
static struct ruas_child *spawn_with(const struct ruas_config *cfg, const struct ruas_project *p,
				     const char *const *args, const ruas_spawn_options *o,
				     const struct spawn_values *v, int *r, ruas_error **err)
{
	int want[3] = {o->stdin_fd, o->stdout_fd, o->stderr_fd};
	struct start s = {.cfg = cfg, .p = p, .args = args, .v = v, .chan = -1, .pidfd = -1,
			  .chan_child = -1, .capture = -1, .cred_fd = -1, .master = -1, .term_in = -1,
			  .term_out = -1, .cred_cb = o->credential_callback,
			  .cred_payload = o->credential_payload};
	int relay = o->pty_relay == RUAS_PTY_RELAY_LIBRARY;
	s.env = o->env ? o->env : (const char *const *)environ;
	if ((*r = spawn_pty_check(p, o, err)) < 0)
		return NULL;
	if (stdio_of(want, s.stdio) < 0) {
		int e = errno;
		/* Only EBADF is the caller's descriptor; out of descriptors is this process's limit. */
		*r = e == EBADF ? error_set(err, RUAS_ERR_INVALID, NULL, 0, e,
					    "ruas_spawn: project \"%s\": stdin_fd, stdout_fd or "
					    "stderr_fd is not an open descriptor: %s",
					    p->name, strerror(e))
				: error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
					    "ruas_spawn: project \"%s\": cannot copy the agent's "
					    "stdio: %s", p->name, strerror(e));
		return NULL;
	}
	caller_tty(&s);
	if ((*r = spawn_pty_open(&s, o->pty, relay, err)) < 0) {
		stdio_close(s.stdio);
		return NULL;
	}
	struct ruas_child *c = calloc(1, sizeof *c);
	if (!c) {
		stdio_close(s.stdio);
		start_close_pty(&s);
		*r = error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
		return NULL;
	}
	/* The run, and its audit_log, before anything starts: nothing runs unrecorded. */
	c->survivors = -1;
	c->started = p->run_as_user ? -1 : 1; /* posix_spawn() itself reports a failed exec */
	c->audit = audit_run_new(cfg, p, o->audit, r, err);
	s.run_id = c->audit ? audit_run_id(c->audit) : NULL;
	s.helper_facility = c->audit ? audit_run_helper_facility(c->audit) : 0;
	struct deny_files x = {0};
	if (c->audit)
		*r = deny_files_build(cfg, p, &x, err);
	s.x = &x;
	if (*r == 0)
		*r = limit_cgroup_make(cfg, p, s.run_id, &s.cg, err);
	if (*r == 0)
		*r = start(&s, &c->pid, err);
	if (*r < 0) {
		limit_cgroup_end(s.cg, CGROUP_END_WAIT_MS, 1);
		start_close_after(&s);
		deny_files_free(&x);
		audit_run_free(c->audit);
		free(c);
		start_close_pty(&s);
		return NULL;
	}
	struct audit_spawn as = {cfg, p, args, s.env, v, p->person ? &x.dl : NULL, c->pid};
	int recorded = audit_run_start(c->audit, &as, err);
	c->files = deny_files_release(&x); /* the child's now; removed by ruas_child_free */
	c->chan = s.chan;
	c->master = s.master;
	c->pam = p->run_as_user && project_backend(p) == BACKEND_PAM;
	c->pidfd = s.pidfd >= 0 ? s.pidfd : process_pidfd(c->pid);
	c->cg = s.cg; /* the child's now: ended as it is reaped (child.c) */
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->relay_lock, NULL);
	c->relayed = s.term_in >= 0;
	recorded = start_serving(c, s.cred, recorded, p, err);
	*r = recorded < 0 ? recorded : spawn_started(&s, c, err);
	if (recorded < 0) {
		/* Started, but its start could not be recorded: it ends at once. */
		start_close_after(&s);
		ruas_child_free(c);
	}
	return *r < 0 ? NULL : c;
}

int ruas_spawn(ruas_child **out, const ruas_config *cfg, const char *project,
	       const char *const *args, const ruas_spawn_options *opts,
	       ruas_error **err)
{
	if (!out || !cfg || !project)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_spawn: out, cfg and project are required");
	*out = NULL;
	if (error_options_version(err, "ruas_spawn", opts ? &opts->version : NULL, 1,
				  RUAS_SPAWN_OPTIONS_VERSION))
		return RUAS_ERR_INVALID;
	const struct ruas_project *p = ruas_config_project_find(cfg, project);
	if (!p)
		return error_set(err, RUAS_ERR_NOTFOUND, cfg->path, 0, 0,
				 "no project named \"%s\" in %s", project, cfg->path);
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	if (opts && opts->version < 4) {
		/*
		 * Version 1 ends before the descriptors, 2 before pty, 3 before
		 * pty_relay: read only what it has. Before 4 there was no pty
		 * unless asked for, and the caller relayed it.
		 */
		o.pty = RUAS_PTY_NONE;
		o.pty_relay = RUAS_PTY_RELAY_CALLER;
		memcpy(&o, opts, opts->version == 1   ? offsetof(ruas_spawn_options, stdin_fd)
				 : opts->version == 2 ? offsetof(ruas_spawn_options, pty)
						      : offsetof(ruas_spawn_options, pty_relay));
	} else if (opts && opts->version == 4) {
		memcpy(&o, opts, offsetof(ruas_spawn_options, audit)); /* 4 ends before audit */
	} else if (opts && opts->version == 5) {
		/* 5 ends before credential_callback */
		memcpy(&o, opts, offsetof(ruas_spawn_options, credential_callback));
	} else if (opts) {
		memcpy(&o, opts, sizeof o);
	}
	struct spawn_values v;
	int r = spawn_values_check(cfg, p, &o, &v, err);
	struct ruas_child *c = r < 0 ? NULL : spawn_with(cfg, p, args, &o, &v, &r, err);
	spawn_values_free(&v);
	if (r < 0)
		return r;
	*out = c;
	return 0;
}
