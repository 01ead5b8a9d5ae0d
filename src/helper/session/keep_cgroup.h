/* SPDX-License-Identifier: ISC */
/*
 * keep_cgroup.h - the run's cgroup, kept whatever PAM's session does.
 *
 * The library starts ruas-session inside the run's own cgroup, which
 * holds the run's limits (src/lib/spawn/limit_cgroup.h). pam_systemd, in
 * a session stack, moves its caller into a scope of logind's, out of that
 * cgroup: everything the run started from then on would escape its
 * limits. So ruas-session opens its own cgroup's directory before PAM
 * runs, and once the session is open it goes back into it, and checks
 * that it is there, before anything of the target runs.
 */
#ifndef RUAS_SESSION_KEEP_CGROUP_H
#define RUAS_SESSION_KEEP_CGROUP_H

#include <stddef.h>

struct kept_cgroup {
	int dir;	 /* the cgroup's directory, -1: none */
	char path[4096]; /* beneath the cgroup v2 mount, as /proc/self/cgroup says */
};

/* Before PAM: this process's cgroup v2, opened. 0, or -1 with why (a sentence without end). */
int keep_cgroup_open(struct kept_cgroup *k, char *why, size_t n);

/*
 * After PAM's session opened: back into k's cgroup where PAM moved this
 * process out of it (writing its cgroup.procs), then the same read again.
 * 0 when this process is in it, else -1 with why; closes k's directory
 * either way.
 */
int keep_cgroup_return(struct kept_cgroup *k, char *why, size_t n);

#endif
