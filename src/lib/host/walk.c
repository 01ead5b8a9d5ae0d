/* SPDX-License-Identifier: ISC */
/*
 * walk.c - host_trees_walk() (trees.h): the trees, walked on every core,
 * keeping what someone other than root could write.
 *
 * An entry is kept when it is a file or a directory and its owner is not
 * root, or its group or others have write (with an ACL, the group bits are
 * the mask, so no named entry can grant write without them), or it is a
 * directory with a default ACL. Nothing else can be written by a user who
 * is not root, whoever that is, so the judgement per target (judge.c) only
 * looks at the kept few. Directories that others may not enter are kept
 * too: what is below one is out of the reach of a target that may not
 * enter it either (/var/spool/cron/crontabs, 1730 root:crontab). Symlinks are not followed: the tree that holds
 * what one leads to is walked itself, and the directory that holds the link
 * is judged as any other.
 *
 * Workers share a stack of directories to read (paths: a directory swapped
 * for a symlink meanwhile is not entered, O_NOFOLLOW, and whoever could swap
 * it can write the directory above, which is kept).
 */
#include "host/trees.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "host/acl.h"
#include "host/mounts.h"

#define THREADS_MAX 8u

struct work {
	char *path; /* real path: with the test's fs_root */
	unsigned int root;
};

struct out {
	struct host_entry *e;
	size_t n, cap;
};

struct walk {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct work *stack;
	size_t n, cap;
	unsigned int busy;
	int done;
	atomic_int stop;
	int nomem, late;
	struct timespec deadline;
	int has_deadline;
	atomic_ullong entries;
};

struct worker {
	pthread_t th;
	struct walk *w;
	struct out out;
};

int host_entry_make(const char *path, const struct stat *st, unsigned int flags,
		    struct host_entry *e)
{
	int hidden = (flags & HOST_ENTRY_HIDDEN) != 0;
	int dir = S_ISDIR(st->st_mode);
	if (!S_ISREG(st->st_mode) && !dir)
		return 0;
	struct host_ace *acl = NULL, *dacl = NULL;
	size_t nacl = 0, ndacl = 0;
	/* Not everyone may enter it: what is below is out of reach of some (judge.c). */
	int barrier = dir && !(st->st_mode & S_IXOTH);
	/*
	 * Group write (the mask) is what lets an ACL grant write; group search,
	 * search of a barrier or a hidden one.
	 */
	if (((st->st_mode & S_IWGRP) || hidden || (barrier && (st->st_mode & S_IXGRP))) &&
	    host_acl_read(path, "system.posix_acl_access", &acl, &nacl) < 0)
		return -1;
	if (dir && host_acl_read(path, "system.posix_acl_default", &dacl, &ndacl) < 0) {
		free(acl);
		return -1;
	}
	if (!hidden && !barrier && st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH)) &&
	    !ndacl) {
		free(acl);
		return 0;
	}
	char *p = strdup(path);
	if (!p) {
		free(acl);
		free(dacl);
		return -1;
	}
	memset(e, 0, sizeof *e);
	e->path = p;
	e->mode = st->st_mode;
	e->uid = st->st_uid;
	e->gid = st->st_gid;
	e->flags = flags;
	e->acl = acl;
	e->nacl = nacl;
	e->dacl = dacl;
	e->ndacl = ndacl;
	return 1;
}

static int keep(struct worker *wk, const char *path, const struct stat *st, unsigned int root,
		unsigned int flags)
{
	struct out *o = &wk->out;
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		struct host_entry *e = realloc(o->e, cap * sizeof *e);
		if (!e)
			return -1;
		o->e = e;
		o->cap = cap;
	}
	int r = host_entry_make(path, st, flags, &o->e[o->n]);
	if (r > 0)
		o->e[o->n++].root = root;
	return r < 0 ? -1 : 0;
}

static int past_deadline(struct walk *w)
{
	struct timespec now;
	if (!w->has_deadline)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > w->deadline.tv_sec ||
	       (now.tv_sec == w->deadline.tv_sec && now.tv_nsec >= w->deadline.tv_nsec);
}

static void stop_walk(struct walk *w, int nomem)
{
	pthread_mutex_lock(&w->mu);
	if (nomem)
		w->nomem = 1;
	else
		w->late = 1;
	pthread_mutex_unlock(&w->mu);
	atomic_store(&w->stop, 1);
}

/* Directories found in one read, handed to the stack at once (one lock). */
struct found {
	struct work *v;
	size_t n, cap;
};

static int found_add(struct found *f, const char *path, unsigned int root)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct work *v = realloc(f->v, cap * sizeof *v);
		if (!v)
			return -1;
		f->v = v;
		f->cap = cap;
	}
	char *p = strdup(path);
	if (!p)
		return -1;
	f->v[f->n].path = p;
	f->v[f->n++].root = root;
	return 0;
}

