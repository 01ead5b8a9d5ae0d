/* SPDX-License-Identifier: ISC */
/*
 * scan_pool.c - scan_tree(): the workers that walk a tree in parallel, the
 * bounded queue through which they share directories, and the merge of
 * what each one kept; see scan.h.
 *
 * Each worker walks depth-first, one open directory per level, as a single
 * thread would. When it is about to enter a directory and the shared queue
 * has room, it hands the directory over instead: its open descriptor (never
 * a path, which the target could redirect), its path for the report and its
 * depth. A worker that runs out of work takes the oldest handoff; with the
 * queue full, the finder walks the directory itself. The queue is bounded
 * (SCAN_QUEUE_PER_WORKER slots per worker), so memory and descriptors stay
 * O(depth x workers), never O(entries). Every entry is judged the same way
 * by whichever worker reaches it and each worker keeps its own cap smallest
 * paths, so merging them gives the items, counts and flags of one thread.
 */
#include "scan_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct handoff {
	int fd;
	unsigned int depth;
	char *path;
};

struct scan_pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct handoff *q; /* ring of qcap slots */
	size_t qcap, head, n;
	unsigned int workers;
	unsigned int active;  /* workers walking a directory */
	atomic_uint idle;     /* workers waiting; read without the lock as a hint */
	atomic_int stop;
};

int scan_pool_offer(struct scan_pool *p, int fd, const char *path, unsigned int depth)
{
	if (p->workers == 1)
		return 0; /* one thread walks depth-first, as it always did */
	char *copy = strdup(path);
	if (!copy)
		return 0; /* walked here instead */
	pthread_mutex_lock(&p->lock);
	if (p->n == p->qcap) {
		pthread_mutex_unlock(&p->lock);
		free(copy);
		return 0;
	}
	struct handoff *slot = &p->q[(p->head + p->n++) % p->qcap];
	slot->fd = fd;
	slot->depth = depth;
	slot->path = copy;
	if (atomic_load_explicit(&p->idle, memory_order_relaxed))
		pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return 1;
}

