/* SPDX-License-Identifier: ISC */
/* place.c - see place.h. */
#include "cgroup/place.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/judge.h"
#include "cgroup_locate.h"
#include "cgroup/run.h"

int cgroup_place_from(const char *mountinfo, const char *proc_cgroup, const char *cgroup_parent,
		      uid_t euid, struct cgroup_place *out, const char **why)
{
	memset(out, 0, sizeof *out);
	if (cgroup2_mount_from(mountinfo, out->mount, sizeof out->mount) < 0) {
		*why = "no cgroup v2 is mounted (this host has cgroup v1 only, or no cgroup file "
		       "system)";
		return -1;
	}
	if (cgroup2_own_from(proc_cgroup, out->own, sizeof out->own) < 0) {
		*why = "the supervisor is in no cgroup v2 that it can name (/proc/self/cgroup has "
		       "no usable \"0::\" line)";
		return -1;
	}
	out->is_default = !cgroup_parent;
	if (!cgroup_parent) {
		/* Root's are its own, beneath the top; a user's go beneath its own cgroup. */
		snprintf(out->parent, sizeof out->parent, "%s",
			 euid == 0 ? CGROUP_DEFAULT_ROOT_PARENT : out->own);
		out->made_here = euid == 0;
		return 0;
	}
	/* cgroup_parent is plain (config.c): beneath the mount is a prefix of whole parts. */
	size_t ml = strlen(out->mount);
	int top = strcmp(out->mount, "/") == 0;
	if (top ? cgroup_parent[0] != '/'
		: strncmp(cgroup_parent, out->mount, ml) != 0 ||
			  (cgroup_parent[ml] != '/' && cgroup_parent[ml] != '\0')) {
		*why = "cgroup_parent is not beneath the cgroup v2 mount";
		return -1;
	}
	const char *rest = top ? cgroup_parent : cgroup_parent + ml;
	snprintf(out->parent, sizeof out->parent, "%s", rest[0] ? rest : "/");
	return 0;
}

int cgroup_place_find(const char *cgroup_parent, uid_t euid, struct cgroup_place *out,
		      const char **why)
{
	char *mi = cgroup_proc_text("mountinfo");
	char *cg = mi ? cgroup_proc_text("cgroup") : NULL;
	if (!mi || !cg) {
		free(mi);
		memset(out, 0, sizeof *out);
		*why = "/proc/self/mountinfo or /proc/self/cgroup could not be read";
		return -1;
	}
	int r = cgroup_place_from(mi, cg, cgroup_parent, euid, out, why);
	free(mi);
	free(cg);
	return r;
}

int cgroup_parent_judge(const char *cgroup_parent, uid_t euid, unsigned int want,
			struct cgroup_place *pl, struct cgroup_judgement *j, const char **why)
{
	memset(j, 0, sizeof *j);
	if (cgroup_place_find(cgroup_parent, euid, pl, why) < 0)
		return -1;
	int m = open(pl->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m < 0) {
		j->verdict = CGROUP_UNREADABLE;
		j->err = errno;
		snprintf(j->where, sizeof j->where, "/");
		return (int)j->verdict;
	}
	enum cgroup_verdict v = cgroup_judge_parent(m, pl->parent, pl->own, want, j);
	/* Root's default is made by the first run: until then it is the top that counts. */
	if (v == CGROUP_NO_PARENT && pl->made_here)
		v = cgroup_judge_parent(m, "/", pl->own, want, j);
	close(m);
	return (int)v;
}

/* Root's default: the top hands want down to it, and it is made when missing. 0 or -1. */
static int default_made(int m, const struct cgroup_place *pl, unsigned int want,
			const char **what)
{
	*what = "the top of the cgroup v2 mount";
	int top = cgroup_open_beneath(m, "/");
	if (top < 0)
		return -1;
	int r = cgroup_hand_down(top, want, what);
	int e = errno;
	close(top);
	errno = e;
	if (r < 0)
		return -1;
	*what = "mkdir";
	return mkdirat(m, pl->parent + 1, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

int cgroup_parent_open(const struct cgroup_place *pl, unsigned int want, const char **what)
{
	*what = pl->mount;
	int m = open(pl->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m < 0)
		return -1;
	int fd = -1;
	if (!pl->made_here || default_made(m, pl, want, what) == 0) {
		*what = "the parent";
		fd = cgroup_open_beneath(m, pl->parent);
	}
	int e = errno;
	close(m);
	errno = e;
	return fd;
}
