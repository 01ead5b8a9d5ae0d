/* SPDX-License-Identifier: ISC */
/* mounts.c - host_mounts_mark() (mounts.h). */
#include "host/mounts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

struct mount {
	char *point;
	size_t len;
	int ro;
};

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static char *unescape(const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n + 1 && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			buf_addc(&b, (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
			i += 3;
		} else {
			buf_addc(&b, s[i]);
		}
	}
	if (!b.len)
		buf_adds(&b, "");
	return buf_detach(&b);
}

/* Does the comma-separated option list (n bytes) hold "ro"? */
static int has_ro(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && s[k] != ',')
			k++;
		if (k - i == 2 && s[i] == 'r' && s[i + 1] == 'o')
			return 1;
		i = k + 1;
	}
	return 0;
}

/* The i-th space-separated field of line (from 0): its start and length. */
static const char *field(const char *line, int i, size_t *len)
{
	const char *p = line;
	for (; i > 0 && p; i--) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	*len = strcspn(p, " \n");
	return p;
}

static int parse(const char *line, struct mount *m)
{
	size_t plen, olen, slen;
	const char *point = field(line, 4, &plen), *opts = field(line, 5, &olen);
	/* After the optional fields, " - ": type, source, superblock options. */
	const char *dash = strstr(line, " - ");
	const char *sopts = dash ? field(dash + 3, 2, &slen) : NULL;
	if (!point || !opts || !sopts)
		return 1;
	if (!(m->point = unescape(point, plen)))
		return -1;
	m->len = strlen(m->point);
	m->ro = has_ro(opts, olen) || has_ro(sopts, slen);
	return 0;
}

static int under(const char *path, const struct mount *m)
{
	if (m->len == 1 && m->point[0] == '/')
		return 1;
	return strncmp(path, m->point, m->len) == 0 && (path[m->len] == '\0' || path[m->len] == '/');
}

int host_mounts_mark(struct host_entry *e, size_t n)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	struct mount *v = NULL;
	size_t nm = 0, cap = 0;
	char *line = NULL;
	size_t lcap = 0;
	int rc = 0;
	while (getline(&line, &lcap, f) > 0) {
		struct mount m;
		int r = parse(line, &m);
		if (r > 0)
			continue;
		if (r == 0 && nm == cap) {
			struct mount *nv = realloc(v, (cap ? 2 * cap : 64) * sizeof *v);
			if (!nv) {
				free(m.point);
				r = -1;
			} else {
				v = nv;
				cap = cap ? 2 * cap : 64;
			}
		}
		if (r < 0) {
			rc = -1;
			break;
		}
		v[nm++] = m;
	}
	free(line);
	fclose(f);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* The longest mount point above it; of equal ones the last, which is on top. */
		const struct mount *best = NULL;
		for (size_t k = 0; k < nm; k++)
			if (under(e[i].path, &v[k]) && (!best || v[k].len >= best->len))
				best = &v[k];
		if (best && best->ro)
			e[i].flags |= HOST_ENTRY_RO;
	}
	for (size_t k = 0; k < nm; k++)
		free(v[k].point);
	free(v);
	return rc;
}
