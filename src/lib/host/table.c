/* SPDX-License-Identifier: ISC */
/* table.c - the table's trees, walked once per check (table.h). */
#include "host/table.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "helper_report.h"
#include "host/fs_kind.h"
#include "host/table_int.h"
#include "path_follow.h"
#include "path_set.h"

int host_table_add(struct host_table *tt, const char *path, const char *anchor,
		   unsigned int depth, const struct anchor_def *def)
{
	for (size_t i = 0; i < tt->ntrees; i++)
		if (strcmp(tt->tree[i].path, path) == 0) {
			if (depth > tt->tree[i].depth)
				tt->tree[i].depth = depth;
			return 0;
		}
	struct host_table_tree *v = realloc(tt->tree, (tt->ntrees + 1) * sizeof *v);
	if (!v)
		return -1;
	tt->tree = v;
	struct host_table_tree *t = &v[tt->ntrees];
	t->path = strdup(path);
	t->anchor = strdup(anchor);
	t->depth = depth;
	t->def = def;
	if (!t->path || !t->anchor) {
		free(t->path);
		free(t->anchor);
		return -1;
	}
	tt->ntrees++;
	return 0;
}

static void no_link(void *ctx, const char *link, int first)
{
	(void)ctx;
	(void)link;
	(void)first;
}

/* One path of the table: resolved as the helper resolves it, so that the names match. */
static int list_one(struct host_table *tt, const char *path, const struct anchor_def *d)
{
	int linked;
	const struct path_follow_cb cb = {no_link, NULL, NULL};
	char *canon = path_follow(path, NULL, &cb, &linked);
	struct stat st;
	int r = 0;
	/* Where mode bits do not decide (fs_kind.h), the helper walks it as the target. */
	if (canon && lstat(canon, &st) == 0 && S_ISDIR(st.st_mode) &&
	    host_fs_mode_bits_decide(canon))
		r = host_table_add(tt, canon, linked ? path : canon, d->depth, d);
	free(canon);
	return r;
}

int host_table_list(struct host_table *tt)
{
	memset(tt, 0, sizeof *tt);
	for (size_t i = 0; i < anchor_table_len; i++) {
		const struct anchor_def *d = &anchor_table[i];
		if (d->kind != ANCHOR_TREE || !d->path || d->depth == 0)
			continue;
		if (!strpbrk(d->path, "*?[")) {
			if (list_one(tt, d->path, d) < 0)
				return -1;
			continue;
		}
		glob_t g;
		int r = 0;
		if (glob(d->path, 0, NULL, &g) == 0)
			for (size_t m = 0; r == 0 && m < g.gl_pathc; m++)
				r = list_one(tt, g.gl_pathv[m], d);
		globfree(&g);
		if (r < 0)
			return -1;
	}
	return 0;
}

char **host_table_names(const struct host_table *tt)
{
	char **v = calloc(tt->ntrees + 1, sizeof *v);
	for (size_t i = 0; v && i < tt->ntrees; i++) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "%u %s", tt->tree[i].depth, tt->tree[i].path);
		if (b.oom) {
			for (size_t k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return NULL;
		}
		v[i] = buf_detach(&b);
	}
	return v;
}

/*
 * By path; of one path, the strict judgment (as an object) before the
 * lenient one (as a directory above one, where sticky is fine): the
 * verdict names a path once, by the first that hits.
 */
static int by_path(const void *a, const void *b)
{
	const struct host_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	unsigned int ax = x->flags & HOST_ENTRY_ABOVE, ay = y->flags & HOST_ENTRY_ABOVE;
	return (ax > ay) - (ax < ay);
}

/*
 * Out of time: each tree is one LATE entry, not judged for anyone (which
 * ones were walked whole does not matter: what is late is not passed).
 */
static void late_all(struct tw *w, unsigned int seconds)
{
	char secs[32];
	snprintf(secs, sizeof secs, "%u", seconds);
	for (size_t i = 0; i < w->tt->ntrees; i++) {
		w->t = &w->tt->tree[i];
		size_t before = w->n;
		table_unjudged(w, w->t->path, NULL, secs);
		if (w->n > before)
			w->e[w->n - 1].flags |= HOST_ENTRY_LATE;
	}
}

/*
 * Each kept entry on a read-only mount, as the mount reached there says
 * (statvfs), not by matching mount points: a read-only mount hidden under
 * another one does not count.
 */
static void read_only_marks(struct tw *w)
{
	for (size_t i = 0; i < w->n; i++) {
		struct statvfs sv;
		struct host_entry *e = &w->e[i];
		if (!(e->flags & (HOST_ENTRY_UNJUDGED | HOST_ENTRY_LATE)) &&
		    statvfs(e->path, &sv) == 0 && (sv.f_flag & ST_RDONLY))
			e->flags |= HOST_ENTRY_RO;
	}
}

int host_table_walk(struct host_table *tt, unsigned int seconds)
{
	struct tw w;
	memset(&w, 0, sizeof w);
	w.tt = tt;
	w.seen = (struct path_set)PATH_SET_INIT;
	if (seconds) {
		clock_gettime(CLOCK_MONOTONIC, &w.deadline);
		w.deadline.tv_sec += seconds;
	}
	/*
	 * The trees whose entries named after a target are its own
	 * (ANCHOR_SKIP_SELF: the cron spool) last: a path that another tree
	 * also leads to is then judged first as that tree's, for every target.
	 */
	for (size_t k = 0; k < 2 * tt->ntrees && !w.nomem && !w.late; k++) {
		int last = k >= tt->ntrees;
		w.t = &tt->tree[last ? k - tt->ntrees : k];
		if (((w.t->def->flags & ANCHOR_SKIP_SELF) != 0) != last)
			continue;
		struct stat st;
		/* The tree's own path: the helper judges it; kept here for what is below it. */
		if (lstat(w.t->path, &st) < 0) {
			if (errno != ENOENT)
				table_unjudged(&w, w.t->path, NULL, "the check could not look at it");
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue; /* no longer a directory: the helper judges what it is now */
		if (!path_set_test_add(&w.seen, 'j', w.t->path))
			table_record(&w, w.t->path, &st, 0, AREL_SELF, w.t->anchor);
		if (!path_set_has(&w.seen, 'u', w.t->path))
			table_walk_tree(&w);
	}
	if (w.late)
		late_all(&w, seconds);
	path_set_free(&w.seen);
	read_only_marks(&w);
	if (w.nomem) {
		for (size_t i = 0; i < w.n; i++)
			host_entry_clear(&w.e[i]);
		free(w.e);
		return -1;
	}
	qsort(w.e, w.n, sizeof *w.e, by_path);
	tt->found.e = w.e;
	tt->found.n = w.n;
	return 0;
}

void host_table_free(struct host_table *tt)
{
	for (size_t i = 0; i < tt->ntrees; i++) {
		free(tt->tree[i].path);
		free(tt->tree[i].anchor);
	}
	free(tt->tree);
	host_trees_free(&tt->found);
	memset(tt, 0, sizeof *tt);
}
