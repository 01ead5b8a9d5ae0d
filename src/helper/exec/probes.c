/* SPDX-License-Identifier: ISC */
/* probes.c - the escalation probe and the work_dir access diagnosis. */
#include "probes.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pty_spawn.h"
#include "exit_status.h"
#include "scan.h"
#include "spawn_attr.h"

extern char **environ;

#define PROBE_TIMEOUT_MS 30000
#define PROBE_OUTPUT_MAX 65536
/* The most probes one probe_collect() waits for: sudo's three, passwd's and doas's. */
#define PROBE_MAX 5

struct probe {
	struct buf *out;
	pid_t pid;
	int fd;    /* the pipe's or the pty master's read end */
	int slave; /* pty probes: the slave, held until the child is reaped */
	int pidfd; /* pty probes: readable when the child exits, or -1 */
	int rc;
	int truncated; /* more output came than out keeps */
};

#define PROBE_INIT(out) {out, -1, -1, -1, -1, 0, 0}

static void probe_start(struct probe *pr, const char *sudo, char *const argv[],
			char *const envp[])
{
	int p[2];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	pr->pid = -1;
	pr->fd = -1;
	if (pipe2(p, O_CLOEXEC) < 0) {
		pr->rc = -errno;
		return;
	}
	int e = spawn_setup(&fa, &attr, 0);
	if (e == 0) {
		if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
		    posix_spawn_file_actions_adddup2(&fa, p[1], 1) ||
		    posix_spawn_file_actions_adddup2(&fa, p[1], 2) ||
		    spawn_close_rest(&fa))
			e = ENOMEM;
		else
			e = posix_spawn(&pr->pid, sudo, &fa, &attr, argv, envp);
		spawn_teardown(&fa, &attr);
	}
	close(p[1]);
	/* The reader drains until EAGAIN; the child's end stays blocking. */
	if (e == 0 && fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
		e = errno;
	if (e != 0) {
		if (pr->pid > 0) {
			kill(pr->pid, SIGKILL);
			while (waitpid(pr->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		close(p[0]);
		pr->pid = -1;
		pr->rc = -e;
		return;
	}
	pr->fd = p[0];
}

/* The same command on a terminal of its own, as `script` would give the agent. */
static void probe_start_pty(struct probe *pr, const char *sudo, char *const argv[],
			    char *const envp[])
{
	struct pty_child c;
	int e = pty_spawn(&c, sudo, argv, envp);
	pr->pid = c.pid;
	pr->fd = c.master;
	pr->slave = c.slave;
	pr->pidfd = c.pidfd;
	if (e)
		pr->rc = -e;
}

/* A pty probe's child has exited: let its master run dry, then EIO. */
static void reap_pty(struct probe *pr)
{
	int st;
	if (pr->slave < 0 || pr->pid <= 0 || waitpid(pr->pid, &st, WNOHANG) != pr->pid)
		return;
	pr->rc = exit_status_code(st);
	pr->pid = -1;
	struct pty_child c = {-1, pr->fd, pr->slave, pr->pidfd};
	pty_child_reaped(&c);
	pr->slave = pr->pidfd = -1;
}

static void probe_read(struct probe *pr)
{
	char tmp[4096];
	for (;;) {
		ssize_t r = read(pr->fd, tmp, sizeof tmp);
		if (r < 0 && errno == EINTR)
			continue;
		/* EAGAIN: a pty whose child is gone but a grandchild holds it. */
		if (r < 0 && errno == EAGAIN && (pr->slave >= 0 || pr->pid > 0))
			return;
		if (r <= 0) {
			close(pr->fd);
			pr->fd = -1;
			return;
		}
		if (!pr->out)
			continue;
		size_t keep = pr->out->len < PROBE_OUTPUT_MAX ? PROBE_OUTPUT_MAX - pr->out->len : 0;
		if (keep < (size_t)r)
			pr->truncated = 1;
		if (keep)
			buf_add(pr->out, tmp, keep < (size_t)r ? keep : (size_t)r);
	}
}

static void probe_collect(struct probe *pr, size_t n)
{
	long long deadline = monotonic_ms() + PROBE_TIMEOUT_MS;
	if (n > PROBE_MAX)
		n = PROBE_MAX; /* never past pf[]: a caller's bug, its extra probes left unread */
	for (;;) {
		struct pollfd pf[2 * PROBE_MAX];
		int live = 0, blind = 0;
		for (size_t i = 0; i < n; i++) {
			reap_pty(&pr[i]);
			pf[i].fd = pr[i].fd;
			pf[n + i].fd = pr[i].pidfd;
			pf[i].events = pf[n + i].events = POLLIN;
			pf[i].revents = pf[n + i].revents = 0;
			live += pr[i].fd >= 0;
			blind += pr[i].slave >= 0 && pr[i].pidfd < 0;
		}
		if (!live)
			break;
		long long left = deadline - monotonic_ms();
		if (left <= 0) {
			for (size_t i = 0; i < n; i++)
				if (pr[i].pid > 0)
					kill(pr[i].pid, SIGKILL);
			break;
		}
		/* A pty does not hang up while we hold its slave: its pidfd says when. */
		int wait_ms = blind ? 5 : (int)left;
		if (wait_ms > left)
			wait_ms = (int)left;
		if (poll(pf, (nfds_t)(2 * n), wait_ms) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < n; i++)
			if (pr[i].fd >= 0 && (pf[i].revents || pr[i].slave < 0))
				probe_read(&pr[i]);
	}
	for (size_t i = 0; i < n; i++) {
		if (pr[i].fd >= 0)
			close(pr[i].fd);
		if (pr[i].slave >= 0)
			close(pr[i].slave);
		if (pr[i].pidfd >= 0)
			close(pr[i].pidfd);
		if (pr[i].pid <= 0)
			continue;
		int st;
		while (waitpid(pr[i].pid, &st, 0) < 0 && errno == EINTR)
			;
		pr[i].rc = exit_status_code(st);
	}
}

int probe_run(const char *path, char *const argv[], struct buf *out)
{
	struct probe pr[1] = {PROBE_INIT(out)};
	probe_start(&pr[0], path, argv, environ);
	probe_collect(pr, 1);
	return pr[0].rc;
}

/*
 * sudo translates its messages and the headings of its listing: the
 * library reads them in the C locale. The rest of the login environment
 * stays, as the agent would have it. NULL when out of memory.
 */
static char **c_locale_env(void)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 2, sizeof *env);
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LANG=", 5) != 0 && strncmp(environ[i], "LANGUAGE=", 9) != 0 &&
		    strncmp(environ[i], "LC_", 3) != 0)
			env[k++] = environ[i];
	env[k] = (char *)"LC_ALL=C";
	return env;
}

