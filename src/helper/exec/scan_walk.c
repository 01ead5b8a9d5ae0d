/* SPDX-License-Identifier: ISC */
/*
 * scan_walk.c - one worker's depth-first walk; see scan.h. scan_pool.c runs
 * one of these per thread and merges what they kept.
 */
#include "scan_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int default_access(int dirfd, const char *name, int amode, void *ctx)
{
	(void)ctx;
	return faccessat(dirfd, name, amode, AT_SYMLINK_NOFOLLOW);
}

static int probe(struct scan_walk *w, int dirfd, const char *name, int amode)
{
	scan_access_fn fn = w->o->access ? w->o->access : default_access;
	return fn(dirfd, name, amode, w->o->ctx) == 0;
}

/* Max-heap on path: the root is the largest kept path. */
static void heap_down(struct scan_item *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && strcmp(h[l].path, h[m].path) > 0)
			m = l;
		if (r < n && strcmp(h[r].path, h[m].path) > 0)
			m = r;
		if (m == i)
			return;
		struct scan_item t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void heap_up(struct scan_item *h, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (strcmp(h[p].path, h[i].path) >= 0)
			return;
		struct scan_item t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

static void flag(struct scan_walk *w, int dirfd, const char *name, unsigned flags)
{
	struct stat st;
	w->total++;
	if (w->o->cap == 0)
		return;
	if (w->nitems == w->o->cap && strcmp(w->path.data, w->items[0].path) >= 0)
		return;
	struct scan_item it = {strdup(w->path.data), flags, 0, REPORT_UID_UNKNOWN, NULL};
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		it.mode = st.st_mode & 07777;
		it.uid = (unsigned int)st.st_uid;
	}
	if (!it.path) {
		w->nomem = 1;
		atomic_store_explicit(w->stop, 1, memory_order_relaxed);
		return;
	}
	if (w->nitems == w->o->cap) {
		free(w->items[0].path);
		free(w->items[0].owner);
		w->items[0] = it;
		heap_down(w->items, w->nitems, 0);
	} else {
		w->items[w->nitems] = it;
		heap_up(w->items, w->nitems++);
	}
}

static int pruned(const struct scan_walk *w, const char *name)
{
	for (const char *const *p = w->o->prune; p && *p; p++)
		if (strcmp(*p, name) == 0)
			return 1;
	return 0;
}

static int out_of_time(const struct scan_walk *w)
{
	struct timespec now;
	if (!w->o->seconds)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > w->deadline.tv_sec ||
	       (now.tv_sec == w->deadline.tv_sec && now.tv_nsec >= w->deadline.tv_nsec);
}

static int stopped(const struct scan_walk *w)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed);
}

/* Ends every worker's walk: the result is incomplete. */
static void stop_all(struct scan_walk *w)
{
	w->incomplete = 1;
	atomic_store_explicit(w->stop, 1, memory_order_relaxed);
}

/*
 * visit() and scan_walk_dir() recurse once per directory level, at most
 * max_depth levels (see SCAN_MAX_DEPTH): the stack and the open directories
 * stay bounded whatever RLIMIT_NOFILE allows.
 */
static void visit(struct scan_walk *w, int dfd, const char *name, /* NOLINT(misc-no-recursion) */
		  unsigned char type)
{
	if (type == DT_UNKNOWN) {
		struct stat st;
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return; /* vanished meanwhile */
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
	}
	if (type == DT_LNK)
		return; /* never followed, never judged */
	/*
	 * One faccessat for both permissions; nearly every entry passes, and
	 * only a refusal needs the two separate probes that tell which.
	 */
	unsigned flags = 0;
	int second = type == DT_DIR ? X_OK : W_OK;
	if (!probe(w, dfd, name, R_OK | second)) {
		if (!probe(w, dfd, name, R_OK))
			flags |= SCAN_NOT_READABLE;
		if (!probe(w, dfd, name, second))
			flags |= type == DT_DIR ? SCAN_NOT_SEARCHABLE : SCAN_NOT_WRITABLE;
	}
	if (flags)
		flag(w, dfd, name, flags);
	if (type != DT_DIR || flags)
		return;
	if (w->depth >= w->max_depth) {
		w->incomplete = 1; /* not entered; its siblings still are */
		return;
	}
	/*
	 * O_NOFOLLOW|O_DIRECTORY: an entry swapped for a symlink since readdir
	 * is not entered. The directory is opened here, by the worker that
	 * judged it, whoever walks it: a worker that takes it over gets this
	 * descriptor, never a path to resolve again.
	 */
	int cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0) {
		if (errno == EMFILE || errno == ENFILE)
			stop_all(w);
		return;
	}
	if (w->pool && scan_pool_offer(w->pool, cfd, w->path.data, w->depth + 1)) {
		w->handoffs++;
		return;
	}
	w->depth++;
	scan_walk_dir(w, cfd);
	w->depth--;
}

void scan_walk_dir(struct scan_walk *w, int dfd) /* NOLINT(misc-no-recursion): see visit() */
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	size_t base = w->path.len;
	struct dirent *e;
	while (!stopped(w) && (e = readdir(d))) {
		const char *n = e->d_name;
		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		if (pruned(w, n))
			continue;
		if ((++w->entries & 1023) == 0 && out_of_time(w)) {
			stop_all(w);
			break;
		}
		w->path.len = base;
		if (((base == 0 || w->path.data[base - 1] != '/') && buf_addc(&w->path, '/') < 0) ||
		    buf_adds(&w->path, n) < 0) {
			w->nomem = 1;
			atomic_store_explicit(w->stop, 1, memory_order_relaxed);
			break;
		}
		visit(w, dirfd(d), n, e->d_type);
	}
	w->path.len = base;
	if (w->path.data)
		w->path.data[base] = '\0';
	closedir(d);
}
