/* SPDX-License-Identifier: ISC */
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

const char *contain_below(const char *root, const char *path)
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

/* What both entry points check first: the part of path below root, or NULL with *r set. */
static const char *begin(const char *root, const char *path, int *fd, char *why, size_t whylen,
			 enum contain_result *r)
{
	if (fd)
		*fd = -1;
	snprintf(why, whylen, "%s", "");
	if (root[0] != '/' || path[0] != '/') {
		snprintf(why, whylen, "paths must be absolute");
		*r = CONTAIN_ERROR;
		return NULL;
	}
	const char *rel = contain_below(root, path);
	if (!rel) {
		snprintf(why, whylen, "%s is not under %s", path, root);
		*r = CONTAIN_OUTSIDE;
	}
	return rel;
}

/* rel beneath rootfd, which stays open: in the kernel, or by the walk. */
static enum contain_result beneath(int rootfd, const char *root, const char *path,
				   const char *rel, int *fd, char *why, size_t whylen,
				   int force_walk)
{
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
	if (r == CONTAIN_OK && fd)
		*fd = res;
	else if (res >= 0)
		close(res);
	return r;
}

enum contain_result contain_resolve(const char *root, const char *path, int *fd,
				    char *why, size_t whylen, int force_walk)
{
	enum contain_result r = CONTAIN_ERROR;
	const char *rel = begin(root, path, fd, why, whylen, &r);
	if (!rel)
		return r;
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		snprintf(why, whylen, "%s: %s", root, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? CONTAIN_MISSING : CONTAIN_ERROR;
	}
	r = beneath(rootfd, root, path, rel, fd, why, whylen, force_walk);
	close(rootfd);
	return r;
}

enum contain_result contain_resolve_at(int rootfd, const char *root, const char *path, int *fd,
				       char *why, size_t whylen, int force_walk)
{
	enum contain_result r = CONTAIN_ERROR;
	const char *rel = begin(root, path, fd, why, whylen, &r);
	return rel ? beneath(rootfd, root, path, rel, fd, why, whylen, force_walk) : r;
}

/*
 * The fallback: one component at a time with O_PATH|O_NOFOLLOW, keeping the
 * chain of directory descriptors so that ".." can never climb above the root.
 * Relative symlinks are spliced in and resolved the same way; absolute ones
 * are refused, as RESOLVE_BENEATH does.
 */
struct walker {
	int stack[256];               /* stack[0] the root, stack[depth] where we are */
	int depth, links;
	char via[NAME_MAX + 1];       /* the last symlink followed, for messages */
	const char *link_end;         /* where its spliced target ends in todo */
	char *todo, *rest;            /* what is left to resolve, and where in it we are */
	char *why;
	size_t wl;
};

/* A step's verdict: go on with the next component, or the walk's result. */
#define WALK_ON (-1)

/* "..": one level up, never above the root. */
static int walk_up(struct walker *w, const char *cstart)
{
	if (w->depth == 0) {
		if (w->via[0] && w->link_end && cstart < w->link_end)
			snprintf(w->why, w->wl, "symlink %s leads out of the root", w->via);
		else
			snprintf(w->why, w->wl, "\"..\" leads out of the root");
		return CONTAIN_OUTSIDE;
	}
	close(w->stack[w->depth--]);
	return WALK_ON;
}

/* A relative symlink (open on fd, which this closes): its target, then what was left. */
static int walk_splice(struct walker *w, int fd, const char *comp)
{
	char target[4096];
	ssize_t n = readlinkat(fd, "", target, sizeof target - 1);
	close(fd);
	if (n < 0 || ++w->links > MAX_LINKS) {
		snprintf(w->why, w->wl, "%s: %s", comp, n < 0 ? strerror(errno) : "too many symlinks");
		return CONTAIN_ERROR;
	}
	target[n] = '\0';
	if (target[0] == '/') {
		snprintf(w->why, w->wl, "%s is an absolute symlink (to %s)", comp, target);
		return CONTAIN_ABSLINK;
	}
	/* No '/' after the target when nothing was left. */
	snprintf(w->via, sizeof w->via, "%s", comp);
	size_t rl = strlen(w->rest);
	char *next = malloc((size_t)n + rl + 2);
	if (!next)
		return CONTAIN_ERROR;
	memcpy(next, target, (size_t)n);
	if (rl) {
		next[n] = '/';
		memcpy(next + n + 1, w->rest, rl + 1);
	} else {
		next[n] = '\0';
	}
	free(w->todo);
	w->todo = w->rest = next;
	w->link_end = next + n;
	return WALK_ON;
}

/* A name below the directory we are in: a symlink to splice, or a directory to enter. */
static int walk_down(struct walker *w, const char *comp)
{
	int fd = openat(w->stack[w->depth], comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(w->why, w->wl, "%s: %s", comp, strerror(errno));
		int r = errno == ENOENT ? CONTAIN_MISSING : CONTAIN_ERROR;
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (S_ISLNK(st.st_mode))
		return walk_splice(w, fd, comp);
	if (*w->rest && !S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(w->why, w->wl, "%s is not a directory", comp);
		return CONTAIN_MISSING;
	}
	if (w->depth + 1 >= (int)(sizeof w->stack / sizeof *w->stack)) {
		close(fd);
		snprintf(w->why, w->wl, "too deep");
		return CONTAIN_ERROR;
	}
	w->stack[++w->depth] = fd;
	return WALK_ON;
}

/* The next component of w->rest: the walk's result once there is none left. */
static int walk_step(struct walker *w, int *out)
{
	while (*w->rest == '/')
		w->rest++;
	if (!*w->rest) {
		*out = w->stack[w->depth--];
		return CONTAIN_OK;
	}
	const char *cstart = w->rest;
	char *end = strchr(w->rest, '/');
	size_t len = end ? (size_t)(end - w->rest) : strlen(w->rest);
	char comp[NAME_MAX + 1];
	if (len > NAME_MAX) {
		snprintf(w->why, w->wl, "a component is longer than %d bytes", NAME_MAX);
		return CONTAIN_ERROR;
	}
	memcpy(comp, w->rest, len);
	comp[len] = '\0';
	w->rest += len;
	if (strcmp(comp, ".") == 0)
		return WALK_ON;
	if (strcmp(comp, "..") == 0)
		return walk_up(w, cstart);
	return walk_down(w, comp);
}

static enum contain_result walk(int rootfd, const char *rel, int *out, char *why, size_t wl)
{
	struct walker w = {.depth = 0, .wl = wl};
	w.why = why;
	int r = CONTAIN_ERROR;
	if (!(w.todo = strdup(rel)))
		return CONTAIN_ERROR;
	w.rest = w.todo;
	w.stack[0] = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (w.stack[0] >= 0)
		while ((r = walk_step(&w, out)) == WALK_ON)
			;
	while (w.depth >= 0 && w.stack[0] >= 0)
		close(w.stack[w.depth--]);
	free(w.todo);
	return (enum contain_result)r;
}