/*
 * Does the plain listing answer for the terminal too? It does when it
 * listed the rules, or said that there are none ("Sorry, user T may not run
 * sudo on H."): sudoers matches no rule on the terminal, so only a refusal
 * for want of one (requiretty) or a failure of another kind leaves the
 * question open. A listing that finds no rule is what sudo logs as "command
 * not allowed": asked once, not twice.
 */
static int listing_answers(int rc, const struct buf *list)
{
	if (rc == 0)
		return 1;
	if (rc != 1 || !list->data)
		return 0;
	/* sudo may warn first (a host name it cannot resolve): the line, wherever it is. */
	for (const char *l = list->data; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		const char *tail = " may not run sudo on ";
		if (len > 12 && strncmp(l, "Sorry, user ", 12) == 0 &&
		    memmem(l, len, tail, strlen(tail)))
			return 1;
	}
	return 0;
}

void probe_escalation(const char *sudo, struct esc_probe *plain, struct esc_probe *tty,
		      struct cmd_probe *passwd, struct cmd_probe *doas)
{
	char **env = c_locale_env();
	char *const *envp = env ? env : environ;
	char *true_argv[] = {"sudo", "-n", "true", NULL};
	char *list_argv[] = {"sudo", "-n", "-l", NULL};
	char *passwd_argv[] = {"passwd", "-S", NULL};
	/* All at once: the check waits for the slowest, not for their sum. */
	struct probe pr[5] = {PROBE_INIT(NULL), PROBE_INIT(&plain->list), PROBE_INIT(NULL),
			      PROBE_INIT(&passwd->out), PROBE_INIT(&doas->out)};
	size_t n = 4;
	probe_start(&pr[0], sudo, true_argv, envp);
	probe_start(&pr[1], sudo, list_argv, envp);
	probe_start_pty(&pr[2], sudo, true_argv, envp);
	probe_start(&pr[3], PASSWD_PATH, passwd_argv, envp);
	passwd->ran = 1;
	doas->ran = access(DOAS_PATH, X_OK) == 0;
	if (doas->ran) {
		char *doas_argv[] = {"doas", "-n", "true", NULL};
		probe_start(&pr[n++], DOAS_PATH, doas_argv, envp);
	}
	probe_collect(pr, n);
	plain->true_rc = pr[0].rc;
	plain->list_rc = pr[1].rc;
	plain->truncated = pr[1].truncated;
	tty->true_rc = pr[2].rc;
	passwd->rc = pr[3].rc;
	doas->rc = doas->ran ? pr[4].rc : -1;
	if (!plain->truncated && listing_answers(plain->list_rc, &plain->list)) {
		/* The same answer, as the library would have read it from the terminal. */
		tty->list_rc = plain->list_rc;
		tty->truncated = 0;
		buf_add(&tty->list, plain->list.data ? plain->list.data : "", plain->list.len);
	} else {
		struct probe ttyl[1] = {PROBE_INIT(&tty->list)};
		probe_start_pty(&ttyl[0], sudo, list_argv, envp);
		probe_collect(ttyl, 1);
		tty->list_rc = ttyl[0].rc;
		tty->truncated = ttyl[0].truncated;
	}
	free(env);
}

