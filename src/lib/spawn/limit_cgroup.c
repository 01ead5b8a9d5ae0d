/* SPDX-License-Identifier: ISC */
/* limit_cgroup.c - see limit_cgroup.h. */
#include "spawn/limit_cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/judge.h"
#include "cgroup/place.h"
#include "cgroup/run.h"
#include "check/limits_check.h"
#include "check/messages.h"

struct limit_cgroup {
	struct run_cgroup rc;
	char path[4096 + 80]; /* beneath the mount, as /proc/PID/cgroup names it */
	int memory, tasks; /* the project set memory_max, tasks_max */
	int killed;
};

static int refused(const struct ruas_project *p, const char *keys, const struct cgroup_place *pl,
		   const char *why, const struct cgroup_judgement *j, ruas_error **err)
{
	char *line = msg_cgroup_unusable_line(keys, pl, why, j, (unsigned long)geteuid());
	if (!line)
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	int r = error_set(err, RUAS_ERR_CONFIG, NULL, 0, 0,
			  "project \"%s\": refusing to start user \"%s\": %s", p->name,
			  p->run_as_user, line);
	free(line);
	return r;
}

static int not_made(const struct ruas_project *p, const struct cgroup_place *pl, const char *what,
		    int e, ruas_error **err)
{
	if (e == EOPNOTSUPP)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot hold memory_max: this kernel does not "
				 "account swap (no memory.swap.max) and the host has swap on, so "
				 "the run could swap without a bound; nothing was started. Fix: "
				 "boot with swapaccount=1, or turn swap off",
				 p->name);
	if (e == ENOSYS && strcmp(what, "cgroup.kill") == 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": this kernel cannot kill a cgroup whole (it has no "
				 "cgroup.kill; Linux 5.14 and later do), so a run with cgroup limits "
				 "could not be ended whole; nothing was started. Fix: a newer kernel, "
				 "or remove memory_max, tasks_max and cpu_max",
				 p->name);
	return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
			 "project \"%s\": cannot make the run's cgroup beneath \"%s%s\" (%s): %s; "
			 "nothing was started",
			 p->name, strcmp(pl->mount, "/") == 0 ? "" : pl->mount, pl->parent, what,
			 strerror(e));
}

int limit_cgroup_make(const struct ruas_config *cfg, const struct ruas_project *p,
		      const char *run_id, struct limit_cgroup **out, ruas_error **err)
{
	*out = NULL;
	const struct run_limits *l = &p->limits;
	struct cgroup_limits want_l = cgroup_limits_of(l);
	unsigned int want = cgroup_controllers_wanted(&want_l);
	if (!want)
		return 0;
	char keys[96];
	cgroup_limit_keys(l, keys, sizeof keys);
	struct cgroup_place pl;
	struct cgroup_judgement j;
	const char *why = NULL, *what = NULL;
	int v = cgroup_parent_judge(cfg->cgroup_parent, geteuid(), want, &pl, &j, &why);
	if (v != CGROUP_USABLE)
		return refused(p, keys, &pl, v < 0 ? why : NULL, &j, err);
	struct limit_cgroup *lc = calloc(1, sizeof *lc);
	if (!lc)
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	char name[sizeof lc->rc.name];
	snprintf(name, sizeof name, "run-%s", run_id);
	int parent = cgroup_parent_open(&pl, want, &what);
	int made = parent >= 0 ? run_cgroup_make(&lc->rc, parent, name, &want_l, &what) : -1;
	int e = errno;
	if (parent >= 0)
		close(parent);
	if (made < 0) {
		free(lc);
		return not_made(p, &pl, what, e, err);
	}
	snprintf(lc->path, sizeof lc->path, "%s/%s", strcmp(pl.parent, "/") == 0 ? "" : pl.parent,
		 name);
	lc->memory = l->memory != 0;
	lc->tasks = l->tasks != 0;
	*out = lc;
	return 0;
}

void limit_cgroup_counts(const struct limit_cgroup *lc, struct limit_counts *k)
{
	struct cgroup_counts c;
	run_cgroup_counts(&lc->rc, &c);
	k->memory = lc->memory && c.ooms != UINT64_MAX && c.ooms > 0 &&
		    c.oom_kills != UINT64_MAX && c.oom_kills > 0;
	k->tasks = lc->tasks && c.pids_max != UINT64_MAX && c.pids_max > 0;
	k->peak_bytes = c.peak_bytes;
	k->cpu_usec = c.cpu_usec;
}

int limit_cgroup_end(struct limit_cgroup *lc, int wait_ms, int last)
{
	if (!lc)
		return 1;
	/* Nothing of the run outlives it: the helper's tree is gone; whatever it missed, too. */
	int left = run_cgroup_populated(&lc->rc) != 0;
	if (left && !lc->killed) {
		lc->killed = 1;
		(void)run_cgroup_kill(&lc->rc);
	}
	if (left)
		left = run_cgroup_wait_empty(&lc->rc, wait_ms) < 0;
	if (left && !last)
		return 0;
	run_cgroup_remove(&lc->rc);
	free(lc);
	return 1;
}

int limit_cgroup_fd(const struct limit_cgroup *lc)
{
	return lc->rc.dir;
}

const char *limit_cgroup_path(const struct limit_cgroup *lc)
{
	return lc->path;
}