static void push_found(struct walk *w, struct found *f)
{
	pthread_mutex_lock(&w->mu);
	if (w->n + f->n > w->cap) {
		size_t cap = w->cap ? w->cap : 64;
		while (cap < w->n + f->n)
			cap *= 2;
		struct work *s = realloc(w->stack, cap * sizeof *s);
		if (!s) {
			pthread_mutex_unlock(&w->mu);
			for (size_t i = 0; i < f->n; i++)
				free(f->v[i].path);
			f->n = 0;
			stop_walk(w, 1);
			return;
		}
		w->stack = s;
		w->cap = cap;
	}
	if (f->n)
		memcpy(w->stack + w->n, f->v, f->n * sizeof *f->v);
	w->n += f->n;
	f->n = 0;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* One directory: its entries, kept or not; its subdirectories, to the stack. */
static void read_dir(struct worker *wk, const struct work *it, struct found *f)
{
	struct walk *w = wk->w;
	int fd = open(it->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		struct stat st;
		/* Cannot list it: judged per target by whether the target may enter. */
		if ((errno == EACCES || errno == EPERM) && lstat(it->path, &st) == 0 &&
		    S_ISDIR(st.st_mode) && keep(wk, it->path, &st, it->root, HOST_ENTRY_HIDDEN) < 0)
			stop_walk(w, 1);
		return;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		stop_walk(w, 1);
		return;
	}
	struct buf path = BUF_INIT;
	size_t base = strlen(it->path);
	buf_adds(&path, it->path);
	if (base > 1)
		buf_addc(&path, '/');
	else
		base = 0;
	unsigned long long seen = 0;
	struct dirent *e;
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed) && (e = readdir(d))) {
		const char *n = e->d_name;
		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		if ((++seen & 1023) == 0 && past_deadline(w)) {
			stop_walk(w, 0);
			break;
		}
		path.len = base + (base != 0);
		struct stat st;
		if (buf_adds(&path, n) < 0) {
			stop_walk(w, 1);
			break;
		}
		if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue; /* gone meanwhile */
		if (keep(wk, path.data, &st, it->root, 0) < 0 ||
		    (S_ISDIR(st.st_mode) && found_add(f, path.data, it->root) < 0)) {
			stop_walk(w, 1);
			break;
		}
	}
	atomic_fetch_add_explicit(&w->entries, seen, memory_order_relaxed);
	buf_free(&path);
	closedir(d);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct walk *w = wk->w;
	struct found f = {NULL, 0, 0};
	for (;;) {
		pthread_mutex_lock(&w->mu);
		while (!w->n && w->busy && !w->done)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->n || w->done) {
			w->done = 1;
			pthread_cond_broadcast(&w->cv);
			pthread_mutex_unlock(&w->mu);
			break;
		}
		struct work it = w->stack[--w->n];
		w->busy++;
		pthread_mutex_unlock(&w->mu);
		if (!atomic_load(&w->stop))
			read_dir(wk, &it, &f);
		free(it.path);
		if (f.n)
			push_found(w, &f);
		pthread_mutex_lock(&w->mu);
		w->busy--;
		if (atomic_load(&w->stop)) {
			/* Stopped: what is left is not read; the result says incomplete. */
			for (size_t i = 0; i < w->n; i++)
				free(w->stack[i].path);
			w->n = 0;
		}
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
	for (size_t i = 0; i < f.n; i++)
		free(f.v[i].path);
	free(f.v);
	return NULL;
}

static unsigned int threads_default(void)
{
	cpu_set_t set;
	unsigned int n = 1;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = (unsigned int)CPU_COUNT(&set);
	return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : n;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct host_entry *)a)->path, ((const struct host_entry *)b)->path);
}

void host_entry_clear(struct host_entry *e)
{
	free(e->path);
	free(e->acl);
	free(e->dacl);
	free(e->anchor);
}

