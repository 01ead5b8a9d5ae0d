/* SPDX-License-Identifier: ISC */
/* judge.c - see judge.h. */
#include "cgroup/judge.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup/run.h"

/*
 * The same as openat2() below, where it is missing (a seccomp filter, or
 * valgrind): one component at a time, none "." or "..", none a link, each
 * on the mount's own device.
 */
static int open_walk(int mount_fd, const char *rel)
{
	struct stat top, st;
	if (fstat(mount_fd, &top) < 0)
		return -1;
	int at = fcntl(mount_fd, F_DUPFD_CLOEXEC, 0);
	while (at >= 0 && *rel) {
		size_t len = strcspn(rel, "/");
		char part[256];
		if (len == 0 || len >= sizeof part || (len <= 2 && strncmp(rel, "..", len) == 0)) {
			close(at);
			errno = EXDEV;
			return -1;
		}
		memcpy(part, rel, len);
		part[len] = '\0';
		int next = openat(at, part, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		/* A link is refused as openat2 refuses it (ELOOP), not taken for no directory. */
		if (next < 0 && errno == ENOTDIR && fstatat(at, part, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			errno = ELOOP;
		int e = errno;
		close(at);
		errno = e;
		if (next >= 0 && (fstat(next, &st) < 0 || st.st_dev != top.st_dev)) {
			close(next);
			errno = EXDEV;
			return -1;
		}
		at = next;
		rel += len;
		rel += *rel == '/';
	}
	return at;
}

/* See judge.h. */
int cgroup_open_beneath(int mount_fd, const char *path)
{
	const char *rel = path[0] == '/' ? path + 1 : path;
	struct open_how how;
	memset(&how, 0, sizeof how);
	how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV;
	int fd = (int)syscall(SYS_openat2, mount_fd, rel[0] ? rel : ".", &how, sizeof how);
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		return open_walk(mount_fd, rel);
	return fd;
}

/* The longest common leading path of a and b, by whole components ("/" at least). */
static void common_ancestor(const char *a, const char *b, char *out, size_t n)
{
	size_t end = 0;
	for (size_t i = 0;; i++) {
		int a_end = a[i] == '\0' || a[i] == '/', b_end = b[i] == '\0' || b[i] == '/';
		if (a_end && b_end)
			end = i;
		if (a[i] != b[i] || a[i] == '\0')
			break;
	}
	if (end == 0)
		snprintf(out, n, "/");
	else
		snprintf(out, n, "%.*s", (int)end, a);
}

static enum cgroup_verdict say(struct cgroup_judgement *j, enum cgroup_verdict v,
			       const char *where, int err)
{
	j->verdict = v;
	j->err = err;
	snprintf(j->where, sizeof j->where, "%s", where);
	return v;
}

/*
 * Whether someone besides root and the supervisor may write the parent, or
 * the files that move processes into it and give its children their
 * controllers: such a user (the target, were the parent in a subtree
 * delegated to it) could move a run out, or take its limits away mid-run.
 * 0 when none can; else 1 with j saying which.
 */
static int open_to_others(int pfd, struct cgroup_judgement *j)
{
	static const char *const files[] = {"", "cgroup.procs", "cgroup.subtree_control"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct stat st;
		if (fstatat(pfd, files[i], &st, files[i][0] ? AT_SYMLINK_NOFOLLOW : AT_EMPTY_PATH) < 0)
			continue; /* the top has no cgroup.procs to fear; reading fails later */
		if ((st.st_mode & 022) || (st.st_uid != 0 && st.st_uid != geteuid())) {
			snprintf(j->file, sizeof j->file, "%s", files[i]);
			j->owner = (unsigned long)st.st_uid;
			j->mode = (unsigned int)(st.st_mode & 07777);
			return 1;
		}
	}
	return 0;
}

/* Whether the parent's own files allow a run beneath it; pfd is open. */
static enum cgroup_verdict judge_dir(int pfd, const char *parent, unsigned int want,
				     struct cgroup_judgement *j)
{
	char text[4096];
	int top = strcmp(parent, "/") == 0;
	/* The top has no cgroup.type: it is a domain. */
	if (cgroup_file_read(pfd, "cgroup.type", text, sizeof text) < 0) {
		if (!(top && errno == ENOENT))
			return say(j, CGROUP_UNREADABLE, parent, errno);
	} else if (strcmp(text, "domain\n") != 0) {
		return say(j, CGROUP_NOT_DOMAIN, parent, 0);
	}
	if (open_to_others(pfd, j))
		return say(j, CGROUP_OPEN_TO_OTHERS, parent, 0);
	/*
	 * A controller the parent does not have comes first: where it is cgroup
	 * v1's (a hybrid host), no delegation can give it, so that is the fix.
	 */
	if (want) {
		if (cgroup_file_read(pfd, "cgroup.controllers", text, sizeof text) < 0)
			return say(j, CGROUP_UNREADABLE, parent, errno);
		j->controllers = want & ~cgroup_controllers_parse(text);
		if (j->controllers)
			return say(j, CGROUP_NOT_AVAILABLE, parent, 0);
	}
	if (faccessat(pfd, ".", W_OK | X_OK, AT_EACCESS) < 0)
		return say(j, CGROUP_CANNOT_MKDIR, parent, errno);
	if (!want)
		return say(j, CGROUP_USABLE, parent, 0);
	if (cgroup_file_read(pfd, "cgroup.subtree_control", text, sizeof text) < 0)
		return say(j, CGROUP_UNREADABLE, parent, errno);
	j->controllers = want & ~cgroup_controllers_parse(text);
	if (!j->controllers)
		return say(j, CGROUP_USABLE, parent, 0);
	/* The kernel hands a controller down only from a cgroup with no process of its own. */
	if (!top) {
		if (cgroup_file_read(pfd, "cgroup.procs", text, sizeof text) < 0)
			return say(j, CGROUP_UNREADABLE, parent, errno);
		if (text[0])
			return say(j, CGROUP_INTERNAL_PROCESS, parent, 0);
	}
	if (faccessat(pfd, "cgroup.subtree_control", W_OK, AT_EACCESS) < 0)
		return say(j, CGROUP_CANNOT_HAND_DOWN, parent, errno);
	j->controllers = 0;
	return say(j, CGROUP_USABLE, parent, 0);
}

enum cgroup_verdict cgroup_judge_parent(int mount_fd, const char *parent, const char *own,
					unsigned int want, struct cgroup_judgement *j)
{
	memset(j, 0, sizeof *j);
	int pfd = cgroup_open_beneath(mount_fd, parent);
	if (pfd < 0)
		return say(j, errno == ENOENT || errno == ENOTDIR ? CGROUP_NO_PARENT
								   : CGROUP_UNREADABLE,
			   parent, errno);
	enum cgroup_verdict v = judge_dir(pfd, parent, want, j);
	close(pfd);
	if (v != CGROUP_USABLE)
		return v;
	/* Moving a process from own to beneath parent: the common ancestor's cgroup.procs. */
	char anc[4096];
	common_ancestor(parent, own, anc, sizeof anc);
	int afd = cgroup_open_beneath(mount_fd, anc);
	if (afd < 0)
		return say(j, CGROUP_UNREADABLE, anc, errno);
	int w = faccessat(afd, "cgroup.procs", W_OK, AT_EACCESS);
	int e = errno;
	close(afd);
	if (w < 0)
		return say(j, e == ENOENT ? CGROUP_UNREADABLE : CGROUP_CANNOT_MOVE, anc, e);
	return say(j, CGROUP_USABLE, parent, 0);
}
