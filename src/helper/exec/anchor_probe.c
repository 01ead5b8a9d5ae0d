/* SPDX-License-Identifier: ISC */
/* anchor_probe.c - judging anchors as the target (anchors_probe); see anchor_probe.h. */
#include "anchor_probe.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "buf.h"
#include "path_follow.h"
#include "path_set.h"
#include "helper_report.h"

#define TREE_ENTRIES_MAX ANCHOR_TREE_ENTRIES_MAX

struct judge {
	uid_t uid;
	const char *self;
	char *const *judged; /* "DEPTH PATH": trees the library judges (not walked here) */
	size_t njudged;
	anchor_emit_fn emit;
	void *ctx;
	size_t failed;
	size_t tree_entries;
	int capped; /* TREE_ENTRIES_MAX was hit and reported */
	/*
	 * Judged paths, each tagged 'j' (judged), 'w' (walked as a tree) or
	 * 'd' (a directory, not a symlink, met while resolving a path).
	 */
	struct path_set seen;
};

static int has_acl(const char *path)
{
	/* An access ACL beyond the mode bits is stored as this attribute. */
	return lgetxattr(path, "system.posix_acl_access", NULL, 0) > 0;
}

static void report(struct judge *j, const char *path, const struct stat *st, char how,
		   int rel, const struct anchor_def *d, const char *anchor)
{
	struct anchor_finding f = {path, how, rel, d->id, (unsigned int)(st->st_mode & 07777),
				   st->st_uid, st->st_gid, has_acl(path), anchor};
	j->failed++;
	j->emit(j->ctx, &f);
}

/*
 * Does the directory's default ACL grant the target (by uid or by one of its
 * groups) write? Whatever root creates there later inherits it. The
 * attribute is the kernel's posix_acl_xattr: a 4-byte version, then
 * entries of a 16-bit tag, 16-bit permissions and 32-bit id, little-endian.
 */
static int default_acl_grants(const struct judge *j, const char *path)
{
	unsigned char a[4 + 8 * 64];
	ssize_t n = lgetxattr(path, "system.posix_acl_default", a, sizeof a);
	if (n < 4)
		return 0;
	gid_t groups[256];
	int ng = getgroups(256, groups);
	for (ssize_t i = 4; i + 8 <= n; i += 8) {
		unsigned int tag = a[i] | (unsigned int)a[i + 1] << 8;
		unsigned int perm = a[i + 2] | (unsigned int)a[i + 3] << 8;
		unsigned long id = a[i + 4] | (unsigned long)a[i + 5] << 8 |
				   (unsigned long)a[i + 6] << 16 | (unsigned long)a[i + 7] << 24;
		if (!(perm & 2))
			continue;
		if (tag == 0x02 && id == (unsigned long)j->uid) /* ACL_USER */
			return 1;
		if (tag == 0x08) { /* ACL_GROUP */
			if (id == (unsigned long)getgid())
				return 1;
			for (int g = 0; g < ng; g++)
				if (id == (unsigned long)groups[g])
					return 1;
		}
	}
	return 0;
}

/*
 * The verdict on an object: 'o' when the target owns it (it can chmod it),
 * 'w' when it may write it, 'r' when it may read a device, 'd' when a
 * directory's default ACL lets it write what is created there; 0 when fine.
 */
static char verdict(const struct judge *j, const char *path, const struct stat *st,
		    const struct anchor_def *d)
{
	if (d->kind == ANCHOR_SOCKET && !S_ISSOCK(st->st_mode))
		return 0; /* not a daemon's socket: nobody listens there */
	if (d->kind == ANCHOR_DEVICE && !S_ISBLK(st->st_mode) && !S_ISCHR(st->st_mode))
		return 0;
	/*
	 * Elsewhere only files and directories hold what root runs: a unit
	 * masked by a symlink to /dev/null leads to a device anyone may write.
	 */
	if (d->kind != ANCHOR_SOCKET && d->kind != ANCHOR_DEVICE && !S_ISREG(st->st_mode) &&
	    !S_ISDIR(st->st_mode))
		return 0;
	/*
	 * Owned counts on a read-only mount too: a read-only bind of a
	 * directory the target owns is written through its source.
	 */
	if (st->st_uid == j->uid && !S_ISLNK(st->st_mode))
		return 'o';
	if (access(path, W_OK) == 0)
		/* Nothing but the configuration is read from its directory. */
		return (d->flags & ANCHOR_STICKY_OK) && S_ISDIR(st->st_mode) &&
				       (st->st_mode & S_ISVTX)
			       ? 0
			       : 'w';
	if (d->kind == ANCHOR_DEVICE && access(path, R_OK) == 0)
		return 'r';
	if (S_ISDIR(st->st_mode) && !(d->flags & ANCHOR_STICKY_OK) && default_acl_grants(j, path))
		return 'd';
	return 0;
}

