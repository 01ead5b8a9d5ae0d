/* SPDX-License-Identifier: ISC */
/* launch.c - see launch.h. */
#include "launch.h"
#include "sealed_memfd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cgroup_locate.h"
#include "complain.h"
#include "channel.h"
#include "login_env.h"
#include "people_exec.h"
#include "quote.h"
#include "strv.h"

extern char **environ;

/* A string that launch_free() frees, or NULL (then the launch fails). */
static char *own(struct launch *l, char *s)
{
	if (s && strv_push(&l->owned, &l->nowned, s) == 0)
		return s;
	free(s);
	return NULL;
}

/* A copy of the NULL-terminated vector v: its pointers, not the strings. */
static char **ptrs_dup(char *const *v)
{
	size_t n = 0;
	while (v[n])
		n++;
	char **c = calloc(n + 1, sizeof *c);
	if (c)
		memcpy(c, v, n * sizeof *c);
	return c;
}

/* "-" and the shell's name: how sudo -i and login(1) say "a login shell". */
static char *login_name(const char *shell)
{
	const char *base = strrchr(shell, '/');
	struct buf b = BUF_INIT;
	buf_printf(&b, "-%s", base ? base + 1 : shell);
	return b.oom ? (buf_free(&b), NULL) : buf_detach(&b);
}

/*
 * "exec HELPER --agent-fd 3" for the login shell's -c, every byte of the
 * path but [A-Za-z0-9_./-] behind a backslash (as sudo -i escapes, but
 * stricter: nothing expands).
 */
static char *exec_line(const char *helper)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "exec ");
	for (const char *c = helper; *c; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      strchr("_./-", *c)))
			buf_addc(&b, '\\');
		buf_addc(&b, *c);
	}
	buf_adds(&b, " --agent-fd 3");
	return b.oom ? (buf_free(&b), NULL) : buf_detach(&b);
}

/*
 * The target's login shell and home, from its passwd entry as the library
 * found it (/bin/sh for an empty shell and / for an empty home, as
 * login(1)): this program reads no user database. 0, or -1 after saying
 * why the shell cannot give the agent a login environment.
 */
static int login_of(const char *user, const char *pw_shell, const char *pw_home, char **shell,
		    char **home)
{
	*shell = *home = NULL;
	const char *sh = pw_shell && *pw_shell ? pw_shell : "/bin/sh";
	const char *base = strrchr(sh, '/');
	base = base ? base + 1 : sh;
	if (strcmp(base, "nologin") == 0 || strcmp(base, "false") == 0) {
		fprintf(stderr, "ruas-exec: user %s's login shell %s refuses logins, so the agent "
				"cannot have a login environment (usermod -s /bin/bash %s)\n",
			user, sh, user);
		return -1;
	}
	if (sh[0] != '/' || access(sh, X_OK) < 0) {
		fprintf(stderr, "ruas-exec: user %s's login shell %s cannot be run: %s\n", user, sh,
			sh[0] != '/' ? "not an absolute path" : strerror(errno));
		return -1;
	}
	*shell = strdup(sh);
	*home = strdup(pw_home && *pw_home ? pw_home : "/");
	if (!*shell || !*home) {
		free(*shell);
		free(*home);
		fputs("ruas-exec: out of memory\n", stderr);
		return -1;
	}
	return 0;
}

/* The AGENT body in a sealed memfd: its descriptor, or -1. */
static int agent_body(const struct agent_start *a)
{
	struct buf body = BUF_INIT;
	int fd = -1;
	if (agent_encode(a, &body) == 0 && body.len <= CHANNEL_MAX_BODY)
		fd = sealed_memfd("ruas-agent", body.data, body.len);
	buf_free(&body);
	return fd;
}

/* The channel between the halves, with AGENT on its way. 0, or -1. */
static int send_agent(struct launch *l, const struct agent_start *a)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	l->news = sv[0];
	l->cont = sv[1];
	/* The kernel names who sends START_EXEC: the process that becomes the agent. */
	int on = 1;
	if (setsockopt(l->news, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) < 0)
		return -1;
	int body = agent_body(a);
	if (body < 0)
		return -1;
	int fds[AGENT_NFDS] = {body, 0, 1, 2};
	int r = channel_send(l->news, CHANNEL_AGENT, NULL, 0, fds, AGENT_NFDS);
	close(body);
	if (r == 0)
		r = fcntl(l->news, F_SETFL, O_NONBLOCK);
	return r;
}