/* Takes directories from the queue until none is left and no worker is busy. */
static void *worker(void *arg)
{
	struct scan_walk *w = arg;
	struct scan_pool *p = w->pool;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (p->n == 0 && p->active > 0 && !atomic_load(&p->stop)) {
			atomic_fetch_add(&p->idle, 1);
			pthread_cond_wait(&p->cond, &p->lock);
			atomic_fetch_sub(&p->idle, 1);
		}
		if (p->n == 0 || atomic_load(&p->stop)) {
			pthread_cond_broadcast(&p->cond); /* the others end too */
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		struct handoff h = p->q[p->head];
		p->head = (p->head + 1) % p->qcap;
		p->n--;
		p->active++;
		pthread_mutex_unlock(&p->lock);

		w->path.len = 0;
		if (buf_adds(&w->path, h.path) < 0) {
			close(h.fd);
			w->nomem = 1;
			atomic_store(&p->stop, 1);
		} else {
			w->depth = h.depth;
			scan_walk_dir(w, h.fd);
		}
		free(h.path);

		pthread_mutex_lock(&p->lock);
		if (--p->active == 0 || atomic_load(&p->stop))
			pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Descriptors open now; 64 when /proc cannot tell. */
static long open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;
	if (!d)
		return 64;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * How many workers: opts->threads, or min(CPUs we may run on, SCAN_MAX_THREADS);
 * then no more than the descriptor limit holds, at least one (see scan.h).
 * Cutting workers rather than depth keeps the result independent of the
 * limit: max_depth means the same with one worker or eight.
 */
static unsigned int worker_count(const struct scan_options *o, unsigned int max_depth)
{
	unsigned long want = o->threads;
	if (!want) {
		cpu_set_t set;
		want = sched_getaffinity(0, sizeof set, &set) == 0 ? (unsigned long)CPU_COUNT(&set) : 1;
		if (want > SCAN_MAX_THREADS)
			want = SCAN_MAX_THREADS;
	}
	struct rlimit rl;
	if (want > 1 && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		long long avail = (long long)rl.rlim_cur - open_fds() - SCAN_FD_RESERVE;
		long long fit = avail / ((long long)max_depth + SCAN_FDS_PER_WORKER);
		if (fit < (long long)want)
			want = fit > 1 ? (unsigned long)fit : 1;
	}
	return want ? (unsigned int)want : 1;
}

static int cmp_items(const void *a, const void *b)
{
	return strcmp(((const struct scan_item *)a)->path,
		      ((const struct scan_item *)b)->path);
}

/*
 * Every worker kept its cap smallest paths, so the cap smallest of all are
 * among their union: sort the union, keep cap, free the rest.
 */
static int merge(struct scan_walk *ws, unsigned int nw, size_t cap, struct scan_result *out)
{
	size_t n = 0, k = 0;
	for (unsigned int i = 0; i < nw; i++)
		n += ws[i].nitems;
	struct scan_item *all = n ? calloc(n, sizeof *all) : NULL;
	if (n && !all)
		return -1;
	for (unsigned int i = 0; i < nw; i++) {
		if (ws[i].nitems)
			memcpy(all + k, ws[i].items, ws[i].nitems * sizeof *all);
		k += ws[i].nitems;
		ws[i].nitems = 0;
		out->total += ws[i].total;
		out->entries += ws[i].entries;
		out->handoffs += ws[i].handoffs;
		out->incomplete |= ws[i].incomplete;
	}
	if (n)
		qsort(all, n, sizeof *all, cmp_items);
	if (n > cap) {
		for (size_t i = cap; i < n; i++) {
			free(all[i].path);
			free(all[i].owner);
		}
		n = cap;
	}
	out->items = all;
	out->nitems = n;
	return 0;
}

/* Starts nw - 1 threads, works as the last worker itself, joins them; the workers that ran. */
static unsigned int run_workers(struct scan_walk *ws, unsigned int nw)
{
	pthread_t *tids = nw > 1 ? calloc(nw - 1, sizeof *tids) : NULL;
	unsigned int started = 0;
	while (tids && started < nw - 1 &&
	       pthread_create(&tids[started], NULL, worker, &ws[started]) == 0)
		started++;
	worker(&ws[nw - 1]); /* fewer threads than planned: still the same walk */
	for (unsigned int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return started + 1;
}

int scan_tree(const char *root, const struct scan_options *opts,
	      struct scan_result *out)
{
	memset(out, 0, sizeof *out);
	unsigned int max_depth = opts->max_depth ? opts->max_depth : SCAN_MAX_DEPTH;
	unsigned int nw = worker_count(opts, max_depth);
	struct scan_pool pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
				 .qcap = (size_t)nw * SCAN_QUEUE_PER_WORKER, .workers = nw};
	struct scan_walk *ws = calloc(nw, sizeof *ws);
	char *rootcopy = strdup(root);
	pool.q = calloc(pool.qcap, sizeof *pool.q);
	int rc = -1, err = ENOMEM;
	if (!ws || !rootcopy || !pool.q)
		goto done;
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += opts->seconds;
	for (unsigned int i = 0; i < nw; i++) {
		ws[i] = (struct scan_walk){.o = opts, .pool = &pool,
					   .stop = &pool.stop, .deadline = deadline,
					   .max_depth = max_depth};
		if (opts->cap && !(ws[i].items = calloc(opts->cap, sizeof *ws[i].items)))
			goto done;
	}
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto done;
	}
	/* The root is the first handoff; a single worker takes it as any other. */
	pool.q[0] = (struct handoff){fd, 0, rootcopy};
	pool.n = 1;
	rootcopy = NULL;
	unsigned int ran = run_workers(ws, nw);
	int nomem = 0;
	for (unsigned int i = 0; i < nw; i++)
		nomem |= ws[i].nomem;
	if (!nomem && merge(ws, nw, opts->cap, out) == 0) {
		out->threads = ran;
		rc = 0;
	}
done:
	/* Left in the queue when a worker stopped the walk early. */
	for (; pool.n; pool.n--, pool.head = (pool.head + 1) % pool.qcap) {
		close(pool.q[pool.head].fd);
		free(pool.q[pool.head].path);
	}
	for (unsigned int i = 0; ws && i < nw; i++) {
		scan_items_free(ws[i].items, ws[i].nitems);
		buf_free(&ws[i].path);
	}
	free(ws);
	free(pool.q);
	free(rootcopy);
	pthread_mutex_destroy(&pool.lock);
	pthread_cond_destroy(&pool.cond);
	if (rc < 0) {
		scan_result_free(out);
		errno = err;
	}
	return rc;
}

void scan_result_free(struct scan_result *r)
{
	scan_items_free(r->items, r->nitems);
	memset(r, 0, sizeof *r);
}
