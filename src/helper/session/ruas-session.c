/* SPDX-License-Identifier: ISC */
/*
 * ruas-session - the pam backend's root side, for a supervisor that runs as
 * root. Like runuser -l, in order:
 *
 *   initgroups (in the parent, before PAM: groups that pam_group grants in
 *   pam_setcred are added to these and survive, as in util-linux su);
 *   pam_start, pam_acct_mgmt (refuse expired accounts with PAM's reason),
 *   pam_setcred(ESTABLISH), pam_open_session, fork;
 *   child:  setsid; unless lifetime is the subreaper's, a new PID namespace
 *           whose init stays root (pidns.h), its control socket handed
 *           down as descriptor 4; setresgid + setresuid, verified; the login
 *           environment, then PAM's; exec ruas-exec --channel-fd 3 (and
 *           --init-fd 4 with the namespace) directly, never through the
 *           target's login shell: the helper runs that itself, inside the
 *           run (src/helper/exec/launch.h), as it does on the sudo backend,
 *           so both backends give the same agent and nothing the target can
 *           write runs before the helper;
 *   parent: a child subreaper: relay SIGTERM, SIGHUP, SIGINT, SIGQUIT,
 *           SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE to the child, wait; then kill and reap whatever of the run came
 *           back to it (the namespace's root init, should the helper have
 *           died before it), so that no root process of the run outlives
 *           this one; then pam_close_session, pam_setcred(DELETE), pam_end
 *           on every path, and exit as the child did.
 *
 * The library starts it as `ruas-session --channel-fd 3`: descriptor 3 is
 * the spawn channel (channel.h), on which its own payload comes first; the
 * rest (ruas-exec's payload, and for a spawn the agent's stdio) it hands
 * down to ruas-exec unread, as descriptor 3, and keeps no copy, so that the
 * channel ends when the helper does. Nothing is on a command line.
 *
 * In check mode it runs only pam_start and pam_acct_mgmt, sends the
 * verdict and whether root can make the agent's PID namespace as a REPORT
 * of its own on the channel (src/proto/helper_report.h), then runs
 * ruas-exec's checks in a child that has fully dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "leftovers.h"
#include "channel.h"
#include "drop.h"
#include "exit_status.h"
#include "pam_login.h"
#include "pam_service.h"
#include "payload.h"
#include "pidns.h"
#include "tmp_cover.h"
#include "proc.h"
#include "helper_report_write.h"
#include "keep_cgroup.h"
#include "session.h"


/*
 * As root, before the drop: the agent's PID namespace (pidns.h), whose init
 * stays root, where the agent cannot signal it, and needs no user
 * namespace, so set-user-ID programs keep working inside. 1 when
 * descriptor 4 is then the init's control socket, 0 when the lifetime is
 * the subreaper's (or auto, and no namespace can be made). Exits on failure.
 */
static int make_pidns(const struct session *p)
{
	char why[256];
	int ctl = -1;
	int got = p->lifetime == LIFETIME_SUBREAPER ? PIDNS_UNAVAILABLE
						     : pidns_start(NULL, &ctl, why, sizeof why);
	if (p->lifetime == LIFETIME_SUBREAPER ||
	    (got == PIDNS_UNAVAILABLE && p->lifetime == LIFETIME_AUTO))
		return 0;
	if (got != PIDNS_OK) {
		fprintf(stderr, "ruas-session: %s: %s\n", pidns_failure(got), why);
		_exit(EXIT_HELPER);
	}
	if ((ctl != 4 && dup2(ctl, 4) < 0) || fcntl(4, F_SETFD, 0) < 0)
		_exit(EXIT_HELPER);
	if (ctl != 4)
		close(ctl);
	return 1;
}

/*
 * The helper, opened as root: a descriptor of a regular file that other
 * users cannot read, or -1 after a complaint. One they can read would run
 * dumpable as the target until its first instruction, and the target's
 * processes could take the channel from it (src/lib/helper_file.h). The
 * file checked is the file run: it is executed through this descriptor.
 * *code: the exit code of a failure.
 */
