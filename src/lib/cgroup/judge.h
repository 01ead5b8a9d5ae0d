/* SPDX-License-Identifier: ISC */
/*
 * judge.h - whether runs with cgroup limits can be made beneath a parent,
 * and if not, the one thing that is wrong (the startup check's "limits"
 * finding names it and its fix).
 *
 * Judged from the files the kernel keeps in each cgroup directory, read by
 * descriptor from the hierarchy's mount: cgroup.type, cgroup.controllers,
 * cgroup.subtree_control and cgroup.procs; and the access the caller has,
 * as the kernel grants it (a run is made with mkdir in the parent, its
 * first process moved there by clone3, which needs cgroup.procs of the
 * common ancestor of the caller's cgroup and the run's to be writable).
 */
#ifndef RUAS_CGROUP_JUDGE_H
#define RUAS_CGROUP_JUDGE_H

enum cgroup_verdict {
	CGROUP_USABLE = 0,
	CGROUP_NO_PARENT,	 /* the parent is not there (or not a directory) */
	CGROUP_NOT_DOMAIN,	 /* threaded: no memory controller, no domain children */
	CGROUP_CANNOT_MKDIR,	 /* the caller cannot make a directory in it */
	CGROUP_CANNOT_MOVE,	 /* cgroup.procs of the common ancestor is not the caller's to write */
	CGROUP_NOT_AVAILABLE,	 /* a controller is not in its cgroup.controllers */
	CGROUP_INTERNAL_PROCESS, /* not handed down, and processes in it keep it from being */
	CGROUP_CANNOT_HAND_DOWN, /* not handed down, and its subtree_control is not the caller's */
	CGROUP_UNREADABLE,	 /* a file of it could not be read (errno) */
	CGROUP_OPEN_TO_OTHERS,	 /* it, its cgroup.procs or subtree_control: others may write */
};

struct cgroup_judgement {
	enum cgroup_verdict verdict;
	unsigned int controllers; /* CGROUP_CTL_* the verdict is about (the missing ones) */
	char where[4096];	  /* the cgroup (path beneath the mount) the verdict is about */
	int err;		  /* errno for CGROUP_UNREADABLE, CGROUP_NO_PARENT */
	/* CGROUP_OPEN_TO_OTHERS: the file ("" the directory), its owner and mode. */
	char file[32];
	unsigned long owner;
	unsigned int mode;
};

/*
 * mount_fd: the cgroup2 mount's directory; parent and own: paths beneath
 * it ("/system.slice/bridge.service/runs", the caller's own from
 * /proc/self/cgroup); want: CGROUP_CTL_* bits. Fills *j; returns its verdict.
 */
enum cgroup_verdict cgroup_judge_parent(int mount_fd, const char *parent, const char *own,
					unsigned int want, struct cgroup_judgement *j);

/*
 * path (beneath the mount, "/" its top) as a directory descriptor, never
 * leaving the mount: no "..", no symbolic link, no other mount crossed.
 * -1 with errno.
 */
int cgroup_open_beneath(int mount_fd, const char *path);

#endif
