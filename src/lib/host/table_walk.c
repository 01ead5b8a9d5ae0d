/* SPDX-License-Identifier: ISC */
/*
 * table_walk.c - one of the table's trees walked as the supervisor, as the
 * helper walked it as the target (table.h): every entry to the tree's
 * depth, every symlink followed with the directories on its way. What the
 * walk cannot see is kept as not judged, never passed over: a directory it
 * may not list or search (HOST_ENTRY_HIDDEN), one it could not read for
 * another reason or on a file system whose mode bits do not decide
 * (HOST_ENTRY_UNJUDGED), where the cap stopped it (HOST_ENTRY_CAPPED).
 */
#include "host/table_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "helper_report.h"
#include "host/fs_kind.h"
#include "path_follow.h"

/* Room for one more entry; 0, or -1 (w->nomem) when out of memory. */
static int grow(struct tw *w)
{
	if (w->nomem)
		return -1;
	if (w->n < w->cap)
		return 0;
	size_t cap = w->cap ? 2 * w->cap : 64;
	struct host_entry *e = realloc(w->e, cap * sizeof *e);
	if (!e) {
		w->nomem = 1;
		return -1;
	}
	w->e = e;
	w->cap = cap;
	return 0;
}

/* The tree's id, relation and anchor on a new entry; 0, or -1 out of memory. */
static int name_entry(struct tw *w, struct host_entry *e, int rel, const char *anchor)
{
	if (w->t->def->flags & ANCHOR_SKIP_SELF)
		e->flags |= HOST_ENTRY_SKIP_SELF;
	e->id = w->t->def->id;
	e->rel = rel;
	e->root = (unsigned int)(w->t - w->tt->tree);
	if (!(e->anchor = strdup(anchor))) {
		host_entry_clear(e);
		w->nomem = 1;
		return -1;
	}
	w->n++;
	return 0;
}

void table_unjudged(struct tw *w, const char *path, const struct stat *st, const char *why)
{
	struct stat any;
	if (path_set_test_add(&w->seen, 'u', path) || grow(w) < 0)
		return;
	if (!st) {
		/* Not even lstat: anyone may be able to enter it, for all the check knows. */
		memset(&any, 0, sizeof any);
		any.st_mode = S_IFDIR | 0777;
		st = &any;
	}
	struct host_entry *e = &w->e[w->n];
	/* HIDDEN: kept whatever its mode, as a directory not walked is. */
	int r = host_entry_make(path, st, HOST_ENTRY_UNJUDGED | HOST_ENTRY_HIDDEN, e);
	if (r <= 0) {
		w->nomem |= r < 0;
		return;
	}
	if (name_entry(w, e, AREL_INSIDE, why) == 0)
		e->flags &= ~(unsigned int)HOST_ENTRY_SKIP_SELF; /* not judged is no one's own */
}

/* Do the mode bits of st's file system decide who may write (fs_kind.h)? Asked once per device. */
static int mode_bits_decide(struct tw *w, const char *path, const struct stat *st)
{
	for (size_t i = 0; i < w->ndev; i++)
		if (w->dev[i] == st->st_dev)
			return w->dev_ok[i];
	int ok = host_fs_mode_bits_decide(path);
	if (w->ndev < TABLE_DEVS_MAX) {
		w->dev[w->ndev] = st->st_dev;
		w->dev_ok[w->ndev++] = (unsigned char)ok;
	}
	return ok;
}

void table_record(struct tw *w, const char *path, const struct stat *st, unsigned int flags,
		  int rel, const char *anchor)
{
	if (!mode_bits_decide(w, path, st)) {
		table_unjudged(w, path, st,
			       "its file system decides who may write it by more than the mode "
			       "bits and ACLs (a network or FUSE file system)");
		return;
	}
	if (grow(w) < 0)
		return;
	struct host_entry *e = &w->e[w->n];
	int r = host_entry_make(path, st, flags, e);
	if (r < 0)
		w->nomem = 1;
	else if (r > 0)
		name_entry(w, e, rel, anchor);
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
		table_record(w, dir, &st, HOST_ENTRY_ABOVE, rel, anchor);
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
 * it, or may enter it, and that is not passed), and so are the
 * directories above it. Any other error: not judged.
 */
static void on_stop(void *ctx, const char *dir, int err)
{
	const struct hop *h = ctx;
	struct stat st;
	record_parents(h->w, dir, AREL_LINK, h->anchor);
	if (lstat(dir, &st) < 0)
		table_unjudged(h->w, dir, NULL, "the check could not look at it");
	else if (err == EACCES || err == EPERM)
		table_record(h->w, dir, &st, HOST_ENTRY_HIDDEN, AREL_LINK, h->anchor);
	else
		table_unjudged(h->w, dir, &st, "the check could not look into it");
}