static int open_helper(const struct session *p, const struct passwd *pw, int *code)
{
	struct stat st;
	int fd = open(p->helper, O_PATH | O_CLOEXEC);
	*code = fd < 0 && errno == ENOENT ? 127 : EXIT_HELPER; /* as a failed exec's (env(1)) */
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "ruas-session: cannot run %s: %s\n", p->helper, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "ruas-session: cannot run %s: not a regular file\n", p->helper);
		close(fd);
		return -1;
	}
	if (st.st_mode & (S_IRGRP | S_IROTH)) {
		fprintf(stderr,
			"ruas-session: refusing to run the helper %s: other users can read it "
			"(mode %04o), so a process of user %s could take the channel as it starts; "
			"chmod 0711 %s\n",
			p->helper, (unsigned int)(st.st_mode & 07777), pw->pw_name, p->helper);
		close(fd);
		return -1;
	}
	/* Above the numbers the child hands down (3, 4), which make_pidns() takes. */
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	close(fd);
	if (high < 0)
		say_dup_high_failed("ruas-session: the helper's descriptor", errno);
	return high;
}

/*
 * As root, in the namespace make_pidns() made: the person's private TMPDIR
 * alone under /tmp/ruas-UID (tmp_cover.h), before the helper makes it; a
 * squatter's /tmp/ruas-UID is moved aside first. Exits when that fails:
 * the person's files would show to the others of the same user.
 */
static void cover_tmp(const struct session *p, const struct passwd *pw)
{
	char parent[32], why[256];
	snprintf(parent, sizeof parent, "ruas-%u", (unsigned int)pw->pw_uid);
	int r = tmp_cover(parent, p->person, pw->pw_uid, pw->pw_gid, 0, why, sizeof why);
	if (r > 0)
		snprintf(why, sizeof why, "it, or the person's directory in it, is not this user's "
				"own directory, even after moving it aside (someone is racing for it)");
	if (r != 0) {
		fprintf(stderr, "ruas-session: cannot keep the private TMPDIR /tmp/%s/%s from the "
				"other people of user %s: %s\n",
			parent, p->person, pw->pw_name, why);
		_exit(EXIT_HELPER);
	}
}

/* In the child: become the target and exec the helper. Never returns. */
static void run_child(const struct passwd *pw, char **env, const struct session *p)
{
	setsid();
	int code;
	int helper = open_helper(p, pw, &code);
	if (helper < 0)
		_exit(code);
	int init = p->mode == SESSION_EXEC && make_pidns(p);
	if (init && p->person && *p->person)
		cover_tmp(p, pw);
	if (drop_to(pw) < 0)
		_exit(EXIT_HELPER);
	if (chdir(pw->pw_dir) < 0 && chdir("/") < 0)
		_exit(EXIT_HELPER);
	/* The channel, and nothing else but the init's socket, reaches ruas-exec as 3 (and 4). */
	close_range(init ? 5 : 4, (unsigned int)helper - 1, 0);
	closefrom(helper + 1);
	if (fcntl(3, F_SETFD, 0) < 0)
		_exit(EXIT_HELPER);
	char *argv[] = {p->helper, (char *)"--channel-fd", (char *)"3",
			init ? (char *)"--init-fd" : NULL, (char *)"4", NULL};
	syscall(SYS_execveat, helper, "", argv, env, AT_EMPTY_PATH);
	fprintf(stderr, "ruas-session: cannot run %s: %s\n", p->helper, strerror(errno));
	_exit(127);
}

/*
 * The target's passwd entry in storage of its own (*mem, to free): PAM
 * modules and NSS run in this process between the lookup and the drop, and
 * getpwnam()'s static entry may be overwritten by theirs, even with root's.
 * 0, or -1 when the user cannot be found.
 */
static int lookup_user(const char *name, struct passwd *pw, char **mem)
{
	struct passwd *res = NULL;
	size_t size = 4096;
	for (;;) {
		if (!(*mem = malloc(size)))
			return -1;
		int e = getpwnam_r(name, pw, *mem, size, &res);
		if (e == ERANGE && size < (1u << 20)) {
			free(*mem);
			size *= 4;
			continue;
		}
		if (res)
			return 0;
		free(*mem);
		*mem = NULL;
		return -1;
	}
}

/*
 * Relays signals to the child until it ends; returns its exit code. The
 * helper passes them on to the agent, as sudo's relaying does, but SIGTERM,
 * after which it ends the tree within the project's grace; a helper that
 * does not (stopped by another process of the target's) is killed grace +
 * 5 seconds later, as ruas run kills a sudo that stays (and as util-linux
 * su kills its child), so that it keeps neither the session nor root's init
 * alive. SESSION_KILL_SIGNAL, which only root can send (the library's
 * ruas_child_free() when the helper does not answer), kills it at once.
 */
