/* SPDX-License-Identifier: ISC */
/* locate.c - see locate.h. */
#include "cgroup_locate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

/* Field k (0-based, space-separated) of line [s, end): its start and length. */
static int field(const char *s, const char *end, int k, const char **f, size_t *len)
{
	for (int i = 0; i <= k; i++) {
		while (s < end && *s == ' ')
			s++;
		const char *start = s;
		while (s < end && *s != ' ')
			s++;
		if (start == s)
			return -1;
		if (i == k) {
			*f = start;
			*len = (size_t)(s - start);
		}
	}
	return 0;
}

/* mountinfo's escapes (\ooo for space, tab, newline and backslash) undone. */
static int unescape(const char *f, size_t len, char *out, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		char c = f[i];
		if (c == '\\' && i + 3 < len && f[i + 1] >= '0' && f[i + 1] <= '3' &&
		    f[i + 2] >= '0' && f[i + 2] <= '7' && f[i + 3] >= '0' && f[i + 3] <= '7') {
			c = (char)((f[i + 1] - '0') * 64 + (f[i + 2] - '0') * 8 + (f[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= n || c == '\0')
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int cgroup2_mount_from(const char *mountinfo, char *out, size_t n)
{
	for (const char *line = mountinfo; line && *line;) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER" */
		const char *sep = NULL;
		for (const char *p = line; p + 2 < end; p++)
			if (p[0] == ' ' && p[1] == '-' && p[2] == ' ') {
				sep = p + 1;
				break;
			}
		const char *root, *mnt, *type;
		size_t rlen, mlen, tlen;
		if (sep && field(line, sep, 3, &root, &rlen) == 0 &&
		    field(line, sep, 4, &mnt, &mlen) == 0 &&
		    field(sep + 1, end, 0, &type, &tlen) == 0 && tlen == 7 &&
		    memcmp(type, "cgroup2", 7) == 0 && rlen == 1 && root[0] == '/')
			return unescape(mnt, mlen, out, n);
		line = *end ? end + 1 : end;
	}
	return -1;
}

/* A path with a "." or ".." component: it would lead out of where it names. */
static int has_dot_part(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] != '/')
			continue;
		size_t k = i + 1;
		while (k < len && p[k] == '.')
			k++;
		if ((k == i + 2 || k == i + 3) && (k == len || p[k] == '/'))
			return 1;
	}
	return 0;
}

int cgroup2_own_from(const char *proc_cgroup, char *out, size_t n)
{
	for (const char *line = proc_cgroup; line && *line;) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (end - line >= 4 && memcmp(line, "0::/", 4) == 0) {
			const char *p = line + 3;
			size_t len = (size_t)(end - p);
			/*
			 * The kernel lists it last and does not escape names: a
			 * line after it is the rest of a name with a newline.
			 * Nor is a removed cgroup (" (deleted)") one to judge,
			 * or a path above a cgroup namespace's root ("/..").
			 */
			static const char deleted[] = " (deleted)";
			if ((*end && end[1]) || has_dot_part(p, len) || len + 1 > n ||
			    (len >= sizeof deleted - 1 &&
			     memcmp(end - (sizeof deleted - 1), deleted, sizeof deleted - 1) == 0))
				return -1;
			memcpy(out, p, len);
			out[len] = '\0';
			return strlen(out) == len ? 0 : -1;
		}
		line = *end ? end + 1 : end;
	}
	return -1;
}

static int read_proc(const char *path, struct buf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char chunk[4096];
	for (;;) {
		ssize_t got = read(fd, chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			int e = errno;
			close(fd);
			if (got < 0 || b->oom) {
				errno = got < 0 ? e : ENOMEM;
				return -1;
			}
			return 0;
		}
		buf_add(b, chunk, (size_t)got);
	}
}

char *cgroup_proc_text(const char *file)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/%s", file);
	struct buf b = BUF_INIT;
	if (read_proc(path, &b) < 0 || buf_addc(&b, '\0') < 0) {
		int e = b.oom ? ENOMEM : errno;
		buf_free(&b);
		errno = e;
		return NULL;
	}
	return b.data;
}

static int from_proc(const char *path, int (*parse)(const char *, char *, size_t), char *out,
		     size_t n)
{
	struct buf b = BUF_INIT;
	if (read_proc(path, &b) < 0) {
		buf_free(&b);
		return -1;
	}
	int r = parse(b.data ? b.data : "", out, n);
	buf_free(&b);
	if (r < 0)
		errno = ENOENT;
	return r;
}

int cgroup2_mount(char *out, size_t n)
{
	return from_proc("/proc/self/mountinfo", cgroup2_mount_from, out, n);
}

int cgroup2_own(char *out, size_t n)
{
	return from_proc("/proc/self/cgroup", cgroup2_own_from, out, n);
}