/*
 * Where a dangling chain leads does not exist. Whoever may write the
 * nearest directory that does (sticky or not: a new name is anyone's
 * there) creates it, and root then runs what it wrote. A file met on the
 * way instead is replaced through its own directory (judged above it,
 * where sticky protects another's file) or by its owner.
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
			if (!path_set_test_add(&w->seen, 'j', dir)) {
				record_parents(w, dir, AREL_LINK, link);
				table_record(w, dir, &st, 0, AREL_LINK, link);
			}
			return;
		}
		if (s == dir || (errno != ENOENT && errno != ENOTDIR))
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
			table_record(w, to, &st, 0, AREL_LINK, path);
		} else if (errno == ENOENT || errno == ENOTDIR) {
			judge_missing(w, to, path);
		} else {
			table_unjudged(w, to, NULL, "the check could not look at it");
		}
	}
	free(to);
}

static int past(const struct tw *w)
{
	struct timespec now;
	if (!w->deadline.tv_sec)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > w->deadline.tv_sec ||
	       (now.tv_sec == w->deadline.tv_sec && now.tv_nsec >= w->deadline.tv_nsec);
}

/* One entry of a directory being walked. */
static void walk_dir(struct tw *w, const char *dir, unsigned int depth); /* NOLINT(misc-no-recursion) */
static void walk_entry(struct tw *w, const char *dir, const char *path, /* NOLINT(misc-no-recursion) */
		       unsigned int depth)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		int err = errno;
		if (err == ENOENT)
			return; /* gone since it was listed */
		/* Listed but not searchable by the supervisor: judged as a directory it could not walk. */
		if (lstat(dir, &st) == 0 && (err == EACCES || err == EPERM))
			table_record(w, dir, &st, HOST_ENTRY_HIDDEN, AREL_INSIDE, w->t->anchor);
		else
			table_unjudged(w, dir, NULL, "the check could not look at what it holds");
	} else if (S_ISLNK(st.st_mode)) {
		follow_entry(w, path);
	} else {
		if (!path_set_test_add(&w->seen, 'j', path))
			table_record(w, path, &st, 0, AREL_INSIDE, w->t->anchor);
		/* Not into what is not judged (a network file system mounted there). */
		if (S_ISDIR(st.st_mode) && depth > 1 && !path_set_has(&w->seen, 'u', path))
			walk_dir(w, path, depth - 1);
	}
}

/* The entries of a directory of the tree, `depth` levels down (the helper's walk()). */
static void walk_dir(struct tw *w, const char *dir, unsigned int depth) /* NOLINT(misc-no-recursion) */
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dp) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		w->nomem |= err == ENOMEM;
		if (err == ENOENT || err == ENOMEM)
			return; /* gone since it was met; or the whole walk fails */
		int seen = lstat(dir, &st) == 0;
		/* Not listable by the supervisor: judged as a directory it could not walk. */
		if (seen && S_ISDIR(st.st_mode) && (err == EACCES || err == EPERM))
			table_record(w, dir, &st, HOST_ENTRY_HIDDEN, AREL_INSIDE, w->t->anchor);
		else
			table_unjudged(w, dir, seen ? &st : NULL, "the check could not list it");
		return;
	}
	for (;;) {
		errno = 0;
		const struct dirent *de = readdir(dp);
		if (!de) {
			if (errno)
				table_unjudged(w, dir, NULL, "the check could not list it whole");
			break;
		}
		const char *name = de->d_name;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (w->nomem || w->late || (w->late = past(w)))
			break;
		if (w->entries >= ANCHOR_TREE_ENTRIES_MAX) {
			/* Not judged is not passed: said once, naming the directory where it stopped. */
			w->capped = 1;
			if (lstat(dir, &st) == 0)
				table_record(w, dir, &st, HOST_ENTRY_CAPPED | HOST_ENTRY_HIDDEN, AREL_SELF,
					     w->t->anchor);
			break;
		}
		w->entries++;
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
		if (b.oom)
			w->nomem = 1;
		else
			walk_entry(w, dir, b.data, depth);
		buf_free(&b);
	}
	closedir(dp);
}

void table_walk_tree(struct tw *w)
{
	w->entries = 0;
	w->capped = 0;
	walk_dir(w, w->t->path, w->t->depth);
}