static int supervise(pid_t child, const sigset_t *set, unsigned int grace)
{
	long long kill_at = 0;
	for (;;) {
		int st;
		pid_t w = waitpid(child, &st, WNOHANG);
		if (w == child)
			return exit_status_code(st);
		if (w < 0 && errno != EINTR)
			return EXIT_HELPER;
		siginfo_t si;
		long long left = kill_at ? kill_at - monotonic_ms() : 1000;
		if (left < 0)
			left = 0;
		struct timespec ts = {left / 1000, (left % 1000) * 1000000};
		int sig = sigtimedwait(set, &si, &ts);
		if (sig == SESSION_KILL_SIGNAL) {
			kill_at = monotonic_ms();
		} else if (sig > 0 && sig != SIGCHLD) {
			kill(child, sig);
			if (sig == SIGTERM && !kill_at)
				kill_at = monotonic_ms() + 1000LL * (grace + 5);
		}
		if (kill_at && monotonic_ms() >= kill_at)
			kill(child, SIGKILL);
	}
}

/* Forks the child that becomes the target, relays signals to it; its exit code. */
static int run_session(const struct passwd *pw, char **env, const struct session *p)
{
	sigset_t set, old;
	pid_t child = -1;
	/* What the run leaves when its helper is gone comes back here (leftovers.h). */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror("ruas-session: PR_SET_CHILD_SUBREAPER");
	} else if (block_relayed_signals(&set, &old) < 0 ||
		   sigaddset(&set, SESSION_KILL_SIGNAL) < 0 || sigaddset(&set, SIGUSR1) < 0 ||
		   sigaddset(&set, SIGUSR2) < 0 || sigaddset(&set, SIGALRM) < 0 ||
		   sigaddset(&set, SIGPIPE) < 0 || sigprocmask(SIG_BLOCK, &set, NULL) < 0) {
		perror("ruas-session: sigprocmask");
	} else if ((child = fork()) == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		run_child(pw, env, p);
	} else if (child < 0) {
		perror("ruas-session: fork");
	}
	/* The helper holds the channel now: its end must be the channel's end. */
	close(3);
	int rc = child < 0 ? EXIT_HELPER : supervise(child, &set, p->grace_seconds);
	leftovers_end();
	return rc;
}

/*
 * The session's message, only from the channel on descriptor 3, and only
 * its first message: the rest is ruas-exec's. 0, or -1 after a complaint.
 */
static int take_session(int argc, char **argv, struct session *p)
{
	const char *why = NULL;
	if (argc != 3 || strcmp(argv[1], "--channel-fd") != 0 || strcmp(argv[2], "3") != 0) {
		fputs(argc == 2 ? "ruas-session: refusing a payload on the command line: it comes "
				  "only over the channel (are ruas and ruas-session of the same "
				  "version?)\n"
				: "ruas-session: internal helper of ruas (pam backend); not for "
				  "direct use\n",
		      stderr);
		return -1;
	}
	struct buf body = BUF_INIT;
	int type = 0;
	int r = channel_recv(3, &type, &body, NULL, NULL) == 1 && type == CHANNEL_SESSION ? 0 : -1;
	if (r == 0)
		r = session_decode(body.data, body.len, p, &why);
	buf_free(&body);
	if (r < 0) {
		fprintf(stderr, "ruas-session: bad payload: %s\n", why ? why : "not a session");
		return -1;
	}
	return 0;
}

/* Check mode: the account's verdict (and the namespace's), as a REPORT of its own. 0, or -1. */
static int send_verdict(int ok, const char *reason)
{
	struct buf rep = BUF_INIT;
	report_begin(&rep, REPORT_FROM_SESSION);
	report_put_acct(&rep, ok, reason);
	if (ok) {
		char why[256];
		/* Can root make the agent's PID namespace (lifetime = "pidns")? */
		int e = pidns_probe(NULL, why, sizeof why);
		report_put_pidns(&rep, e, why);
	}
	int r = channel_send_buf(3, CHANNEL_REPORT, &rep);
	buf_free(&rep);
	return r;
}

