/* log_file.c - see log_file.h. */
#include "audit/log_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"

/* Is uid one of cfg's run_as_users? */
static int is_target(const struct ruas_config *cfg, uid_t uid)
{
	for (size_t i = 0; i < cfg->nprojects; i++) {
		const char *u = cfg->projects[i]->run_as_user;
		struct account a;
		if (!u || account_lookup(u, &a) != ACCOUNT_FOUND)
			continue;
		int hit = a.uid == uid;
		account_clear(&a);
		if (hit)
			return 1;
	}
	if (cfg->people)
		for (size_t i = 0; i < cfg->people->nmembers; i++) {
			struct account a;
			if (account_lookup(cfg->people->members[i].run_as_user, &a) != ACCOUNT_FOUND)
				continue;
			int hit = a.uid == uid;
			account_clear(&a);
			if (hit)
				return 1;
		}
	return 0;
}

static const char *file_problem(const struct ruas_config *cfg, const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "it is not a regular file";
	if (is_target(cfg, st->st_uid))
		return "it belongs to a project's run_as_user, who could rewrite it "
		       "(chown it to root)";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "it is writable by its group or by others (chmod 0600 it)";
	if (st->st_mode & S_IROTH)
		return "it is readable by others, and records hold the agents' arguments "
		       "(chmod 0600 it)";
	return NULL;
}

static const char *dir_problem(const struct ruas_config *cfg, const struct stat *st)
{
	if (is_target(cfg, st->st_uid))
		return "its directory belongs to a project's run_as_user, who could replace the "
		       "file (use a directory of root's, such as /var/log/ruas)";
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return "its directory is writable by its group or by others, who could replace "
		       "the file (chmod go-w the directory)";
	return NULL;
}

/* stat(2) of the directory that holds path (absolute). */
static int stat_dir(const char *path, struct stat *st)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	char *dir = strndup(path, n);
	if (!dir)
		return -1;
	int r = stat(dir, st);
	free(dir);
	return r;
}

int audit_log_open(const struct ruas_config *cfg, char *why, size_t whysz)
{
	const char *path = cfg->audit.log;
	struct stat st, dst;
	if (!path) {
		snprintf(why, whysz, "%s", "");
		return -1;
	}
	/* O_NONBLOCK: a FIFO put there must not hang the supervisor (it is refused below). */
	int fd = open(path,
		      O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC,
		      0600);
	if (fd < 0) {
		int e = errno;
		snprintf(why, whysz, "%s",
			 e == ELOOP   ? "it is a symlink; name the file itself"
			 : e == ENXIO ? "it is not a regular file"
				      : strerror(e));
		return -1;
	}
	const char *problem = NULL;
	if (fstat(fd, &st) < 0 || stat_dir(path, &dst) < 0)
		problem = strerror(errno);
	else if (!(problem = file_problem(cfg, &st)))
		problem = dir_problem(cfg, &dst);
	if (problem) {
		snprintf(why, whysz, "%s", problem);
		close(fd);
		return -1;
	}
	return fd;
}

int audit_log_write(int fd, const char *line, size_t len)
{
	ssize_t n;
	while ((n = write(fd, line, len)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		errno = ENOSPC; /* a short write: the disk is full */
	return -1;
}
