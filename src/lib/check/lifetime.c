/* SPDX-License-Identifier: ISC */
/*
 * lifetime.c - lifetime_probe() (lifetime.h): lingering, a running systemd
 * user manager, crontab and at, read from the files that decide them.
 *
 * Everything here is readable by any user, so the library looks itself and
 * the helper is not involved: /var/lib/systemd/linger is 0755, cgroupfs and
 * /proc/PID/status are world-readable, /etc/cron.allow and the like are
 * usually 0644. What only root can read (Debian's /etc/at.deny is 0640
 * root:daemon; the crontab spool is 1730 root:crontab) is judged when the
 * check runs as root.
 */
#include "check/lifetime.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* path (absolute) exists beneath rootfd, whatever it is; a symlink counts. */
static int present(int rootfd, const char *path)
{
	struct stat st;
	return fstatat(rootfd, path + 1, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* dir (ending in '/') then user, in out: 0, or -1 when it does not fit. */
static int user_path(char *out, size_t outsz, const char *dir, const char *user)
{
	int n = snprintf(out, outsz, "%s%s", dir, user);
	return n > 0 && (size_t)n < outsz ? 0 : -1;
}

/*
 * The unit's cgroup: systemd makes user@UID.service in user-UID.slice,
 * which is root's, so the target cannot make one of its own; and cgroupfs
 * is not hidden by /proc's hidepid. The unified, hybrid and legacy layouts.
 */
static int manager_cgroup(int rootfd, uid_t uid)
{
	static const char *const bases[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/unified",
					    "/sys/fs/cgroup/systemd"};
	char path[160];
	for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
		int n = snprintf(path, sizeof path, "%s/user.slice/user-%lu.slice/user@%lu.service",
				 bases[i], (unsigned long)uid, (unsigned long)uid);
		if (n > 0 && (size_t)n < sizeof path && present(rootfd, path))
			return 1;
	}
	return 0;
}

/* The value of the line "key..." of a /proc status text, or NULL. */
static const char *status_field(const char *text, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = text; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (strncmp(p, key, klen) == 0)
			return p + klen;
	}
	return NULL;
}

/* /proc/PID/status says: name "systemd", real uid uid. */
static int status_is_manager(int procfd, const char *pid, uid_t uid)
{
	char rel[64], text[2048];
	size_t got = 0;
	int n = snprintf(rel, sizeof rel, "%s/status", pid);
	int fd = n > 0 && (size_t)n < sizeof rel ? openat(procfd, rel, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return 0;
	while (got < sizeof text - 1) {
		ssize_t r = read(fd, text + got, sizeof text - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	text[got] = '\0';
	const char *name = status_field(text, "Name:\t");
	const char *ids = status_field(text, "Uid:\t");
	char *end = NULL;
	if (!name || !ids || strncmp(name, "systemd\n", 8) != 0)
		return 0;
	errno = 0;
	unsigned long real = strtoul(ids, &end, 10);
	return errno == 0 && end != ids && *end == '\t' && real == (unsigned long)uid;
}

/*
 * A process of the target's real uid named "systemd": the manager itself
 * (systemd --user), where cgroupfs has another layout. Under hidepid a
 * non-root supervisor sees no other user's processes; the cgroup above
 * does not depend on it. A process the target names "systemd" itself only
 * adds a warning, never hides one.
 */
static int manager_process(int rootfd, uid_t uid)
{
	int procfd = openat(rootfd, "proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = procfd >= 0 ? fdopendir(procfd) : NULL;
	struct dirent *e;
	int found = 0;
	if (!d) {
		if (procfd >= 0)
			close(procfd);
		return 0;
	}
	while (!found && (e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    strspn(e->d_name, "0123456789") == strlen(e->d_name))
			found = status_is_manager(dirfd(d), e->d_name, uid);
	closedir(d);
	return found;
}

/*
 * Whether a line of the file at path is exactly user: 1 or 0; -1 when there
 * is no such file, -2 when it exists but cannot be read. crontab takes a last
 * line without its newline, at does not: in an allow file such a line counts,
 * in a deny file it does not, so that a doubt gives a warning, never hides one.
 */
static int listed(int rootfd, const char *path, const char *user, int deny)
{
	/* O_NONBLOCK: a FIFO put there cannot stall the check. */
	int fd = openat(rootfd, path + 1, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		int missing = fd < 0 && (errno == ENOENT || errno == ENOTDIR);
		if (fd >= 0)
			close(fd);
		return missing ? -1 : -2;
	}
	char *line = NULL;
	size_t cap = 0, ulen = strlen(user);
	ssize_t n;
	int found = 0;
	while (!found && (n = getline(&line, &cap, f)) >= 0) {
		int nl = n > 0 && line[n - 1] == '\n';
		found = (nl || !deny) && (size_t)n - (size_t)nl == ulen &&
			memcmp(line, user, ulen) == 0;
	}
	int failed = ferror(f);
	free(line);
	fclose(f);
	return found ? 1 : failed ? -2 : 0;
}

/*
 * crontab(1) and at.allow(5) of Debian: with the allow file, only who it
 * names; else with the deny file, all it does not name; with neither,
 * crontab lets everyone (none_allows) and at only root.
 */
static struct sched judge(int rootfd, const char *user, const char *program, const char *allow,
			  const char *deny, int none_allows)
{
	struct sched no = {SCHED_NO, NULL};
	if (!present(rootfd, program))
		return no;
	switch (listed(rootfd, allow, user, 0)) {
	case 1:
		return (struct sched){SCHED_ALLOW_LISTED, allow};
	case 0:
		return no;
	case -2:
		return (struct sched){SCHED_UNREADABLE, allow};
	default:
		break;
	}
	switch (listed(rootfd, deny, user, 1)) {
	case 0:
		return (struct sched){SCHED_DENY_UNLISTED, deny};
	case -2:
		return (struct sched){SCHED_UNREADABLE, deny};
	case -1:
		return none_allows ? (struct sched){SCHED_NO_FILES, NULL} : no;
	default:
		return no;
	}
}

void lifetime_probe(const char *root, const char *user, uid_t uid, struct outlives *out)
{
	char path[128];
	memset(out, 0, sizeof *out);
	int rootfd = open(root ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return;
	/* loginctl enable-linger creates it; logind tests only that it exists. */
	out->linger = user_path(path, sizeof path, "/var/lib/systemd/linger/", user) == 0 &&
		      present(rootfd, path);
	out->manager = manager_cgroup(rootfd, uid) || manager_process(rootfd, uid);
	out->cron = judge(rootfd, user, "/usr/bin/crontab", "/etc/cron.allow", "/etc/cron.deny", 1);
	out->at = judge(rootfd, user, "/usr/bin/at", "/etc/at.allow", "/etc/at.deny", 0);
	/* Only root (or group crontab) can look into the spool; otherwise it is not seen. */
	out->crontab = user_path(path, sizeof path, "/var/spool/cron/crontabs/", user) == 0 &&
		       present(rootfd, path);
	close(rootfd);
}

int lifetime_any(const struct outlives *lt)
{
	return lt->linger || lt->manager || lt->cron.verdict != SCHED_NO ||
	       lt->at.verdict != SCHED_NO || lt->crontab;
}
