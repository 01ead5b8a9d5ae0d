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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "dropin.h"
#include "escape.h"
#include "report_print.h"

extern char **environ;

#define TMP_PREFIX "." DROPIN_NAME ".new-"

/* The first line of `systemctl --version`, read through a pipe. Its version, or -1. */
static int version_from_systemctl(const char *systemctl)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int e = posix_spawn_file_actions_init(&fa);
	if (e == 0) {
		const char *argv[] = {systemctl, "--version", NULL};
		posix_spawn_file_actions_adddup2(&fa, p[1], 1);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		e = posix_spawn(&pid, systemctl, &fa, NULL, (char *const *)argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(p[1]);
	char text[256];
	size_t n = 0;
	ssize_t r;
	while (e == 0 && n < sizeof text - 1 &&
	       ((r = read(p[0], text + n, sizeof text - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	text[n] = '\0';
	close(p[0]);
	int status = -1;
	while (e == 0 && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (e != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
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
				 "(is this host run by systemd?); give --systemd-version N. Nothing "
				 "written", systemctl);
	return v;
}

/* dfd is a directory that root alone may write, or a message and -1. */
static int root_only_dir(int dfd, const char *shown)
{
	struct stat st;
	if (fstat(dfd, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022)) {
		setup_fail(SETUP_FAILED, "%s must be a directory owned by root and writable only "
			   "by root (systemd runs what its units say, as root); nothing written",
			   shown);
		return -1;
	}
	return 0;
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

/* Dot-files of an interrupted run, which systemd skips anyway. */
static void remove_stale(int d)
{
	int fd = openat(d, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir)))
		if (strncmp(e->d_name, TMP_PREFIX, strlen(TMP_PREFIX)) == 0)
			unlinkat(d, e->d_name, 0);
	closedir(dir);
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The text as a new file renamed over DROPIN_NAME in d. 0, or -1 with errno. */
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
		 write_all(fd, text, strlen(text)) == 0 && fsync(fd) == 0;
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
	return fsync(d);
}

/* DIR/UNIT.d/ruas-delegate.conf as text: SETUP_OK, or the code after a message. */
static int install(const char *dir, const char *unit, const char *text, int *changed)
{
	char sub[320], shown[600];
	snprintf(sub, sizeof sub, "%s.d", unit); /* unit is at most 255 bytes (dropin_unit) */
	snprintf(shown, sizeof shown, "%s/%s", dir, sub);
	int top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		return setup_fail(SETUP_FAILED, "cannot open %s: %s; nothing written", dir,
				  strerror(errno));
	int rc = SETUP_FAILED, d = -1;
	if (root_only_dir(top, dir) < 0)
		goto out;
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
	remove_stale(d);
	*changed = !already_there(d, text);
	if (*changed && replace(d, text) < 0) {
		setup_fail(SETUP_FAILED, "cannot write %s/%s: %s; nothing changed", shown,
			   DROPIN_NAME, strerror(errno));
		goto out;
	}
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
