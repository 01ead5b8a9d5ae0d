/* SPDX-License-Identifier: ISC */
/*
 * scan_int.h - what scan_walk.c (one worker's depth-first walk) and
 * scan_pool.c (the workers, their shared queue, the merge) share.
 */
#ifndef RUAS_SCAN_INT_H
#define RUAS_SCAN_INT_H

#include <stdatomic.h>
#include <time.h>

#include "buf.h"
#include "scan.h"

struct scan_pool;

/* One worker's state; nothing in it is touched by another thread. */
struct scan_walk {
	const struct scan_options *o;
	struct scan_pool *pool;   /* NULL: single-threaded, nothing is handed off */
	atomic_int *stop;         /* shared: set by whoever ends the walk early */
	struct scan_item *items;  /* max-heap of this worker's o->cap smallest paths */
	size_t nitems;
	unsigned long long total, entries, handoffs;
	int incomplete;
	int nomem;
	struct buf path;
	struct timespec deadline;
	unsigned int depth, max_depth;
};

/* Walks the directory open on dfd (whose path is w->path) depth-first; takes dfd. */
void scan_walk_dir(struct scan_walk *w, int dfd);

/*
 * Queues the directory open on fd (its path, its depth) for whichever
 * worker runs out of work first: 1 when queued (fd with it), 0 when the
 * walk has one worker or the queue is full, and the caller walks it itself.
 */
int scan_pool_offer(struct scan_pool *p, int fd, const char *path, unsigned int depth);

#endif
