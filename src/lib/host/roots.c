/* SPDX-License-Identifier: ISC */
/*
 * roots.c - host_roots() (trees.h): the fixed trees, and the directories
 * that the dynamic loader searches for every program root runs.
 */
#include "host/trees.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "strv.h"

/* What root runs, reads, boots or installs from; the crontabs it runs. */
static const char *const fixed[] = {
	"/etc", "/usr", "/boot", "/opt", "/var/lib/dpkg", "/var/spool/cron", NULL,
};

/* ld.so.conf's `include` nests; glibc's ldconfig follows it as deep as it goes. */
#define INCLUDE_DEPTH_MAX 8

/* Is path `a` the same as `b` or inside it? */
static int within(const char *a, const char *b)
{
	size_t n = strlen(b);
	if (strcmp(b, "/") == 0)
		return 1;
	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

struct roots {
	char **v;
	size_t n;
	int oom;
};

/*
 * Adds a directory, lexically normalised (no "//", ".", trailing "/"),
 * unless it is inside one already there; drops those inside it.
 */
static void add(struct roots *r, const char *dir, size_t len)
{
	if (!len || dir[0] != '/' || len >= PATH_MAX)
		return;
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < len;) {
		while (i < len && dir[i] == '/')
			i++;
		size_t k = i;
		while (k < len && dir[k] != '/')
			k++;
		if (k == i)
			break;
		if (k - i == 1 && dir[i] == '.') {
			i = k;
			continue;
		}
		if (k - i == 2 && dir[i] == '.' && dir[i + 1] == '.') {
			/* Lexically, as the loader's "/a/../b" would not be: refuse, do not guess. */
			buf_free(&b);
			return;
		}
		buf_addc(&b, '/');
		buf_add(&b, dir + i, k - i);
		i = k;
	}
	if (!b.len)
		buf_adds(&b, "/");
	if (b.oom) {
		r->oom = 1;
		buf_free(&b);
		return;
	}
	for (size_t i = 0; i < r->n; i++)
		if (within(b.data, r->v[i])) {
			buf_free(&b);
			return;
		}
	for (size_t i = 0; i < r->n;) {
		if (within(r->v[i], b.data)) {
			free(r->v[i]);
			r->v[i] = r->v[--r->n];
			r->v[r->n] = NULL;
		} else {
			i++;
		}
	}
	/* strv_push frees it on failure. */
	if (strv_push(&r->v, &r->n, buf_detach(&b)) < 0)
		r->oom = 1;
}

static void read_conf(struct roots *r, const char *fs_root, const char *file, int depth);

/* `include PATTERN`: relative patterns are relative to /etc, as ldconfig reads them. */
static void include(struct roots *r, const char *fs_root, const char *pat, int depth) /* NOLINT(misc-no-recursion) */
{
	struct buf b = BUF_INIT;
	buf_adds(&b, fs_root ? fs_root : "");
	if (pat[0] != '/')
		buf_adds(&b, "/etc/");
	buf_adds(&b, pat);
	if (b.oom) {
		r->oom = 1;
		buf_free(&b);
		return;
	}
	glob_t g;
	if (glob(b.data, 0, NULL, &g) == 0) {
		size_t skip = fs_root ? strlen(fs_root) : 0;
		for (size_t i = 0; i < g.gl_pathc; i++)
			read_conf(r, fs_root, g.gl_pathv[i] + skip, depth + 1);
	}
	globfree(&g);
	buf_free(&b);
}

/*
 * One ld.so.conf file: a directory per line (words separated by blanks,
 * commas or colons, as ldconfig splits them), `include` lines, # comments.
 * `hwcap` lines name no directory.
 */
static void read_conf(struct roots *r, const char *fs_root, const char *file, int depth) /* NOLINT(misc-no-recursion) */
{
	if (depth > INCLUDE_DEPTH_MAX)
		return;
	struct buf p = BUF_INIT;
	buf_adds(&p, fs_root ? fs_root : "");
	buf_adds(&p, file);
	FILE *f = p.oom ? NULL : fopen(p.data, "re");
	buf_free(&p);
	if (!f)
		return;
	char line[PATH_MAX + 64];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "#\r\n")] = '\0';
		char *s = line + strspn(line, " \t");
		if (strncmp(s, "include", 7) == 0 && (s[7] == ' ' || s[7] == '\t')) {
			s += 7;
			for (char *sv = NULL, *w = strtok_r(s, " \t", &sv); w; w = strtok_r(NULL, " \t", &sv))
				include(r, fs_root, w, depth);
			continue;
		}
		if (strncmp(s, "hwcap", 5) == 0 && (s[5] == ' ' || s[5] == '\t'))
			continue;
		for (char *sv = NULL, *w = strtok_r(s, " \t,:=", &sv); w;
		     w = strtok_r(NULL, " \t,:=", &sv))
			add(r, w, strlen(w));
	}
	fclose(f);
}

/*
 * A root through its symlinks (/lib/x86_64-linux-gnu is /usr/lib/... on a
 * merged /usr), so that no tree is walked twice under two names; the
 * directories that hold those links are judged as the parents of "/"'s
 * roots are. A root that does not exist stays as written.
 */
static void add_resolved(struct roots *out, const char *fs_root, const char *root)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, fs_root ? fs_root : "");
	buf_adds(&b, root);
	char *real = b.oom ? NULL : realpath(b.data, NULL);
	size_t skip = fs_root ? strlen(fs_root) : 0;
	if (real && strncmp(real, b.data, skip) == 0 && (real[skip] == '/' || !real[skip]))
		add(out, real[skip] ? real + skip : "/", strlen(real[skip] ? real + skip : "/"));
	else if (!b.oom)
		add(out, root, strlen(root));
	out->oom |= b.oom;
	free(real);
	buf_free(&b);
}

int host_roots(const char *fs_root, char ***roots, size_t *n)
{
	struct roots r = {NULL, 0, 0}, res = {NULL, 0, 0};
	for (const char *const *p = fixed; *p; p++)
		add(&r, *p, strlen(*p));
	read_conf(&r, fs_root, "/etc/ld.so.conf", 0);
	for (size_t i = 0; !r.oom && i < r.n; i++)
		add_resolved(&res, fs_root, r.v[i]);
	strv_free(r.v);
	if (r.oom || res.oom) {
		strv_free(res.v);
		return -1;
	}
	*roots = res.v;
	*n = res.n;
	return 0;
}
