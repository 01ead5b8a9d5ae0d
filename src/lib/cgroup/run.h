/* SPDX-License-Identifier: ISC */
/*
 * run.h - a run's own cgroup v2: made beneath a parent the supervisor may
 * write, its limits written before anything runs in it, read at the end
 * for which limit struck, killed whole and removed.
 *
 * Everything goes by descriptor from the parent's directory: no path is
 * looked up twice, and the run's processes (the target's uid) can write
 * none of it (the directory and its files are the supervisor's).
 */
#ifndef RUAS_CGROUP_RUN_H
#define RUAS_CGROUP_RUN_H

#include <stddef.h>
#include <stdint.h>

struct cgroup_limits {
	uint64_t memory_max;	  /* bytes; 0: no memory limit */
	uint64_t memory_swap_max; /* bytes of swap beside memory_max (0: none) */
	uint64_t tasks_max;	  /* pids.max; 0: no limit */
	uint64_t cpu_quota_us;	  /* cpu.max "QUOTA PERIOD"; 0: no limit */
	uint64_t cpu_period_us;
};

/*
 * The whole of a small file `name` at directory dir (a cgroup's, or
 * AT_FDCWD), at most n - 1 bytes, NUL-terminated: 0, or -1 with errno.
 */
int cgroup_file_read(int dir, const char *name, char *out, size_t n);

/* The controllers a run with these limits needs its parent to hand down. */
#define CGROUP_CTL_MEMORY 1u
#define CGROUP_CTL_PIDS 2u
#define CGROUP_CTL_CPU 4u
unsigned int cgroup_controllers_wanted(const struct cgroup_limits *l);

/*
 * The controllers in a cgroup.controllers or cgroup.subtree_control text
 * ("cpu io memory pids\n"), as CGROUP_CTL_* bits.
 */
unsigned int cgroup_controllers_parse(const char *text);

/*
 * The cgroup at dir hands down every controller in want to its children
 * (cgroup.subtree_control), adding those it does not. 0, or -1 with errno
 * and *what "cgroup.subtree_control".
 */
int cgroup_hand_down(int dir, unsigned int want, const char **what);

struct run_cgroup {
	int parent; /* the parent's directory (a dup of the caller's) */
	int dir;    /* the run's; -1 when none was made */
	char name[64];
};

/*
 * Makes parent_fd/name with these limits. Where the parent's
 * cgroup.subtree_control lacks a controller the limits need, it is added
 * first (which the kernel allows only to a parent with no process of its
 * own, or the root), and stays added: later runs need it too. 0, or -1 with
 * errno and *what naming the file or step that failed ("mkdir",
 * "cgroup.subtree_control", "memory.max", ...); no run cgroup is left made
 * on failure. A kernel without cgroup.kill (before Linux 5.14) is ENOSYS,
 * "cgroup.kill": the run could not be ended whole. A memory_max on a kernel that does not account swap
 * (no memory.swap.max) while the host has swap on is EOPNOTSUPP: the run
 * could swap without a bound.
 */
int run_cgroup_make(struct run_cgroup *rc, int parent_fd, const char *name,
		    const struct cgroup_limits *l, const char **what);

/* What the kernel counted in the run's cgroup (UINT64_MAX: not known). */
struct cgroup_counts {
	uint64_t ooms;	     /* memory.events oom: its memory.max was hit and the OOM killer ran */
	uint64_t oom_kills;  /* memory.events oom_kill: processes of it killed, by any OOM killer */
	uint64_t pids_max;   /* pids.events(.local) max: forks refused at its pids.max */
	uint64_t peak_bytes; /* memory.peak (Linux 5.19+) */
	uint64_t cpu_usec;   /* cpu.stat usage_usec */
};
void run_cgroup_counts(const struct run_cgroup *rc, struct cgroup_counts *c);

/* 1 while a process is in it (cgroup.events populated), 0 when none, -1. */
int run_cgroup_populated(const struct run_cgroup *rc);

/*
 * SIGKILL to every process in it, at once (cgroup.kill, Linux 5.14+):
 * none can escape by forking. 0, or -1 with errno.
 */
int run_cgroup_kill(const struct run_cgroup *rc);

/*
 * Waits until nothing is left in it (cgroup.events, polled for POLLPRI as
 * the kernel signals a change), at most timeout_ms (-1: no bound).
 * 0 when empty, -1 with errno (ETIMEDOUT).
 */
int run_cgroup_wait_empty(const struct run_cgroup *rc, int timeout_ms);

/* Removes the directory (once empty) and closes both descriptors; 0 or -1. */
int run_cgroup_remove(struct run_cgroup *rc);

#endif
