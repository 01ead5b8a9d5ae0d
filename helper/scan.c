/* scan.c - the descendant scan; see scan.h. */
#include "scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"

struct walk {
	const struct scan_options *o;
	struct scan_result *r;
	struct buf path;
	struct timespec deadline;
	unsigned int depth, max_depth;
	int stop;
	int nomem;
};

static int default_access(int dirfd, const char *name, int amode, void *ctx)
{
	(void)ctx;
	return faccessat(dirfd, name, amode, AT_SYMLINK_NOFOLLOW);
}

static int probe(struct walk *w, int dirfd, const char *name, int amode)
{
	scan_access_fn fn = w->o->access ? w->o->access : default_access;
	return fn(dirfd, name, amode, w->o->ctx) == 0;
}

char *scan_owner_name(uid_t uid)
{
	struct passwd pw, *res = NULL;
	char mem[4096];
	char num[32];
	if (getpwuid_r(uid, &pw, mem, sizeof mem, &res) == 0 && res)
		return strdup(res->pw_name);
	snprintf(num, sizeof num, "%u", (unsigned)uid);
	return strdup(num);
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

static void flag(struct walk *w, int dirfd, const char *name, unsigned flags)
{
	struct scan_result *r = w->r;
	struct stat st;
	r->total++;
	if (w->o->cap == 0)
		return;
	if (r->nitems == w->o->cap && strcmp(w->path.data, r->items[0].path) >= 0)
		return;
	struct scan_item it = {strdup(w->path.data), flags, 0, NULL};
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		it.mode = st.st_mode & 07777;
		it.owner = scan_owner_name(st.st_uid);
	} else {
		it.owner = strdup("?");
	}
	if (!it.path || !it.owner) {
		free(it.path);
		free(it.owner);
		w->nomem = 1;
		return;
	}
	if (r->nitems == w->o->cap) {
		free(r->items[0].path);
		free(r->items[0].owner);
		r->items[0] = it;
		heap_down(r->items, r->nitems, 0);
	} else {
		r->items[r->nitems] = it;
		heap_up(r->items, r->nitems++);
	}
}

static int pruned(const struct walk *w, const char *name)
{
	for (const char *const *p = w->o->prune; p && *p; p++)
		if (strcmp(*p, name) == 0)
			return 1;
	return 0;
}

static int out_of_time(struct walk *w)
{
	struct timespec now;
	if (!w->o->seconds)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > w->deadline.tv_sec ||
	       (now.tv_sec == w->deadline.tv_sec && now.tv_nsec >= w->deadline.tv_nsec);
}

static void walk_dir(struct walk *w, int dfd);

/*
 * visit() and walk_dir() recurse once per directory level, at most max_depth
 * levels (see SCAN_MAX_DEPTH): the stack and the open directories stay
 * bounded whatever RLIMIT_NOFILE allows.
 */
static void visit(struct walk *w, int dfd, const char *name, /* NOLINT(misc-no-recursion) */
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
		w->r->incomplete = 1; /* not entered; its siblings still are */
		return;
	}
	int cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0) {
		if (errno == EMFILE || errno == ENFILE)
			w->stop = w->r->incomplete = 1;
		return;
	}
	w->depth++;
	walk_dir(w, cfd);
	w->depth--;
}

/* Takes ownership of dfd. */
static void walk_dir(struct walk *w, int dfd) /* NOLINT(misc-no-recursion): see visit() */
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	size_t base = w->path.len;
	struct dirent *e;
	while (!w->stop && !w->nomem && (e = readdir(d))) {
		const char *n = e->d_name;
		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		if (pruned(w, n))
			continue;
		if ((++w->r->entries & 1023) == 0 && out_of_time(w)) {
			w->stop = w->r->incomplete = 1;
			break;
		}
		w->path.len = base;
		if ((base == 0 || w->path.data[base - 1] != '/') && buf_addc(&w->path, '/') < 0) {
			w->nomem = 1;
			break;
		}
		if (buf_adds(&w->path, n) < 0) {
			w->nomem = 1;
			break;
		}
		visit(w, dirfd(d), n, e->d_type);
	}
	w->path.len = base;
	if (w->path.data)
		w->path.data[base] = '\0';
	closedir(d);
}

static int cmp_items(const void *a, const void *b)
{
	return strcmp(((const struct scan_item *)a)->path,
		      ((const struct scan_item *)b)->path);
}

int scan_tree(const char *root, const struct scan_options *opts,
	      struct scan_result *out)
{
	memset(out, 0, sizeof *out);
	struct walk w = {opts, out, BUF_INIT, {0, 0}, 0,
			 opts->max_depth ? opts->max_depth : SCAN_MAX_DEPTH, 0, 0};
	if (opts->cap && !(out->items = calloc(opts->cap, sizeof *out->items)))
		return -1;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		scan_result_free(out);
		errno = e;
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &w.deadline);
	w.deadline.tv_sec += opts->seconds;
	if (buf_adds(&w.path, root) < 0) {
		close(fd);
		scan_result_free(out);
		errno = ENOMEM;
		return -1;
	}
	walk_dir(&w, fd);
	buf_free(&w.path);
	if (w.nomem) {
		scan_result_free(out);
		errno = ENOMEM;
		return -1;
	}
	if (out->nitems)
		qsort(out->items, out->nitems, sizeof *out->items, cmp_items);
	return 0;
}

void scan_result_free(struct scan_result *r)
{
	scan_items_free(r->items, r->nitems);
	memset(r, 0, sizeof *r);
}
