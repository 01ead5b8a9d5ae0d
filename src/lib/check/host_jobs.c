/* SPDX-License-Identifier: ISC */
/* host_jobs.c - see host_jobs.h. */
#include "check/host_jobs.h"

#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "host/cache.h"
#include "host/verdict.h"

static void *walk_main(void *arg)
{
	struct host_run *h = arg;
	h->rc = host_cache_walk(h->fs_root, h->seconds, h->interval, h->fresh, h->cache_dir,
				&h->trees);
	return NULL;
}

static void *table_main(void *arg)
{
	struct host_run *h = arg;
	h->table_rc = host_table_walk(&h->table, h->seconds);
	return NULL;
}

/* The table's trees and their names, or none (h->judged NULL). */
static void table_list(struct host_run *h)
{
	memset(&h->table, 0, sizeof h->table);
	h->judged = NULL;
	h->njudged = 0;
	/* A test's fake tree: the table's paths are the host's, so its fake helper judges them. */
	if (h->fs_root)
		return;
	if (host_table_list(&h->table) == 0 && (h->judged = host_table_names(&h->table))) {
		h->njudged = h->table.ntrees;
		return;
	}
	host_table_free(&h->table);
}

void host_run_start(struct host_run *h)
{
	memset(&h->trees, 0, sizeof h->trees);
	h->rc = 0;
	h->table_rc = 0;
	table_list(h);
	/* Each on a thread of its own, beside the jobs' sudo calls. */
	h->started = pthread_create(&h->th, NULL, walk_main, h) == 0;
	h->table_started = h->judged && pthread_create(&h->table_th, NULL, table_main, h) == 0;
	if (!h->started)
		walk_main(h);
	if (h->judged && !h->table_started)
		table_main(h);
}

static void join(struct host_run *h)
{
	if (h->started) {
		pthread_join(h->th, NULL);
		h->started = 0;
	}
	if (h->table_started) {
		pthread_join(h->table_th, NULL);
		h->table_started = 0;
	}
}

/*
 * The database's groups and those the helper's login session had (a PAM
 * module such as pam_group may grant more): whichever it has, it uses.
 */
static int session_gids(const struct job *j, gid_t **gids, int *ng)
{
	if (!j->hr.gids_seen || !j->hr.ngids)
		return 0;
	gid_t *v = realloc(*gids, ((size_t)*ng + j->hr.ngids) * sizeof *v);
	if (!v)
		return -1;
	*gids = v;
	for (size_t i = 0; i < j->hr.ngids; i++)
		v[(*ng)++] = (gid_t)j->hr.gids[i];
	return 0;
}

static int apply_one(const struct host_run *h, struct job *j)
{
	struct account acct;
	gid_t *gids = NULL;
	int ng = 0;
	/* Gone since its sudo call worked: the next check says so. */
	int lr = account_lookup(j->spec->user, &acct);
	if (lr == ACCOUNT_MISSING)
		return 0;
	/* The database failed now: what the trees give it was not judged, which is not passed. */
	if (lr != ACCOUNT_FOUND)
		return host_verdict_unjudged(&j->hr, "/", "tree-etc",
					     "the user database could not be read for it");
	int r = account_gids(&acct, &gids, &ng);
	if (r == 0)
		r = session_gids(j, &gids, &ng);
	/* The table's first: they name what they find as the helper named it. */
	if (r == 0 && h->judged)
		r = host_verdict_add(&h->table.found, &h->trees, j->spec->user, acct.uid, gids,
				     (size_t)ng, h->seconds, &j->hr);
	if (r == 0)
		r = host_verdict_add(&h->trees, h->judged ? &h->table.found : NULL, j->spec->user,
				     acct.uid, gids, (size_t)ng, h->seconds, &j->hr);
	free(gids);
	account_clear(&acct);
	return r;
}

int host_run_apply(struct host_run *h, struct job *jobs, size_t n)
{
	join(h);
	if (h->rc < 0 || h->table_rc < 0)
		return -1;
	int r = 0;
	for (size_t i = 0; i < n; i++)
		if (jobs[i].outcome == OUT_OK && apply_one(h, &jobs[i]) < 0)
			r = -1;
	return r;
}

void host_run_free(struct host_run *h)
{
	join(h);
	host_trees_free(&h->trees);
	host_table_free(&h->table);
	for (size_t i = 0; h->judged && i < h->njudged; i++)
		free(h->judged[i]);
	free(h->judged);
	h->judged = NULL;
	h->njudged = 0;
}
