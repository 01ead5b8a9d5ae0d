/* SPDX-License-Identifier: ISC */
/*
 * host_jobs.h - the host's trees (src/lib/host) in a check: walked (or a
 * fresh cached walk read) on a thread of its own while the jobs' sudo calls
 * run, then judged for each job's user and added to its anchors, where the
 * findings (anchors_report.c) name them as the table's.
 */
#ifndef RUAS_CHECK_HOST_JOBS_H
#define RUAS_CHECK_HOST_JOBS_H

#include <pthread.h>

#include "check/engine.h"
#include "host/table.h"
#include "host/trees.h"

struct host_run {
	/* in */
	const char *fs_root;   /* the runner's */
	unsigned int seconds;  /* scan_time_limit */
	unsigned int interval; /* host_check_interval: reuse a walk this fresh; 0 never */
	int fresh;             /* walk now whatever the interval says (and keep it) */
	const char *cache_dir; /* where it is kept; NULL: host_cache_dir() */
	/* out */
	pthread_t th;
	int started;
	int rc; /* 0, or -1 when out of memory */
	struct host_trees trees;
	/*
	 * The table's trees (host/table.h), listed at the start and walked on
	 * the same thread after the trees; judged: their names for the jobs'
	 * payloads (judged_trees), NULL when there are none (a test's fs_root,
	 * or out of memory: the helpers then walk them all, as before).
	 */
	struct host_table table;
	char **judged;
	size_t njudged;
	pthread_t table_th;
	int table_started;
	int table_rc; /* 0, or -1 when out of memory */
};

/*
 * Lists the table's trees, then starts the walk (on this thread when no
 * thread can be made).
 */
void host_run_start(struct host_run *h);

/*
 * Waits for the walk, then adds to each job whose sudo call worked what its
 * user (its groups: the database's and its login session's) can write in
 * the table's trees and in the trees. 0, or -1 when out of memory.
 */
int host_run_apply(struct host_run *h, struct job *jobs, size_t n);

void host_run_free(struct host_run *h);

#endif
