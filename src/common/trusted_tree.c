/* SPDX-License-Identifier: ISC */
/* trusted_tree.c - see trusted_tree.h. */
#include "trusted_tree.h"

#include <string.h>

/* Refused as themselves, inside and above. */
static const char *const trees[] = {
	"/etc", "/usr", "/boot", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/root", "/var/lib/dpkg", "/var/lib/apt", "/var/spool/cron", "/var/log", "/var/cache/apt",
	"/dev", "/proc", "/sys", "/run", NULL};
/* Refused as themselves and above: work_dirs live inside them. */
static const char *const holders[] = {"/home", "/tmp", "/var/tmp", "/srv", "/mnt", "/media",
				      NULL};

/* Whether a lies inside b or is b (both normalized): 2 inside, 1 equal, 0 neither. */
static int within(const char *a, const char *b)
{
	size_t n = strlen(b);
	if (strcmp(b, "/") == 0)
		return strcmp(a, "/") == 0 ? 1 : 2;
	if (strncmp(a, b, n) != 0)
		return 0;
	return a[n] == '\0' ? 1 : a[n] == '/' ? 2 : 0;
}

const char *trusted_tree_conflict(const char *path, int holders_too, const char **how)
{
	for (int pass = 0; pass < (holders_too ? 2 : 1); pass++) {
		for (const char *const *t = pass ? holders : trees; *t; t++) {
			int in = within(path, *t);
			if (in == 1 || (in == 2 && !pass)) {
				*how = in == 1 ? "is" : "lies inside";
				return *t;
			}
			if (within(*t, path) == 2) {
				*how = "lies above";
				return *t;
			}
		}
	}
	return NULL;
}

int path_normalize(const char *path, char *out, size_t n)
{
	if (!path || path[0] != '/' || n < 2)
		return -1;
	size_t len = 0;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		const char *end = strchr(p, '/');
		size_t c = end ? (size_t)(end - p) : strlen(p);
		if (c == 0 || (c == 1 && p[0] == '.')) {
			/* nothing */
		} else if (c == 2 && p[0] == '.' && p[1] == '.') {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--; /* the '/' before it */
		} else {
			if (len + 1 + c + 1 > n)
				return -1;
			out[len++] = '/';
			memcpy(out + len, p, c);
			len += c;
		}
		p += c;
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return 0;
}