static void deny(struct dir_result *d, const char *path, const struct stat *st,
		 const char *missing)
{
	d->state = DIR_DENIED;
	d->path = strdup(path);
	snprintf(d->missing, sizeof d->missing, "%s", missing);
	d->mode = st->st_mode & 07777;
	d->uid = (unsigned int)st->st_uid;
}

static void missing(struct dir_result *d, const char *path, int errnum)
{
	d->state = DIR_MISSING;
	d->path = strdup(path);
	d->errnum = errnum;
}

/* Returns 1 when the component failed (d filled in), 0 when it passed. */
static int probe_component(const char *path, int is_final, struct dir_result *d)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		missing(d, path, errno);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		missing(d, path, ENOTDIR);
		return 1;
	}
	int r = access(path, R_OK) == 0, x = access(path, X_OK) == 0;
	if (!x && !(is_final && !r))
		deny(d, path, &st, "x");
	else if (is_final && !r)
		deny(d, path, &st, x ? "r" : "rx");
	else
		return 0;
	return 1;
}

void probe_dir_access(const char *dir, struct dir_result *d)
{
	struct stat st;
	memset(d, 0, sizeof *d);
	if (access(dir, R_OK | X_OK) == 0 && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		d->state = DIR_OK;
		return;
	}
	char *prefix = strdup(dir);
	if (!prefix) {
		missing(d, dir, ENOMEM);
		return;
	}
	if (access("/", X_OK) < 0 && stat("/", &st) == 0) {
		free(prefix);
		deny(d, "/", &st, "x");
		return;
	}
	/* Every ancestor needs search permission: walk "/a", "/a/b", ... */
	size_t len = strlen(dir);
	for (size_t i = 1; i < len; i++) {
		if (dir[i] != '/' || dir[i - 1] == '/')
			continue;
		char save = prefix[i];
		prefix[i] = '\0';
		int failed = probe_component(prefix, 0, d);
		prefix[i] = save;
		if (failed) {
			free(prefix);
			return;
		}
	}
	free(prefix);
	if (!probe_component(dir, 1, d))
		d->state = DIR_OK; /* it changed while we looked */
}
