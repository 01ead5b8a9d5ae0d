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
 *           environment, then PAM's; exec the target's login shell with
 *           "exec ruas-exec --channel-fd 3" (and "--init-fd 4" with the
 *           namespace), the same helper the sudo backend runs, so both
 *           backends give the same agent;
 *   parent: relay SIGTERM, SIGHUP, SIGINT, SIGQUIT to the child, wait, then
 *           pam_close_session, pam_setcred(DELETE), pam_end on every path,
 *           and exit as the child did.
 *
 * The library starts it as `ruas-session --channel-fd 3`: descriptor 3 is
 * the spawn channel (channel.h), on which its own payload comes first; the
 * rest (ruas-exec's payload, and for a spawn the agent's stdio) it hands
 * down to ruas-exec unread, as descriptor 3, and keeps no copy, so that the
 * channel ends when the helper does. Nothing is on a command line.
 *
 * In check mode it runs only pam_start and pam_acct_mgmt, prints the
 * verdict (src/common/proto/session_acct.h) and whether root can make the
 * agent's PID namespace, then runs ruas-exec's checks in a child that has
 * fully dropped.
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
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"
#include "drop.h"
#include "exit_status.h"
#include "pam_login.h"
#include "payload.h"
#include "pidns.h"
#include "proc.h"
#include "session_acct.h"


/*
 * A backslash before every byte but [A-Za-z0-9_-]. That is sudo -i's
 * escaping but stricter: sudo leaves `$` live (see payload.h), this does
 * not. What it escapes is the helper's path and a hex payload.
 */
static void shell_escape(struct buf *b, const char *s)
{
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			buf_addc(b, '\\');
		buf_addc(b, c);
	}
}

/*
 * As root, before the drop: the agent's PID namespace (pidns.h), whose init
 * stays root, where the agent cannot signal it, and needs no user
 * namespace, so set-user-ID programs keep working inside. 1 when
 * descriptor 4 is then the init's control socket, 0 when the lifetime is
 * the subreaper's (or auto, and no namespace can be made). Exits on failure.
 */
static int make_pidns(const struct payload *p)
{
	char why[256];
	int ctl = -1;
	int got = p->lifetime == LIFETIME_SUBREAPER ? PIDNS_UNAVAILABLE
						     : pidns_start(0, &ctl, why, sizeof why);
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

/* In the child: become the target and exec. Never returns. */
static void run_child(const struct passwd *pw, char **env, const struct payload *p)
{
	setsid();
	int init = p->mode == SESSION_EXEC && make_pidns(p);
	if (drop_to(pw) < 0)
		_exit(EXIT_HELPER);
	if (chdir(pw->pw_dir) < 0 && chdir("/") < 0)
		_exit(EXIT_HELPER);
	/* The channel, and nothing else but the init's socket, reaches ruas-exec as 3 (and 4). */
	closefrom(init ? 5 : 4);
	if (fcntl(3, F_SETFD, 0) < 0)
		_exit(EXIT_HELPER);
	if (p->mode == SESSION_CHECK) {
		char *argv[] = {p->helper, (char *)"--channel-fd", (char *)"3", NULL};
		execve(p->helper, argv, env);
		fprintf(stderr, "ruas-session: cannot run %s: %s\n", p->helper, strerror(errno));
		_exit(127);
	}
	const char *shell = pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh";
	const char *base = strrchr(shell, '/');
	struct buf arg0 = BUF_INIT, cmd = BUF_INIT;
	buf_printf(&arg0, "-%s", base ? base + 1 : shell);
	buf_adds(&cmd, "exec ");
	shell_escape(&cmd, p->helper);
	buf_adds(&cmd, init ? " --channel-fd 3 --init-fd 4" : " --channel-fd 3");
	char *argv[] = {arg0.data, "-c", cmd.data, NULL};
	if (arg0.oom || cmd.oom)
		_exit(EXIT_HELPER);
	execve(shell, argv, env);
	fprintf(stderr, "ruas-session: cannot run the login shell %s: %s\n", shell,
		strerror(errno));
	_exit(126);
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

/* Relays signals to the child until it ends; returns its exit code. */
static int supervise(pid_t child, const sigset_t *set)
{
	for (;;) {
		int st;
		pid_t w = waitpid(child, &st, WNOHANG);
		if (w == child)
			return exit_status_code(st);
		if (w < 0 && errno != EINTR)
			return EXIT_HELPER;
		siginfo_t si;
		int sig = sigwaitinfo(set, &si);
		if (sig > 0 && sig != SIGCHLD)
			kill(child, sig);
	}
}

/* Forks the child that becomes the target, relays signals to it; its exit code. */
static int run_session(const struct passwd *pw, char **env, const struct payload *p)
{
	sigset_t set, old;
	pid_t child = -1;
	if (block_relayed_signals(&set, &old) < 0) {
		perror("ruas-session: sigprocmask");
	} else if ((child = fork()) == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		run_child(pw, env, p);
	} else if (child < 0) {
		perror("ruas-session: fork");
	}
	/* The helper holds the channel now: its end must be the channel's end. */
	close(3);
	return child < 0 ? EXIT_HELPER : supervise(child, &set);
}

/*
 * The session payload, only from the channel on descriptor 3, and only its
 * first message: the rest is ruas-exec's. 0, or -1 after a complaint.
 */
static int take_payload(int argc, char **argv, struct payload *p)
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
	buf_addc(&body, '\0');
	if (r == 0)
		r = body.oom ? -1 : payload_decode(body.data, p, &why);
	buf_free(&body);
	if (r < 0 || p->kind != PAYLOAD_SESSION ||
	    (p->mode != SESSION_EXEC && p->mode != SESSION_CHECK)) {
		fprintf(stderr, "ruas-session: bad payload: %s\n", why ? why : "not a session");
		if (r == 0)
			payload_free(p);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct payload p;
	if (getuid() != 0 || geteuid() != 0) {
		fputs("ruas-session: must be started by root (the pam backend serves root "
		      "supervisors)\n", stderr);
		return EXIT_HELPER;
	}
	memset(&p, 0, sizeof p);
	if (take_payload(argc, argv, &p) < 0)
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
	/* The caller's terminal, as the library named it: this one's stdin is /dev/null. */
	const char *tty = p.tty && *p.tty ? p.tty : NULL;
	struct pam_login l;
	if (pam_login_begin(&l, &pam_real_ops, p.service, p.user, p.ruser, tty, !check) < 0) {
		if (check) {
			/* A refused account is the check's finding, not the helper's failure. */
			session_acct_write_fail(stdout, l.reason);
			rc = fflush(stdout) == 0 ? 0 : EXIT_HELPER;
		} else {
			fprintf(stderr, "ruas-session: PAM (service %s) refused user %s: %s\n",
				p.service, p.user, l.reason);
		}
		goto out;
	}
	if (check) {
		char why[256];
		session_acct_write_ok(stdout);
		/* Can root make the agent's PID namespace (lifetime = "pidns")? */
		int e = pidns_probe(0, why, sizeof why);
		session_pidns_write(stdout, e, why);
		fflush(stdout);
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
	payload_free(&p);
	return rc;
}