/*
 * PAM runs /etc/pam.d/other for a service it cannot find, without a word;
 * the library refuses first, and so does this, called directly. 1 (with
 * *rc) when the session cannot go on: the check's verdict sent, or a
 * failure said on stderr.
 */
static int service_refused(const struct session *p, int check, int *rc)
{
	char why[512];
	int sr = pam_service_problem(PAM_SERVICE_DIR, p->service, why, sizeof why);
	if (sr == PAM_SERVICE_NO_FD) {
		/* Its own limit, not the service's verdict: the helper failed. */
		char words[256];
		fprintf(stderr, "ruas-session: %s%s\n", why,
			descriptor_limit_words(errno, words, sizeof words));
		*rc = EXIT_HELPER;
		return 1;
	}
	if (sr == 0)
		return 0;
	if (check)
		*rc = send_verdict(0, why) == 0 ? 0 : EXIT_HELPER;
	else
		fprintf(stderr, "ruas-session: refusing PAM service %s for user %s: %s\n",
			p->service, p->user, why);
	return 1;
}

/*
 * The account checked and, to run, PAM's session opened, in the run's own
 * cgroup where it has one (keep_cgroup.h). 0 with l begun, or -1 with *rc
 * and nothing of PAM left open.
 */
static int session_begin(struct pam_login *l, const struct session *p, int check, int *rc)
{
	struct kept_cgroup k = {.dir = -1};
	char why[8400];
	if (!check && p->keep_cgroup && keep_cgroup_open(&k, why, sizeof why) < 0) {
		fprintf(stderr, "ruas-session: refusing to run user %s: the run has a cgroup of its "
				"own, but ruas-session %s\n", p->user, why);
		return -1;
	}
	/* The caller's terminal, as the library named it: this one's stdin is /dev/null. */
	const char *tty = p->tty && *p->tty ? p->tty : NULL;
	if (pam_login_begin(l, &pam_real_ops, p->service, p->user, p->ruser, tty, !check) < 0) {
		if (k.dir >= 0)
			close(k.dir);
		if (check) {
			/* A refused account is the check's finding, not the helper's failure. */
			*rc = send_verdict(0, l->reason) == 0 ? 0 : EXIT_HELPER;
		} else {
			fprintf(stderr, "ruas-session: PAM (service %s) refused user %s: %s\n",
				p->service, p->user, l->reason);
		}
		return -1;
	}
	/* Before anything of the target runs: nothing of the run outside its limits. */
	if (k.dir >= 0 && keep_cgroup_return(&k, why, sizeof why) < 0) {
		fprintf(stderr, "ruas-session: refusing to run user %s: %s\n", p->user, why);
		pam_login_end(l);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct session p;
	if (getuid() != 0 || geteuid() != 0) {
		fputs("ruas-session: must be started by root (the pam backend serves root "
		      "supervisors)\n", stderr);
		return EXIT_HELPER;
	}
	memset(&p, 0, sizeof p);
	if (take_session(argc, argv, &p) < 0)
		return EXIT_HELPER;
	/* From here every exit goes through `out`. */
	int rc = EXIT_HELPER;
	struct passwd pwent, *pw = NULL;
	char *pwmem = NULL;
	char **env = NULL;
	if (lookup_user(p.user, &pwent, &pwmem) == 0)
		pw = &pwent;
	if (!pw || pw->pw_uid == 0) {
		fprintf(stderr, "ruas-session: user %s %s\n", p.user,
			pw ? "has uid 0; refusing" : "does not exist");
		goto out;
	}

	if (initgroups(pw->pw_name, pw->pw_gid) < 0) {
		perror("ruas-session: initgroups for the target user");
		goto out;
	}
	int check = p.mode == SESSION_CHECK;
	if (service_refused(&p, check, &rc))
		goto out;
	struct pam_login l;
	if (session_begin(&l, &p, check, &rc) < 0)
		goto out;
	if (check && send_verdict(1, NULL) < 0) {
		perror("ruas-session: the account's verdict");
		pam_login_end(&l);
		goto out;
	}
	char **pam_env = pam_login_env(&l);
	env = login_env(pw, pam_env);
	pam_login_free_env(pam_env);
	if (env)
		rc = run_session(pw, env, &p);
	pam_login_end(&l);
out:
	for (char **e = env; e && *e; e++)
		free(*e);
	free(env);
	free(pwmem);
	session_free(&p);
	return rc;
}
