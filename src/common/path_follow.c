/* SPDX-License-Identifier: ISC */
/* path_follow.c - see path_follow.h. */
#include "path_follow.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Symlinks followed in one path at most, as the kernel's limit. */
#define HOPS_MAX 40

char *path_follow(const char *path, struct path_set *dirs, const struct path_follow_cb *cb,
		  int *linked)
{
	/* cur: resolved so far (no symlinks in it); work: what is left to resolve. */
	char work[PATH_MAX], cur[PATH_MAX], next[PATH_MAX];
	size_t clen = 0;
	unsigned int hops = 0;
	*linked = 0;
	if (path[0] != '/' || strlen(path) >= sizeof work)
		return NULL;
	memcpy(work, path, strlen(path) + 1);
	cur[0] = '\0';
	const char *p = work;
	while (*p) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		const char *rest = p + n;
		if (!n)
			break;
		if (n == 1 && p[0] == '.') {
			p = rest;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *s = strrchr(cur, '/');
			clen = s ? (size_t)(s - cur) : 0;
			cur[clen] = '\0';
			p = rest;
			continue;
		}
		if (clen + 1 + n + strlen(rest) >= sizeof cur)
			return NULL;
		cur[clen] = '/';
		memcpy(cur + clen + 1, p, n);
		cur[clen + 1 + n] = '\0';
		/* A directory met before: no lstat, thousands of links share them. */
		int known = *rest && dirs && path_set_has(dirs, 'd', cur);
		struct stat st;
		/* ENOTDIR: a file on the way, which whoever writes its directory replaces. */
		if (!known && lstat(cur, &st) < 0) {
			if (errno != ENOENT && errno != ENOTDIR) {
				int err = errno;
				cur[clen ? clen : 1] = '\0'; /* the directory that holds it ("/" for the root) */
				if (cb->stop)
					cb->stop(cb->ctx, cur, err);
				return NULL;
			}
			memcpy(cur + clen + 1 + n, rest, strlen(rest) + 1);
			break;
		}
		if (known || !S_ISLNK(st.st_mode)) {
			if (!known && *rest && S_ISDIR(st.st_mode) && dirs)
				path_set_add(dirs, 'd', cur);
			clen += 1 + n;
			p = rest;
			continue;
		}
		ssize_t tl = readlink(cur, next, sizeof next - 1);
		if (tl <= 0 || ++hops > HOPS_MAX)
			return NULL;
		next[tl] = '\0';
		cb->link(cb->ctx, cur, !*linked);
		*linked = 1;
		/* The link's target, then the rest: from the root or from the link's directory. */
		if ((size_t)tl + strlen(rest) >= sizeof next)
			return NULL;
		memmove(next + tl, rest, strlen(rest) + 1);
		memcpy(work, next, strlen(next) + 1);
		if (work[0] == '/')
			clen = 0;
		cur[clen] = '\0';
		p = work;
	}
	return strdup(cur[0] ? cur : "/");
}

int path_above_next(const char *path, size_t *pos, char *dir)
{
	size_t len = strlen(path);
	if (len >= PATH_MAX)
		return 0;
	for (size_t i = *pos; i < len; i++) {
		if (path[i] != '/')
			continue;
		size_t n = i ? i : 1; /* "/" for the root */
		if (n == len)
			return 0;
		memcpy(dir, path, n);
		dir[n] = '\0';
		*pos = i + 1;
		return 1;
	}
	return 0;
}
