/* SPDX-License-Identifier: ISC */
/*
 * clone_into.h - starting a run's first process inside its own cgroup.
 *
 * posix_spawn() starts a process in the caller's cgroup, and moving it
 * afterwards leaves a window in which it has already run (sudo forks, and
 * what it forked stays behind). clone3() with CLONE_INTO_CGROUP has the
 * kernel put the child in the run's cgroup before it runs one instruction,
 * so everything the run ever starts is in it. The child then does what
 * spawn_setup() and start_target()'s file actions do for posix_spawn:
 * default dispositions (handlers by CLONE_CLEAR_SIGHAND, which leaves
 * ignored signals ignored, so each one again), an empty signal mask, a new
 * session when asked, the descriptor moves in order, every other descriptor
 * closed, and exec.
 */
#ifndef RUAS_SPAWN_CLONE_INTO_H
#define RUAS_SPAWN_CLONE_INTO_H

#include <sys/types.h>

#define CLONE_PLAN_MOVES_MAX 8

struct clone_plan {
	/* dup2(from[i], to[i]) in order; from == to keeps it open across exec. */
	int from[CLONE_PLAN_MOVES_MAX], to[CLONE_PLAN_MOVES_MAX];
	size_t nmoves;
	int null_stdin;	 /* after the moves: /dev/null read-only on 0 */
	int close_from;	 /* then every descriptor from this one up is closed */
	int new_session; /* setsid() */
};

/*
 * Starts path with argv and envp in the cgroup whose directory cgroup_fd
 * is (O_DIRECTORY; the kernel checks that the caller may move a process
 * there, as for a write to its cgroup.procs). 0 with *pid (and *pidfd,
 * close-on-exec, unless pidfd is NULL), or an errno: clone3's own (ENOSYS
 * before Linux 5.7, EACCES or EPERM for a cgroup the caller may not use,
 * EBUSY for one with controllers in subtree_control or a threaded one,
 * EOPNOTSUPP for one that is not cgroup v2), or the child's, which it
 * reports before it would exec (ENOENT, EACCES, ENOSYS without
 * close_range(), ...).
 *
 * The child is a copy of the caller (clone3 without CLONE_VM, as C cannot
 * give it a stack of its own), so its page tables are charged to the run's
 * cgroup until its exec: a very large supervisor needs a memory_max above
 * them.
 */
int clone_into_cgroup(pid_t *pid, int *pidfd, int cgroup_fd, const char *path,
		      char *const argv[], char *const envp[], const struct clone_plan *plan);

#endif