/* The command the child runs: the login shell, or bwrap around `HELPER --login-fd 3 SHELL HOME`. */
static int command(struct launch *l, const struct payload *p, const char *shell, const char *tmp)
{
	if (!(p->exec_flags & EXEC_BWRAP)) {
		char *argv[] = {own(l, login_name(shell)), "-c", own(l, exec_line(p->helper)), NULL};
		l->path = own(l, strdup(shell));
		l->argv = argv[0] && argv[2] && l->path ? ptrs_dup(argv) : NULL;
		return l->argv ? 0 : -1;
	}
	if (!bwrap_path()) {
		fputs("ruas-exec: enforce = \"bwrap\" but bwrap is not installed "
		      "(apt-get install bubblewrap)\n", stderr);
		return -1;
	}
	/* The shell and home are the passwd entry's: nothing there is the person's to hide. */
	char *inner[] = {p->helper, "--login-fd", "3", own(l, strdup(shell)), l->home, NULL};
	if (!inner[3])
		return -1;
	char *mine = tmp ? own(l, strdup(tmp)) : NULL, *all = tmp ? own(l, strdup(tmp)) : NULL;
	char *slash = all ? strrchr(all, '/') : NULL;
	if (tmp && (!mine || !slash || slash == all))
		return -1;
	if (slash)
		*slash = '\0';
	/* Its masks name what the person may not see: by descriptor, never on argv. */
	l->bwrap_args = bwrap_options(p->deny, p->ndeny, all, mine);
	if (l->bwrap_args < 0) {
		perror("ruas-exec: bubblewrap's options");
		return -1;
	}
	char **v = bwrap_argv(inner);
	l->path = own(l, strdup(bwrap_path()));
	l->argv = v && l->path ? ptrs_dup(v) : NULL;
	free(v);
	return l->argv ? 0 : -1;
}

/*
 * The run's own cgroup holds its limits: where this process is not in it,
 * something before it moved it out (a PAM session module of sudo's, such
 * as pam_systemd, moves its caller to a scope of logind's), and everything
 * of the target would run unlimited. Nothing of the target has run yet.
 * 0 when there is none to be in, or this process is in it.
 */
static int in_run_cgroup(const char *want)
{
	char here[4096];
	if (!want || !*want)
		return 0;
	if (cgroup2_own(here, sizeof here) < 0) {
		complain("cannot tell which cgroup it is in", "/proc/self/cgroup", strerror(errno));
		return -1;
	}
	if (strcmp(here, want) == 0)
		return 0;
	/* Quoted for display: a cgroup's name is whoever made it's to choose. */
	struct buf w = BUF_INIT, o = BUF_INIT;
	quote_display_dq(&w, want);
	quote_display_dq(&o, here);
	fprintf(stderr, "ruas-exec: refusing to run anything of the target outside its limits: "
			"the run's cgroup is %s, but this helper is in %s (a PAM session module "
			"of sudo's, such as pam_systemd, moved sudo there)\n",
		w.data ? w.data : "?", o.data ? o.data : "?");
	buf_free(&w);
	buf_free(&o);
	return -1;
}

int launch_prepare(struct launch *l, const struct payload *p, const struct agent_start *a,
		   const char *tmp)
{
	char *shell = NULL;
	memset(l, 0, sizeof *l);
	l->cont = l->news = l->bwrap_args = l->exec_pipe = -1;
	if (run_limits_plan(p, &l->rlimits) < 0 || in_run_cgroup(p->cgroup) < 0)
		return -1;
	if (login_of(p->user, p->shell, p->home, &shell, &l->home) < 0) {
		l->login_refused = 1;
		return -1;
	}
	l->stdin_tty = (p->exec_flags & EXEC_PTY) != 0;
	/* On a pty the monitor forks the shell, under bwrap bwrap does: its pid is not known here. */
	l->shell_is_child = !l->stdin_tty && !(p->exec_flags & EXEC_BWRAP);
	int r = login_env_prepare(shell, p->argv) < 0 ? -1 : command(l, p, shell, tmp);
	free(shell);
	if (r == 0 && send_agent(l, a) < 0) {
		perror("ruas-exec: the agent's start message");
		r = -1;
	}
	if (r < 0 && !l->argv && l->path)
		fputs("ruas-exec: out of memory\n", stderr);
	return r;
}