/* The directories above a root, "/" first, kept as any entry is, marked HOST_ENTRY_ABOVE. */
static int above(struct worker *wk, const char *fs_root, const char *root, unsigned int idx)
{
	size_t len = strlen(root);
	for (size_t i = 0; i < len; i++) {
		if (root[i] != '/')
			continue;
		struct buf b = BUF_INIT;
		buf_adds(&b, fs_root ? fs_root : "");
		/* "/" is the fs_root itself in the tests. */
		buf_add(&b, root, i ? i : (fs_root ? 0 : 1));
		struct stat st;
		int r = 0;
		if (b.oom)
			r = -1;
		else if (lstat(b.data, &st) < 0)
			i = len; /* missing: nothing below it exists */
		else
			r = keep(wk, b.data, &st, idx, HOST_ENTRY_ABOVE);
		buf_free(&b);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* The roots (and the directories above them) into the first worker's entries and the stack. */
static int seed(struct walk *w, struct worker *wk, const char *fs_root, const struct host_trees *out)
{
	struct found f = {NULL, 0, 0};
	int bad = 0;
	for (size_t r = 0; !bad && r < out->nroots; r++) {
		struct buf real = BUF_INIT;
		buf_adds(&real, fs_root ? fs_root : "");
		buf_adds(&real, out->roots[r]);
		struct stat st;
		bad = real.oom || above(wk, fs_root, out->roots[r], (unsigned int)r) < 0;
		/* The root itself is an entry of its tree, then what it holds. */
		if (!bad && lstat(real.data, &st) == 0 && S_ISDIR(st.st_mode))
			bad = keep(wk, real.data, &st, (unsigned int)r, 0) < 0 ||
			      found_add(&f, real.data, (unsigned int)r) < 0;
		buf_free(&real);
	}
	if (!bad)
		push_found(w, &f);
	for (size_t i = 0; i < f.n; i++)
		free(f.v[i].path);
	free(f.v);
	return bad ? -1 : 0;
}

/* The workers, each on a thread (or this thread, when none can be made); how many ran. */
static unsigned int run_workers(struct worker *wk, unsigned int nt)
{
	unsigned int started = 0;
	for (; started < nt; started++)
		if (pthread_create(&wk[started].th, NULL, worker_main, &wk[started]) != 0)
			break;
	if (!started)
		worker_main(&wk[0]);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(wk[i].th, NULL);
	return started ? started : 1;
}

/*
 * The workers' entries into out, sorted. Equal paths (a root's parents
 * shared with another root, or a directory kept by its parent's read and
 * again as hidden by its own): one stays, with both's marks and the ACLs
 * either read.
 */
static int merge(struct host_trees *out, struct worker *wk, unsigned int nt)
{
	for (unsigned int i = 0; i < nt; i++) {
		struct out *o = &wk[i].out;
		if (!o->n)
			continue;
		struct host_entry *e = realloc(out->e, (out->n + o->n) * sizeof *e);
		if (!e)
			return -1;
		out->e = e;
		memcpy(out->e + out->n, o->e, o->n * sizeof *o->e);
		out->n += o->n;
		free(o->e);
		o->e = NULL;
		o->n = 0;
	}
	if (out->n > 1)
		qsort(out->e, out->n, sizeof *out->e, by_path);
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		struct host_entry *prev = k ? &out->e[k - 1] : NULL;
		if (prev && strcmp(prev->path, out->e[i].path) == 0) {
			prev->flags |= out->e[i].flags;
			if (!prev->nacl && out->e[i].nacl) {
				free(prev->acl);
				prev->acl = out->e[i].acl;
				prev->nacl = out->e[i].nacl;
				out->e[i].acl = NULL;
			}
			host_entry_clear(&out->e[i]);
			continue;
		}
		out->e[k++] = out->e[i];
	}
	out->n = k;
	return 0;
}

/* The test's fs_root off every path: the findings name the host's paths. */
static void strip_root(struct host_trees *out, size_t skip)
{
	for (size_t i = 0; skip && i < out->n; i++) {
		char *p = out->e[i].path;
		memmove(p, p + skip, strlen(p + skip) + 1);
		if (!*p) {
			p[0] = '/';
			p[1] = '\0';
		}
	}
}

int host_trees_walk(const char *fs_root, unsigned int threads, unsigned int seconds,
		    struct host_trees *out)
{
	memset(out, 0, sizeof *out);
	if (host_roots(fs_root, &out->roots, &out->nroots) < 0)
		return -1;
	struct walk w = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	atomic_init(&w.stop, 0);
	atomic_init(&w.entries, 0);
	if (seconds) {
		clock_gettime(CLOCK_MONOTONIC, &w.deadline);
		w.deadline.tv_sec += (time_t)seconds;
		w.has_deadline = 1;
	}
	unsigned int nt = threads ? threads : threads_default();
	if (nt > THREADS_MAX)
		nt = THREADS_MAX;
	struct worker *wk = calloc(nt, sizeof *wk);
	int rc = -1;
	for (unsigned int i = 0; wk && i < nt; i++)
		wk[i].w = &w;
	if (wk && seed(&w, &wk[0], fs_root, out) == 0) {
		out->threads = run_workers(wk, nt);
		out->incomplete = w.late;
		out->entries = atomic_load(&w.entries);
		if (!w.nomem && merge(out, wk, nt) == 0 && host_mounts_mark(out->e, out->n) == 0) {
			strip_root(out, fs_root ? strlen(fs_root) : 0);
			rc = 0;
		}
	}
	for (size_t i = 0; wk && i < nt; i++) {
		for (size_t k = 0; k < wk[i].out.n; k++)
			host_entry_clear(&wk[i].out.e[k]);
		free(wk[i].out.e);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.stack[i].path);
	free(w.stack);
	free(wk);
	if (rc < 0)
		host_trees_free(out);
	return rc;
}

void host_trees_free(struct host_trees *t)
{
	for (size_t i = 0; i < t->n; i++)
		host_entry_clear(&t->e[i]);
	free(t->e);
	for (size_t i = 0; i < t->nroots; i++)
		free(t->roots[i]);
	free(t->roots);
	memset(t, 0, sizeof *t);
}
