/* SPDX-License-Identifier: ISC */
/*
 * delegate.c - ruas-setup delegate: the systemd drop-in that gives the
 * supervisor's service a cgroup of its own to make each run's cgroup in
 * (dropin.h has its text), printed, or with --install written as
 * DIR/UNIT.d/ruas-delegate.conf.
 *
 * systemd reads that directory as root and runs what its units say, so the
 * file is written as sudoers fragments are: DIR and UNIT.d must be root's
 * and writable by root alone (UNIT.d is made 0755 when missing, never
 * followed when a symlink), the new text goes to a dot-file that systemd
 * skips (no ".conf" at its end), fsync'd, and is renamed over the old:
 * systemd sees the old file or the new one, whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "dir_files.h"
#include "dropin.h"
#include "escape.h"
#include "report_print.h"

#define TMP_PREFIX "." DROPIN_NAME ".new-"

/* How long systemctl --version may take, from its start to its end. */
#define SYSTEMCTL_WAIT_MS 10000

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

/* From fd up to its first newline (or EOF, or size - 1 bytes), until t0 + ms: 0, or -1. */
static int first_line(int fd, char *text, size_t size, const struct timespec *t0, int ms)
{
	size_t n = 0;
	text[0] = '\0';
	while (n < size - 1 && !strchr(text, '\n')) {
		long left = ms - ms_since(t0);
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = left > 0 ? poll(&pfd, 1, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t got = read(fd, text + n, size - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		text[n] = '\0';
	}
	return 0;
}

/*
 * pid's exit status once it has ended, by t0 + ms; a pid that has not by
 * then (or whose line never came: give_up) is killed first. -1 if unknown.
 */
static int reaped(pid_t pid, const struct timespec *t0, int ms, int give_up)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (!give_up && pfd >= 0) {
		struct pollfd p = {.fd = pfd, .events = POLLIN};
		for (;;) {
			long left = ms - ms_since(t0);
			int r = left > 0 ? poll(&p, 1, (int)left) : 0;
			if (r < 0 && errno == EINTR)
				continue;
			give_up = r <= 0 || !(p.revents & POLLIN);
			break;
		}
	}
	/* (Without pidfds, Linux before 5.3, it is waited for unbounded.) */
	if (give_up)
		kill(pid, SIGKILL);
	if (pfd >= 0)
		close(pfd);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return give_up ? -1 : status;
}

/*
 * The first line of `systemctl --version`, through a pipe, with a clean
 * environment and a bound on its time. Its version, or -1.
 */
static int version_from_systemctl(const char *systemctl)
{
	static char path_env[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin", lang_env[] = "LC_ALL=C";
	char *const envp[] = {path_env, lang_env, NULL};
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int e = posix_spawn_file_actions_init(&fa);
	if (e == 0) {
		const char *argv[] = {systemctl, "--version", NULL};
		posix_spawn_file_actions_adddup2(&fa, p[1], 1);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		e = posix_spawn(&pid, systemctl, &fa, NULL, (char *const *)argv, envp);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(p[1]);
	char text[256];
	int got = e == 0 ? first_line(p[0], text, sizeof text, &t0, SYSTEMCTL_WAIT_MS) : -1;
	/* The pipe stays open until it has ended: the rest of what it says is no SIGPIPE. */
	int status = e == 0 ? reaped(pid, &t0, SYSTEMCTL_WAIT_MS, got < 0) : -1;
	close(p[0]);
	if (got < 0 || status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return dropin_systemd_version(text);
}

/* --systemd-version, else systemctl's: the version, or -1 after a message. */
static int systemd_version(const struct setup_args *a, int *rc)
{
	if (a->systemd_version) {
		char *end;
		errno = 0;
		long v = strtol(a->systemd_version, &end, 10);
		if (errno || end == a->systemd_version || *end || v < 1 || v > 100000) {
			*rc = setup_fail(SETUP_USAGE, "--systemd-version takes systemd's major version, "
					 "such as 252; nothing written");
			return -1;
		}
		return (int)v;
	}
	const char *systemctl = a->systemctl ? a->systemctl : "/bin/systemctl";
	int v = version_from_systemctl(systemctl);
	if (v < 0)
		*rc = setup_fail(SETUP_FAILED, "cannot tell systemd's version from %s --version "
				 "(it failed, or did not answer within %d s: is this host run by "
				 "systemd?); give --systemd-version N. Nothing written",
				 systemctl, SYSTEMCTL_WAIT_MS / 1000);
	return v;
}

/* The message for a directory that others than root may write (or swap); -1. */
static int not_root_only(const char *shown)
{
	setup_fail(SETUP_FAILED, "%s and the directories above it must be owned by root and "
		   "writable only by root (systemd runs what its units say, as root); nothing "
		   "written", shown);
	return -1;
}

/* dfd is a directory that root alone may write: 0; else the message and -1. */
static int root_only_dir(int dfd, const char *shown)
{
	struct stat st;
	if (fstat(dfd, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return not_root_only(shown);
	return 0;
}

/*
 * dir, opened from / one component at a time, none of them a symlink,
 * each root's and writable by root alone (a sticky directory above it
 * excepted, as /var/tmp: no one else may rename root's entries there), so
 * that no one else can swap what root writes into. Its descriptor, or -1
 * after a message.
 */
static int open_trusted(const char *dir)
{
	if (dir[0] != '/') {
		setup_fail(SETUP_FAILED, "%s is not an absolute path; nothing written", dir);
		return -1;
	}
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char part[256];
	for (const char *p = dir; fd >= 0 && *p;) {
		struct stat st;
		size_t n = strcspn(p, "/");
		if (n >= sizeof part || (n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2))) {
			close(fd);
			setup_fail(SETUP_FAILED, "--systemd-dir %s has a part that is \".\", \"..\" or "
				   "too long; nothing written", dir);
			return -1;
		}
		memcpy(part, p, n);
		part[n] = '\0';
		p += n + strspn(p + n, "/");
		if (n == 0)
			continue;
		if (fstat(fd, &st) < 0 || st.st_uid != 0 ||
		    ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))) {
			close(fd);
			return not_root_only(dir);
		}
		int next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		fd = next;
		if (fd < 0)
			setup_fail(SETUP_FAILED, "cannot open %s: %s at \"%s\" (a symlink is never "
				   "followed there); nothing written", dir, strerror(e), part);
	}
	if (fd >= 0 && root_only_dir(fd, dir) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The drop-in is there as text, 0644 root's: nothing to write. */
static int already_there(int d, const char *text)
{
	int fd = openat(d, DROPIN_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	struct stat st;
	size_t n = strlen(text);
	char *have = malloc(n + 1);
	int same = have && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 &&
		   st.st_gid == 0 && (st.st_mode & 07777) == 0644 && (size_t)st.st_size == n &&
		   read(fd, have, n + 1) == (ssize_t)n && memcmp(have, text, n) == 0;
	free(have);
	close(fd);
	return same;
}

/*
 * The text as a new file renamed over DROPIN_NAME in d: 0; 1 when it is in
 * place but d could not be fsync'd (errno); -1 with errno, nothing changed.
 */
static int replace(int d, const char *text)
{
	char tmp[64];
	unsigned int r;
	if (getrandom(&r, sizeof r, 0) != sizeof r)
		return -1;
	snprintf(tmp, sizeof tmp, TMP_PREFIX "%08x", r);
	int fd = openat(d, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int ok = fchown(fd, 0, 0) == 0 && fchmod(fd, 0644) == 0 &&
		 fd_write_all(fd, text, strlen(text)) == 0 && fsync(fd) == 0;
	int e = errno;
	if (close(fd) < 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (!ok || renameat(d, tmp, d, DROPIN_NAME) < 0) {
		e = ok ? errno : e;
		unlinkat(d, tmp, 0);
		errno = e;
		return -1;
	}
	/* In place: a directory that will not sync is said as such, not as nothing written. */
	return fsync(d) < 0 ? 1 : 0;
}

/* DIR/UNIT.d/ruas-delegate.conf as text: SETUP_OK, or the code after a message. */
static int install(const char *dir, const char *unit, const char *text, int *changed)
{
	char sub[320], shown[600];
	snprintf(sub, sizeof sub, "%s.d", unit); /* unit is at most 255 bytes (dropin_unit) */
	snprintf(shown, sizeof shown, "%s/%s", dir, sub);
	int top = open_trusted(dir);
	if (top < 0)
		return SETUP_FAILED;
	int rc = SETUP_FAILED, d = -1;
	if (mkdirat(top, sub, 0755) < 0 && errno != EEXIST) {
		setup_fail(SETUP_FAILED, "cannot make %s: %s; nothing written", shown,
			   strerror(errno));
		goto out;
	}
	d = openat(top, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0) {
		setup_fail(SETUP_FAILED, "cannot open %s: %s (a symlink is never followed "
			   "there); nothing written", shown, strerror(errno));
		goto out;
	}
	if (root_only_dir(d, shown) < 0)
		goto out;
	dir_remove_prefixed(d, TMP_PREFIX); /* an interrupted run's: systemd skips them */
	*changed = !already_there(d, text);
	int r = *changed ? replace(d, text) : 0;
	if (r < 0)
		setup_fail(SETUP_FAILED, "cannot write %s/%s: %s; nothing changed", shown,
			   DROPIN_NAME, strerror(errno));
	else if (r > 0)
		setup_fail(SETUP_FAILED, "%s/%s is in place, but %s could not be synced to disk: "
			   "%s", shown, DROPIN_NAME, shown, strerror(errno));
	else
		rc = SETUP_OK;
out:
	if (d >= 0)
		close(d);
	close(top);
	return rc;
}

int setup_delegate(const struct setup_args *a)
{
	char unit[300];
	const char *why = dropin_unit(a->unit, unit, sizeof unit);
	if (why) {
		char shown[256];
		return setup_fail(SETUP_USAGE, "--unit \"%s\" %s; nothing written",
				  escape_name(a->unit, shown, sizeof shown), why);
	}
	if (a->systemd_dir && a->systemd_dir[0] != '/')
		return setup_fail(SETUP_USAGE, "--systemd-dir must be an absolute path; nothing "
				  "written");
	if (a->install && geteuid() != 0)
		return setup_fail(SETUP_USAGE, "delegate --install must run as root; nothing "
				  "written");
	int rc = SETUP_OK;
	int version = systemd_version(a, &rc);
	if (version < 0)
		return rc;
	char *text = dropin_text(unit, version);
	char *next = text ? dropin_next_steps(unit, version) : NULL;
	if (!next) {
		free(text);
		return setup_fail(SETUP_FAILED, "out of memory");
	}
	if (!a->install) {
		fputs(text, stdout);
		rc = output_ok(stdout) ? SETUP_OK : SETUP_FAILED;
	} else {
		const char *dir = a->systemd_dir ? a->systemd_dir : "/etc/systemd/system";
		int changed = 0;
		rc = install(dir, unit, text, &changed);
		if (rc == SETUP_OK)
			fprintf(stderr, "ruas-setup: %s %s/%s.d/%s\n%s",
				changed ? "installed" : "already in place:", dir, unit, DROPIN_NAME,
				next);
	}
	free(text);
	free(next);
	return rc;
}
