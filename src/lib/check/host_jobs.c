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

void host_run_start(struct host_run *h)
{
	memset(&h->trees, 0, sizeof h->trees);
	h->rc = 0;
	h->started = pthread_create(&h->th, NULL, walk_main, h) == 0;
	if (!h->started)
		walk_main(h);
}

static int apply_one(const struct host_run *h, struct job *j)
{
	struct account acct;
	gid_t *gids = NULL;
	int ng = 0;
	/* Gone since its sudo call worked: the next check says so. */
	if (account_lookup(j->spec->user, &acct) != ACCOUNT_FOUND)
		return 0;
	int r = account_gids(&acct, &gids, &ng);
	if (r == 0)
		r = host_verdict_add(&h->trees, j->spec->user, acct.uid, gids, (size_t)ng,
				     h->seconds, &j->hr);
	free(gids);
	account_clear(&acct);
	return r;
}

int host_run_apply(struct host_run *h, struct job *jobs, size_t n)
{
	if (h->started) {
		pthread_join(h->th, NULL);
		h->started = 0;
	}
	if (h->rc < 0)
		return -1;
	int r = 0;
	for (size_t i = 0; i < n; i++)
		if (jobs[i].outcome == OUT_OK && apply_one(h, &jobs[i]) < 0)
			r = -1;
	return r;
}

void host_run_free(struct host_run *h)
{
	if (h->started) {
		pthread_join(h->th, NULL);
		h->started = 0;
	}
	host_trees_free(&h->trees);
}