_Noreturn void launch_exec(const struct launch *l, const sigset_t *old)
{
	int cont = fcntl(l->cont, F_DUPFD_CLOEXEC, 10);
	int args = l->bwrap_args >= 0 ? fcntl(l->bwrap_args, F_DUPFD_CLOEXEC, 10) : -1;
	int null = l->stdin_tty ? -1 : open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (cont < 0 || (!l->stdin_tty && (null < 0 || dup2(null, 0) < 0)) || dup2(2, 1) < 0 ||
	    dup2(cont, 3) < 0 || (l->bwrap_args >= 0 && (args < 0 || dup2(args, BWRAP_ARGS_FD) < 0))) {
		perror("ruas-exec: the login shell's descriptors");
		_exit(126);
	}
	/* bwrap reads its options from BWRAP_ARGS_FD and closes it before it runs anything. */
	close_range(l->bwrap_args >= 0 ? BWRAP_ARGS_FD + 1 : 4, ~0U, 0);
	/* Where sudo -i starts it; root's / when the home is gone (as login(1)). */
	if (chdir(l->home) < 0 && chdir("/") < 0) {
		perror("ruas-exec: chdir");
		_exit(126);
	}
	/* Last, so that nothing of this process's own needs what they forbid. */
	if (run_limits_apply(&l->rlimits) < 0) {
		perror("ruas-exec: the run's limits (open_files_max, file_size_max, core_dumps)");
		_exit(126);
	}
	sigprocmask(SIG_SETMASK, old, NULL);
	execve(l->path, l->argv, environ);
	int e = errno;
	fprintf(stderr, "ruas-exec: cannot run the login shell \"%s\": %s\n", l->path, strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

int launch_exec_done(struct launch *l, short revents)
{
	/*
	 * Never read: the inner helper writes nothing, and a pipe that has
	 * bytes (a fake's) is dropped, as if it never came. Its end of file is
	 * POLLHUP: the write end's last holder closed it at the exec.
	 */
	if (!(revents & (POLLHUP | POLLIN | POLLERR)))
		return 0;
	close(l->exec_pipe);
	l->exec_pipe = -1;
	if (!(revents & POLLHUP) || (revents & POLLIN))
		return 0;
	/* A START_FAILED came before the end of file, if there was one. */
	launch_news(l);
	return l->started && !l->exec_errno;
}

void launch_forked(struct launch *l, pid_t first)
{
	/* The inner helper's end is the login shell's now. */
	close(l->cont);
	l->cont = -1;
	l->shell = l->shell_is_child ? first : 0;
}

void launch_first_ended(struct launch *l, int ended)
{
	if (ended && !l->told && l->exec_pipe >= 0) {
		close(l->exec_pipe);
		l->exec_pipe = -1;
		/* Its START_EXEC said nothing then: no start, whatever it claimed. */
		l->said = l->started = 0;
	}
}

void launch_free(struct launch *l)
{
	if (l->cont >= 0)
		close(l->cont);
	if (l->news >= 0)
		close(l->news);
	if (l->bwrap_args >= 0)
		close(l->bwrap_args);
	if (l->exec_pipe >= 0)
		close(l->exec_pipe);
	free(l->argv);
	for (size_t i = 0; i < l->nowned; i++)
		free(l->owned[i]);
	free(l->owned);
	free(l->home);
	memset(l, 0, sizeof *l);
	l->cont = l->news = l->bwrap_args = l->exec_pipe = -1;
}

_Noreturn void launch_login_shell(const char *self, const char *shell, const char *home)
{
	/* The outer helper judged this shell (login_of()) before it ran bwrap. */
	if (!self || self[0] != '/' || shell[0] != '/') {
		fprintf(stderr, "ruas-exec: --login-fd: the helper \"%s\" or the login shell \"%s\" "
				"is not an absolute path\n", self ? self : "", shell);
		_exit(125);
	}
	char *name = login_name(shell), *line = exec_line(self);
	char *argv[] = {name, "-c", line, NULL};
	if (!name || !line) {
		fputs("ruas-exec: out of memory\n", stderr);
		_exit(125);
	}
	if (chdir(home) < 0 && chdir("/") < 0) {
		perror("ruas-exec: --login-fd: chdir");
		_exit(125);
	}
	execve(shell, argv, environ);
	fprintf(stderr, "ruas-exec: cannot run the login shell \"%s\": %s\n", shell, strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}
