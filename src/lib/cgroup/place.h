/* SPDX-License-Identifier: ISC */
/*
 * place.h - where a supervisor's runs get their cgroups: the cgroup v2
 * mount, the supervisor's own cgroup in it, and the parent of the runs'
 * (cgroup_parent, or the default: for root "ruas" beneath the top, made
 * when missing; for another user its own cgroup, which the check judges).
 */
#ifndef RUAS_CGROUP_PLACE_H
#define RUAS_CGROUP_PLACE_H

#include <sys/types.h>

#define CGROUP_DEFAULT_ROOT_PARENT "/ruas"

struct cgroup_place {
	char mount[4096];  /* the cgroup2 mount point */
	char own[4096];    /* the supervisor's cgroup, beneath the mount ("/..."), "" unknown */
	char parent[4096]; /* where runs go, beneath the mount */
	int is_default;    /* no cgroup_parent was set */
	int made_here;     /* root's default: ruas makes it when it is missing */
};

/*
 * From the configuration's cgroup_parent (NULL: the default) and the
 * supervisor's euid. 0, or -1 with *why saying what is missing, for the
 * check's message: no cgroup v2 mounted, this process in none, or a
 * cgroup_parent not beneath the mount.
 */
int cgroup_place_find(const char *cgroup_parent, uid_t euid, struct cgroup_place *out,
		      const char **why);

/*
 * The same from given texts of /proc/self/mountinfo and /proc/self/cgroup
 * (the unit tests').
 */
int cgroup_place_from(const char *mountinfo, const char *proc_cgroup, const char *cgroup_parent,
		      uid_t euid, struct cgroup_place *out, const char **why);

struct cgroup_judgement;

/*
 * Where this supervisor's runs needing the controllers in want (CGROUP_CTL_*)
 * go, and whether they can: -1 with *why when the place cannot even be
 * found (pl as far as it got), else the judge's verdict (judge.h), with j
 * filled. Root's default parent that is not there yet is judged by the top,
 * beneath which the first run makes it. The check's and the spawn's one
 * judgement.
 */
int cgroup_parent_judge(const char *cgroup_parent, uid_t euid, unsigned int want,
			struct cgroup_place *pl, struct cgroup_judgement *j, const char **why);

/*
 * The parent's directory, once judged usable: root's default made (0755)
 * where it is missing, the top handing down want to it first. A descriptor,
 * or -1 with errno and *what naming the step (a path, "mkdir",
 * "cgroup.subtree_control").
 */
int cgroup_parent_open(const struct cgroup_place *pl, unsigned int want, const char **what);

#endif
