/* SPDX-License-Identifier: ISC */
/* log_file.c - see log_file.h. */
#include "audit/log_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The directory that holds the log (path up to n bytes, "/" for 0), when
 * its group or others may write it: sticky or not, they could create the
 * log's name first, a file of theirs that every spawn would then refuse.
 * 1 with why, or 0.
 */
static int holder_problem(char *why, size_t whysz, const char *path, size_t n,
			  const struct stat *st)
{
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	snprintf(why, whysz,
		 "the directory \"%.*s\" that holds it is writable by its group or by others "
		 "(sticky or not), who could create \"%s\" first, a file of theirs, and make "
		 "every spawn refused (use a directory that only %s can write, such as "
		 "/var/log/ruas)",
		 n ? (int)n : 1, path, path + n + (path[n] == '/'),
		 geteuid() == 0 ? "root" : "the supervisor's user and root");
	return 1;
}

/*
 * A directory on the way, as the fix names it: path up to n bytes ("/" for
 * 0); last when it holds the log. The sticky bit keeps others from
 * replacing what is ours in a directory above, not from taking a name in
 * the one that holds it.
 */
static void dir_problem(char *why, size_t whysz, const char *path, size_t n,
			const struct stat *st, int last)
{
	int len = n ? (int)n : 1;
	uid_t me = geteuid();
	if (st->st_uid != 0 && st->st_uid != me)
		snprintf(why, whysz,
			 "the directory \"%.*s\" belongs to uid %u, who could put another file in "
			 "its place (use a directory of root's or of uid %u, such as /var/log/ruas)",
			 len, path, (unsigned)st->st_uid, (unsigned)me);
	else if (last && holder_problem(why, whysz, path, n, st))
		return;
	else if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		snprintf(why, whysz,
			 "the directory \"%.*s\" is writable by its group or by others, who could "
			 "put another file in its place (chmod go-w it)",
			 len, path);
}

/* why gets msg (NULL: it holds the reason already); fd (-1: none) is closed. */
static int refuse(char *why, size_t whysz, int fd, const char *msg)
{
	if (msg)
		snprintf(why, whysz, "%s", msg);
	if (fd >= 0)
		close(fd);
	return AUDIT_LOG_REFUSED;
}

/*
 * The directory that holds path (absolute, as the configuration checked),
 * reached from / component by component: its descriptor, and in *base the
 * file's name; AUDIT_LOG_REFUSED with why.
 */
static int open_dirs(const char *path, const char **base, char *why, size_t whysz)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return refuse(why, whysz, fd, strerror(errno));
	const char *p = path;
	for (;;) {
		const char *name_at = p;
		while (*name_at == '/')
			name_at++;
		const char *end = strchr(name_at, '/');
		why[0] = '\0';
		dir_problem(why, whysz, path, (size_t)(p - path), &st, end == NULL);
		if (why[0])
			return refuse(why, whysz, fd, NULL);
		p = name_at;
		if (!end) {
			*base = p;
			return fd;
		}
		char name[256];
		if ((size_t)(end - p) >= sizeof name)
			return refuse(why, whysz, fd, "a directory's name is too long");
		memcpy(name, p, (size_t)(end - p));
		name[end - p] = '\0';
		int next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		fd = next;
		p = end;
		if (fd < 0 || fstat(fd, &st) < 0) {
			snprintf(why, whysz, "the directory \"%.*s\": %s", (int)(p - path), path,
				 e == ELOOP || e == ENOTDIR ? "a symlink or not a directory (name "
							      "the real path)"
							    : strerror(e));
			if (fd >= 0)
				close(fd);
			return AUDIT_LOG_REFUSED;
		}
	}
}

static const char *file_problem(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "it is not a regular file";
	if (st->st_uid != geteuid())
		return "it belongs to another user, who could read and rewrite it (chown it to "
		       "the supervisor's user, or remove it and let ruas create it)";
	if (st->st_mode & 077)
		return "its group or others may read or write it, and records hold the agents' "
		       "arguments (chmod 0600 it)";
	return NULL;
}

int audit_log_open(const struct ruas_config *cfg, int create, char *why, size_t whysz)
{
	const char *path = cfg->audit.log, *base = NULL;
	why[0] = '\0';
	if (!path)
		return AUDIT_LOG_REFUSED;
	int dir = open_dirs(path, &base, why, whysz);
	if (dir < 0)
		return AUDIT_LOG_REFUSED;
	/* O_NONBLOCK: a FIFO put there must not hang the supervisor (it is refused below). */
	int fd = openat(dir, base,
			O_WRONLY | O_APPEND | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC |
				(create ? O_CREAT : 0),
			0600);
	int e = errno;
	close(dir);
	if (fd < 0 && e == ENOENT && !create)
		return AUDIT_LOG_MISSING;
	if (fd < 0)
		return refuse(why, whysz, -1,
			      e == ELOOP   ? "it is a symlink; name the file itself"
			      : e == ENXIO ? "it is not a regular file"
					   : strerror(e));
	struct stat st;
	const char *problem = fstat(fd, &st) < 0 ? strerror(errno) : file_problem(&st);
	if (problem)
		return refuse(why, whysz, fd, problem);
	return fd;
}

int audit_log_holder_check(const char *path, char *why, size_t whysz)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	char dirpath[4096];
	struct stat st;
	why[0] = '\0';
	if (n >= sizeof dirpath)
		return 0;
	memcpy(dirpath, path, n);
	dirpath[n] = '\0';
	if (stat(n ? dirpath : "/", &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	return holder_problem(why, whysz, path, n, &st) ? AUDIT_LOG_REFUSED : 0;
}

/*
 * The n bytes of a record cut short (the disk is full) taken back: the
 * file is opened O_APPEND, so they end where this descriptor's offset now
 * is; cut there only when the file still ends there (no other writer has
 * appended since, whose record would go too). Else the fragment gets its
 * newline, so that the next record at least starts a line of its own.
 */
static void undo_short(int fd, size_t n)
{
	struct stat st;
	off_t end = lseek(fd, 0, SEEK_CUR);
	if (end >= (off_t)n && fstat(fd, &st) == 0 && st.st_size == end &&
	    ftruncate(fd, end - (off_t)n) == 0)
		return;
	while (write(fd, "\n", 1) < 0 && errno == EINTR)
		;
}

int audit_log_write(int fd, const char *line, size_t len)
{
	ssize_t n;
	while ((n = write(fd, line, len)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0) {
		if (n > 0)
			undo_short(fd, (size_t)n);
		errno = ENOSPC;
	}
	return -1;
}