/*
 * Every directory above `path` (an absolute path whose directories are
 * already resolved): one the target owns, or may write unless it is sticky.
 */
static void judge_parents(struct judge *j, const char *path, int rel,
			  const struct anchor_def *d, const char *anchor)
{
	char dir[PATH_MAX];
	for (size_t pos = 0; path_above_next(path, &pos, dir);) {
		/* Judged already, so it exists: no lstat (thousands of links share them). */
		if (path_set_has(&j->seen, 'j', dir))
			continue;
		struct stat st;
		if (lstat(dir, &st) < 0)
			return; /* missing: nothing further down exists either */
		char how = 0;
		if (st.st_uid == j->uid)
			how = 'o';
		else if (access(dir, W_OK) == 0 && !(st.st_mode & S_ISVTX))
			how = 'w';
		if (how)
			report(j, dir, &st, how, rel, d, anchor);
		/* A sticky one is fine for this child only: judge it again for the next. */
		if (how || !(st.st_mode & S_ISVTX))
			path_set_add(&j->seen, 'j', dir);
	}
}

struct hop {
	struct judge *j;
	int rel;
	const struct anchor_def *d;
	const char *anchor;
};

/* A link met on the way: its directories are judged as `rel` (the first) or as a link's. */
static void on_link(void *ctx, const char *link, int first)
{
	const struct hop *h = ctx;
	judge_parents(h->j, link, first ? h->rel : AREL_LINK, h->d, h->anchor);
}

/*
 * `path` resolved as the kernel does (path_follow.h), judging the
 * directories above every symlink met on the way: the first link's as
 * `rel`, later ones as links of `anchor`. NULL when it cannot be resolved
 * (the target cannot reach it either).
 */
static char *follow(struct judge *j, const char *path, int rel, const struct anchor_def *d,
		    const char *anchor, int *linked)
{
	struct hop h = {j, rel, d, anchor};
	const struct path_follow_cb cb = {on_link, NULL, &h};
	return path_follow(path, &j->seen, &cb, linked);
}

/* walk() and judge_entry() recurse at most a tree's depth (the table's, 2 at most). */
static void judge_entry(struct judge *j, const char *path, unsigned int depth,
			const struct anchor_def *d, const char *anchor); /* NOLINT(misc-no-recursion) */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The entries of an ANCHOR_TREE directory, `depth` levels down, in name order. */
static void walk(struct judge *j, const char *dirpath, unsigned int depth, /* NOLINT(misc-no-recursion) */
		 const struct anchor_def *d, const char *anchor)
{
	struct dirent **names = NULL;
	int n = scandir(dirpath, &names, NULL, by_name);
	if (n < 0)
		return; /* cannot list it: nor can it see what to write */
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		int capped = j->tree_entries >= TREE_ENTRIES_MAX;
		if (capped && !j->capped && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
			/* Not judged is not passed: said once, naming the tree. */
			struct stat st;
			j->capped = 1;
			if (lstat(dirpath, &st) == 0)
				report(j, dirpath, &st, 'c', AREL_SELF, d, anchor);
		}
		int skip = strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || capped ||
			   ((d->flags & ANCHOR_SKIP_SELF) && j->self && strcmp(name, j->self) == 0);
		if (!skip) {
			struct buf b = BUF_INIT;
			buf_printf(&b, "%s/%s", strcmp(dirpath, "/") == 0 ? "" : dirpath, name);
			j->tree_entries++;
			if (!b.oom)
				judge_entry(j, b.data, depth - 1, d, anchor);
			buf_free(&b);
		}
		free(names[i]);
	}
	free(names);
}

/* An entry inside a tree: itself, where it leads when a symlink, and below. */
static void judge_entry(struct judge *j, const char *path, unsigned int depth, /* NOLINT(misc-no-recursion) */
			const struct anchor_def *d, const char *anchor)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return;
	if (S_ISLNK(st.st_mode)) {
		/* Named by the symlink itself: that is what root reads. */
		int linked;
		char *to = follow(j, path, AREL_LINK, d, path, &linked);
		if (to && !path_set_test_add(&j->seen, 'j', to) && stat(to, &st) == 0) {
			judge_parents(j, to, AREL_LINK, d, path);
			char how = verdict(j, to, &st, d);
			if (how)
				report(j, to, &st, how, AREL_LINK, d, path);
		}
		free(to);
		return;
	}
	char how = verdict(j, path, &st, d);
	if (how)
		report(j, path, &st, how, AREL_INSIDE, d, anchor);
	if (S_ISDIR(st.st_mode) && depth > 0)
		walk(j, path, depth, d, anchor);
}

