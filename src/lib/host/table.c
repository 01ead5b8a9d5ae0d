/* table.c - the table's trees, walked once per check (table.h). */
#include "host/table.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "helper_report.h"
#include "host/mounts.h"
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
	if (canon && lstat(canon, &st) == 0 && S_ISDIR(st.st_mode))
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
			for (size_t k = 0; r == 0 && k < g.gl_pathc; k++)
				r = list_one(tt, g.gl_pathv[k], d);
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

struct tw {
	struct host_table *tt;
	const struct host_table_tree *t; /* the tree being walked */
	struct host_entry *e;
	size_t n, cap;
	/*
	 * 'j' judged as an object, 'p' judged as a directory above one, 'd' a
	 * directory met while resolving (path_follow's).
	 */
	struct path_set seen;
	size_t entries;
	int capped, nomem;
};

/* Keeps the object at path as `t`'s, when anyone but root could write it. */
static void record(struct tw *w, const char *path, const struct stat *st, unsigned int flags,
		   int rel, const char *anchor)
{
	if (w->nomem)
		return;
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct host_entry *e = realloc(w->e, cap * sizeof *e);
		if (!e) {
			w->nomem = 1;
			return;
		}
		w->e = e;
		w->cap = cap;
	}
	if (w->t->def->flags & ANCHOR_SKIP_SELF)
		flags |= HOST_ENTRY_SKIP_SELF;
	struct host_entry *e = &w->e[w->n];
	int r = host_entry_make(path, st, flags, e);
	if (r < 0) {
		w->nomem = 1;
		return;
	}
	if (r == 0)
		return;
	e->id = w->t->def->id;
	e->rel = rel;
	e->root = (unsigned int)(w->t - w->tt->tree);
	if (!(e->anchor = strdup(anchor))) {
		host_entry_clear(e);
		w->nomem = 1;
		return;
	}
	w->n++;
}

/* Every directory above `path`, "/" first, as the directories above an anchor. */
static void record_parents(struct tw *w, const char *path, int rel, const char *anchor)
{
	char dir[PATH_MAX];
	for (size_t pos = 0; path_above_next(path, &pos, dir);) {
		if (path_set_has(&w->seen, 'p', dir) || path_set_has(&w->seen, 'j', dir))
			continue;
		struct stat st;
		if (lstat(dir, &st) < 0)
			return; /* missing: nothing further down exists either */
		record(w, dir, &st, HOST_ENTRY_ABOVE, rel, anchor);
		path_set_add(&w->seen, 'p', dir);
	}
}

struct hop {
	struct tw *w;
	const char *anchor;
};

static void on_link(void *ctx, const char *link, int first)
{
	const struct hop *h = ctx;
	(void)first; /* inside a tree, every link's directories are a link's */
	record_parents(h->w, link, AREL_LINK, h->anchor);
}

/*
 * The chain goes through a directory the supervisor may not search (a
 * target's 0700 home): the helper followed it as the target, so it is
 * judged as one the supervisor could not walk (judge.c: the target owns
 * it, or may enter it, and that is not passed).
 */
