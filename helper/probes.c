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

#include "scan.h"
#include "spawn_attr.h"

extern char **environ;

#define PROBE_TIMEOUT_MS 30000
#define PROBE_OUTPUT_MAX 65536

struct probe {
	pid_t pid;
	int fd;
	int rc;
	struct buf *out;
};

static void probe_start(struct probe *pr, const char *sudo, char *const argv[])
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
			e = posix_spawn(&pr->pid, sudo, &fa, &attr, argv, environ);
		spawn_teardown(&fa, &attr);
	}
	close(p[1]);
	if (e != 0) {
		close(p[0]);
		pr->pid = -1;
		pr->rc = -e;
		return;
	}
	pr->fd = p[0];
}

static void probe_collect(struct probe *pr, size_t n)
{
	long long deadline = monotonic_ms() + PROBE_TIMEOUT_MS;
	for (;;) {
		struct pollfd pf[2];
		int live = 0;
		for (size_t i = 0; i < n; i++) {
			pf[i].fd = pr[i].fd;
			pf[i].events = POLLIN;
			pf[i].revents = 0;
			live += pr[i].fd >= 0;
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
		if (poll(pf, (nfds_t)n, (int)left) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < n; i++) {
			if (pr[i].fd < 0 || !pf[i].revents)
				continue;
			char tmp[4096];
			ssize_t r = read(pr[i].fd, tmp, sizeof tmp);
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0) {
				close(pr[i].fd);
				pr[i].fd = -1;
			} else if (pr[i].out && pr[i].out->len < PROBE_OUTPUT_MAX) {
				buf_add(pr[i].out, tmp, (size_t)r);
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (pr[i].fd >= 0)
			close(pr[i].fd);
		if (pr[i].pid <= 0)
			continue;
		int st;
		while (waitpid(pr[i].pid, &st, 0) < 0 && errno == EINTR)
			;
		pr[i].rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
}

int probe_run(const char *path, char *const argv[], struct buf *out)
{
	struct probe pr[1] = {{-1, -1, 0, out}};
	probe_start(&pr[0], path, argv);
	probe_collect(pr, 1);
	return pr[0].rc;
}

void probe_escalation(const char *sudo, int *true_rc, int *list_rc,
		      struct buf *list)
{
	char *true_argv[] = {"sudo", "-n", "true", NULL};
	char *list_argv[] = {"sudo", "-n", "-l", NULL};
	struct probe pr[2] = {{-1, -1, 0, NULL}, {-1, -1, 0, list}};
	probe_start(&pr[0], sudo, true_argv);
	probe_start(&pr[1], sudo, list_argv);
	probe_collect(pr, 2);
	*true_rc = pr[0].rc;
	*list_rc = pr[1].rc;
}

static void deny(struct dir_result *d, const char *path, const struct stat *st,
		 const char *missing)
{
	d->state = DIR_DENIED;
	d->path = strdup(path);
	snprintf(d->missing, sizeof d->missing, "%s", missing);
	d->mode = st->st_mode & 07777;
	d->owner = scan_owner_name(st->st_uid);
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