/*
 * A missing anchor below a sticky directory the target may write
 * (judge_parents lets those pass): there it creates the anchor itself.
 */
static void judge_creatable(struct judge *j, const char *path, const struct anchor_def *d,
			    const char *anchor)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	size_t n = slash && slash != path ? (size_t)(slash - path) : 1;
	if (!slash || n >= sizeof dir)
		return;
	memcpy(dir, path, n);
	dir[n] = '\0';
	struct stat st;
	/*
	 * The nearest directory that exists: it can create what is missing
	 * below. (A file on the way is replaced through its own directory,
	 * which judge_parents judged, or by its owner, who owns it.)
	 */
	int rc;
	while ((rc = lstat(dir, &st)) < 0 && (errno == ENOENT || errno == ENOTDIR) && n > 1) {
		char *s = strrchr(dir, '/');
		n = s && s != dir ? (size_t)(s - dir) : 1;
		dir[n] = '\0';
	}
	if (rc == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) &&
	    access(dir, W_OK) == 0)
		report(j, dir, &st, 'w', AREL_PARENT, d, anchor);
}

/* Does the library judge what is in this tree (resolved), `depth` levels down at least? */
static int judged_by_library(const struct judge *j, const char *path, unsigned int depth)
{
	for (size_t i = 0; i < j->njudged; i++) {
		char *end;
		unsigned long dl = strtoul(j->judged[i], &end, 10);
		if (end != j->judged[i] && *end == ' ' && dl >= depth && strcmp(end + 1, path) == 0)
			return 1;
	}
	return 0;
}

static void judge_object(struct judge *j, const char *path, int rel,
			 const struct anchor_def *d, const char *anchor)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if ((errno == ENOENT || errno == ENOTDIR) && d->kind != ANCHOR_SOCKET &&
		    d->kind != ANCHOR_DEVICE)
			judge_creatable(j, path, d, anchor);
		return;
	}
	/* A lenient judgment (ANCHOR_STICKY_OK) must not stand in for a strict one. */
	int judged = (d->flags & ANCHOR_STICKY_OK) ? path_set_has(&j->seen, 'j', path)
						   : path_set_test_add(&j->seen, 'j', path);
	if (!judged) {
		char how = verdict(j, path, &st, d);
		if (how)
			report(j, path, &st, how, rel, d, anchor);
	}
	if (d->kind == ANCHOR_TREE && S_ISDIR(st.st_mode) && d->depth > 0 &&
	    !judged_by_library(j, path, d->depth) && !path_set_test_add(&j->seen, 'w', path))
		walk(j, path, d->depth, d, anchor);
}

/*
 * One anchor path: the directories above it, every symlink on the way (each
 * link's own directories too), itself or where it leads, what it holds.
 */
static void judge_path(struct judge *j, const char *path, const struct anchor_def *d)
{
	int linked;
	char *canon = follow(j, path, AREL_PARENT, d, path, &linked);
	if (!canon)
		return;
	judge_parents(j, canon, linked ? AREL_LINK : AREL_PARENT, d, linked ? path : canon);
	judge_object(j, canon, linked ? AREL_LINK : AREL_SELF, d, linked ? path : canon);
	free(canon);
}

static int is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

size_t anchors_probe(const struct anchor_item *items, size_t n, const char *self,
		     char *const *judged, size_t njudged, anchor_emit_fn emit, void *ctx)
{
	struct judge j = {getuid(), self, judged, njudged, emit, ctx, 0, 0, 0, PATH_SET_INIT};
	for (size_t i = 0; i < n; i++) {
		if (!items[i].path || items[i].path[0] != '/')
			continue;
		if (items[i].def->flags & ANCHOR_CAPPED) {
			/* The library could not send them all: not judged is not passed. */
			struct stat st;
			if (lstat(items[i].path, &st) == 0)
				report(&j, items[i].path, &st, 'c', AREL_SELF, items[i].def,
				       items[i].path);
			continue;
		}
		if (!is_pattern(items[i].path)) {
			judge_path(&j, items[i].path, items[i].def);
			continue;
		}
		glob_t g;
		if (glob(items[i].path, 0, NULL, &g) == 0)
			for (size_t k = 0; k < g.gl_pathc; k++)
				judge_path(&j, g.gl_pathv[k], items[i].def);
		globfree(&g);
	}
	path_set_free(&j.seen);
	return j.failed;
}
