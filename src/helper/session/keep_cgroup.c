/* SPDX-License-Identifier: ISC */
/* keep_cgroup.c - see keep_cgroup.h. */
#include "keep_cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup_locate.h"

int keep_cgroup_open(struct kept_cgroup *k, char *why, size_t n)
{
	char mount[4096], full[8192];
	k->dir = -1;
	if (cgroup2_mount(mount, sizeof mount) < 0 || cgroup2_own(k->path, sizeof k->path) < 0) {
		snprintf(why, n, "cannot tell which cgroup v2 it is in (/proc/self/mountinfo, "
				 "/proc/self/cgroup)");
		return -1;
	}
	snprintf(full, sizeof full, "%s%s", strcmp(mount, "/") == 0 ? "" : mount, k->path);
	/* The library made it, root-owned or the supervisor's: no one else can swap it. */
	k->dir = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (k->dir < 0) {
		snprintf(why, n, "cannot open its cgroup %s: %s", full, strerror(errno));
		return -1;
	}
	return 0;
}

int keep_cgroup_return(struct kept_cgroup *k, char *why, size_t n)
{
	char now[4096];
	int r = -1;
	if (cgroup2_own(now, sizeof now) < 0) {
		snprintf(why, n, "cannot read its cgroup after PAM's session opened");
	} else if (strcmp(now, k->path) == 0) {
		r = 0;
	} else {
		/* Whole process, every thread: cgroup.procs, not cgroup.threads. */
		int fd = openat(k->dir, "cgroup.procs", O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
		ssize_t w = fd < 0 ? -1 : write(fd, "0", 1);
		int e = errno;
		if (fd >= 0)
			close(fd);
		if (w != 1)
			snprintf(why, n, "PAM's session moved it to cgroup %s, out of the run's %s, "
					 "and it cannot go back: %s", now, k->path, strerror(e));
		else if (cgroup2_own(now, sizeof now) < 0 || strcmp(now, k->path) != 0)
			snprintf(why, n, "PAM's session moved it out of the run's cgroup %s, and "
					 "it is not back in it", k->path);
		else
			r = 0;
	}
	close(k->dir);
	k->dir = -1;
	return r;
}
