/* contain.c - see contain.h. */
#include "contain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_LINKS 40

/* glibc 2.36 has no wrapper, and newer glibc declares its own openat2(). */
static int ruas_openat2(int dirfd, const char *path, struct open_how *how)
{
#ifdef SYS_openat2
	return (int)syscall(SYS_openat2, dirfd, path, how, sizeof *how);
#else
	(void)dirfd;
	(void)path;
	(void)how;
	errno = ENOSYS;
	return -1;
#endif
}

/* The part of path below root: NULL when path is not lexically under root. */
static const char *below(const char *root, const char *path)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) != 0)
		return NULL;
	if (n == 1) /* root is "/" */
		return path + 1;
	if (path[n] != '/' && path[n] != '\0')
		return NULL;
	const char *rel = path + n;
	while (*rel == '/')
		rel++;
	return rel;
}

static enum contain_result walk(int rootfd, const char *rel, int *out, char *why, size_t wl);

enum contain_result contain_resolve(const char *root, const char *path, int *fd,
				    char *why, size_t whylen, int force_walk)
{
	if (fd)
		*fd = -1;
	snprintf(why, whylen, "%s", "");
	if (root[0] != '/' || path[0] != '/') {
		snprintf(why, whylen, "paths must be absolute");
		return CONTAIN_ERROR;
	}
	const char *rel = below(root, path);
	if (!rel) {
		snprintf(why, whylen, "%s is not under %s", path, root);
		return CONTAIN_OUTSIDE;
	}
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		snprintf(why, whylen, "%s: %s", root, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? CONTAIN_MISSING : CONTAIN_ERROR;
	}
	enum contain_result r = CONTAIN_ERROR;
	int res = -1;
	if (!*rel) {
		res = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
		r = res >= 0 ? CONTAIN_OK : CONTAIN_ERROR;
	} else if (!force_walk) {
		struct open_how how;
		memset(&how, 0, sizeof how);
		how.flags = O_PATH | O_CLOEXEC;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		for (int tries = 0; tries < 16; tries++) {
			res = ruas_openat2(rootfd, rel, &how);
			if (res >= 0 || errno != EAGAIN) /* EAGAIN: a ".." race; retry */
				break;
		}
		if (res >= 0)
			r = CONTAIN_OK;
		else if (errno == ENOSYS || errno == EPERM)
			force_walk = 1; /* no openat2 here (or a seccomp filter): walk */
		else if (errno == EXDEV) {
			/* Escaped: say which component, using the walk's precision. */
			int probe = -1;
			r = walk(rootfd, rel, &probe, why, whylen);
			if (probe >= 0)
				close(probe);
			if (r == CONTAIN_OK) {
				r = CONTAIN_OUTSIDE; /* it changed meanwhile: fail closed */
				snprintf(why, whylen, "%s escapes %s", path, root);
			}
		} else {
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
			r = errno == ENOENT || errno == ENOTDIR ? CONTAIN_MISSING : CONTAIN_ERROR;
		}
	}
	if (force_walk && *rel)
		r = walk(rootfd, rel, &res, why, whylen);
	close(rootfd);
	if (r == CONTAIN_OK && fd)
		*fd = res;
	else if (res >= 0)
		close(res);
	return r;
}

/*
 * The fallback: one component at a time with O_PATH|O_NOFOLLOW, keeping the
 * chain of directory descriptors so that ".." can never climb above the root.
 * Relative symlinks are spliced in and resolved the same way; absolute ones
 * are refused, as RESOLVE_BENEATH does.
 */
static enum contain_result walk(int rootfd, const char *rel, int *out, char *why, size_t wl)
{
	int stack[256];
	int depth = 0, links = 0;
	char via[NAME_MAX + 1] = ""; /* the last symlink followed, for messages */
	const char *link_end = NULL;  /* where its spliced target ends in todo */
	enum contain_result r = CONTAIN_ERROR;
	char *todo = strdup(rel);
	if (!todo)
		return CONTAIN_ERROR;
	stack[0] = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (stack[0] < 0)
		goto out;
	char *rest = todo;
	for (;;) {
		while (*rest == '/')
			rest++;
		if (!*rest) {
			*out = stack[depth--];
			r = CONTAIN_OK;
			break;
		}
		const char *cstart = rest;
		char *end = strchr(rest, '/');
		size_t len = end ? (size_t)(end - rest) : strlen(rest);
		char comp[NAME_MAX + 1];
		if (len > NAME_MAX) {
			snprintf(why, wl, "a component is longer than %d bytes", NAME_MAX);
			break;
		}
		memcpy(comp, rest, len);
		comp[len] = '\0';
		rest += len;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			if (depth == 0) {
				if (via[0] && link_end && cstart < link_end)
					snprintf(why, wl, "symlink %s leads out of the root", via);
				else
					snprintf(why, wl, "\"..\" leads out of the root");
				r = CONTAIN_OUTSIDE;
				break;
			}
			close(stack[depth--]);
			continue;
		}
		int fd = openat(stack[depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0) {
			snprintf(why, wl, "%s: %s", comp, strerror(errno));
			r = errno == ENOENT ? CONTAIN_MISSING : CONTAIN_ERROR;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlinkat(fd, "", target, sizeof target - 1);
			close(fd);
			if (n < 0 || ++links > MAX_LINKS) {
				snprintf(why, wl, "%s: %s", comp, n < 0 ? strerror(errno) : "too many symlinks");
				break;
			}
			target[n] = '\0';
			if (target[0] == '/') {
				snprintf(why, wl, "%s is an absolute symlink (to %s)", comp, target);
				r = CONTAIN_ABSLINK;
				break;
			}
			/* Splice: target, then what was left (no '/' when nothing was). */
			snprintf(via, sizeof via, "%s", comp);
			size_t rl = strlen(rest);
			char *next = malloc((size_t)n + rl + 2);
			if (!next)
				break;
			memcpy(next, target, (size_t)n);
			if (rl) {
				next[n] = '/';
				memcpy(next + n + 1, rest, rl + 1);
			} else {
				next[n] = '\0';
			}
			free(todo);
			todo = rest = next;
			link_end = next + n;
			continue;
		}
		if (*rest && !S_ISDIR(st.st_mode)) {
			close(fd);
			snprintf(why, wl, "%s is not a directory", comp);
			r = CONTAIN_MISSING;
			break;
		}
		if (depth + 1 >= (int)(sizeof stack / sizeof *stack)) {
			close(fd);
			snprintf(why, wl, "too deep");
			break;
		}
		stack[++depth] = fd;
	}
out:
	while (depth >= 0 && stack[0] >= 0)
		close(stack[depth--]);
	free(todo);
	return r;
}