static void on_stop(void *ctx, const char *dir, int err)
{
	const struct hop *h = ctx;
	struct stat st;
	if ((err == EACCES || err == EPERM) && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		record(h->w, dir, &st, HOST_ENTRY_HIDDEN, AREL_LINK, h->anchor);
}

/*
 * Where a dangling chain leads does not exist: whoever may write the
 * nearest directory that does (sticky or not: a new name is anyone's
 * there) creates it, and root then runs what it wrote.
 */
static void judge_missing(struct tw *w, const char *to, const char *link)
{
	char dir[PATH_MAX];
	size_t n = strlen(to);
	struct stat st;
	if (n >= sizeof dir)
		return;
	memcpy(dir, to, n + 1);
	for (char *s = strrchr(dir, '/'); s; s = strrchr(dir, '/')) {
		*(s == dir ? s + 1 : s) = '\0';
		if (lstat(dir, &st) == 0) {
			if (S_ISDIR(st.st_mode) && !path_set_test_add(&w->seen, 'j', dir)) {
				record_parents(w, dir, AREL_LINK, link);
				record(w, dir, &st, 0, AREL_LINK, link);
			}
			return;
		}
		if (s == dir)
			return;
	}
}

/* A symlink in a tree: named by itself, judged by where its chain leads and the way there. */
static void follow_entry(struct tw *w, const char *path)
{
	int linked;
	struct hop h = {w, path};
	const struct path_follow_cb cb = {on_link, on_stop, &h};
	char *to = path_follow(path, &w->seen, &cb, &linked);
	struct stat st;
	if (to && !path_set_test_add(&w->seen, 'j', to)) {
		if (stat(to, &st) == 0) {
			record_parents(w, to, AREL_LINK, path);
			record(w, to, &st, 0, AREL_LINK, path);
		} else if (errno == ENOENT) {
			judge_missing(w, to, path);
		}
	}
	free(to);
}

/* The entries of a directory of the tree, `depth` levels down (the helper's walk()). */
static void walk_dir(struct tw *w, const char *dir, unsigned int depth) /* NOLINT(misc-no-recursion) */
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* Not listable by the supervisor: judged as a directory it could not walk. */
		if ((errno == EACCES || errno == EPERM) && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			record(w, dir, &st, HOST_ENTRY_HIDDEN, AREL_INSIDE, w->t->anchor);
		return;
	}
	DIR *dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		w->nomem |= errno == ENOMEM;
		return;
	}
	const struct dirent *de;
	while (!w->nomem && (de = readdir(dp))) {
		const char *name = de->d_name;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (w->entries >= ANCHOR_TREE_ENTRIES_MAX) {
			/*
			 * Not judged is not passed: said once, naming the directory
			 * (kept whatever its mode, as one not walked is).
			 */
			if (!w->capped && lstat(dir, &st) == 0) {
				w->capped = 1;
				record(w, dir, &st, HOST_ENTRY_CAPPED | HOST_ENTRY_HIDDEN, AREL_SELF,
				       w->t->anchor);
			}
			break;
		}
		w->entries++;
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
		if (b.oom) {
			w->nomem = 1;
			break;
		}
		if (lstat(b.data, &st) < 0) {
			/* Listed but not searchable by the supervisor: judged as a directory it could not walk. */
			if ((errno == EACCES || errno == EPERM) && !path_set_test_add(&w->seen, 'h', dir) &&
			    lstat(dir, &st) == 0)
				record(w, dir, &st, HOST_ENTRY_HIDDEN, AREL_INSIDE, w->t->anchor);
		} else if (S_ISLNK(st.st_mode)) {
			follow_entry(w, b.data);
		} else {
			if (!path_set_test_add(&w->seen, 'j', b.data))
				record(w, b.data, &st, 0, AREL_INSIDE, w->t->anchor);
			if (S_ISDIR(st.st_mode) && depth > 1)
				walk_dir(w, b.data, depth - 1);
		}
		buf_free(&b);
	}
	closedir(dp);
}

/*
 * By path, then by flags: of one path, the strict judgment (as an object)
 * comes before the lenient one (as a directory above one, where sticky is
 * fine), and the verdict names a path once, by the first that hits.
 */
static int by_path(const void *a, const void *b)
{
	const struct host_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	return c ? c : (x->flags > y->flags) - (x->flags < y->flags);
}

int host_table_walk(struct host_table *tt)
{
	struct tw w;
	memset(&w, 0, sizeof w);
	w.tt = tt;
	w.seen = (struct path_set)PATH_SET_INIT;
	for (size_t i = 0; i < tt->ntrees && !w.nomem && !w.capped; i++) {
		w.t = &tt->tree[i];
		struct stat st;
		/* The tree's own path: the helper judges it; kept here for what is below it. */
		if (lstat(w.t->path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (!path_set_test_add(&w.seen, 'j', w.t->path))
			record(&w, w.t->path, &st, 0, AREL_SELF, w.t->anchor);
		walk_dir(&w, w.t->path, w.t->depth);
	}
	path_set_free(&w.seen);
	if (!w.nomem && host_mounts_mark(w.e, w.n) < 0)
		w.nomem = 1;
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
