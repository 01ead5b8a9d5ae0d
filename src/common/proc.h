/* SPDX-License-Identifier: ISC */
/* proc.h - facts about processes from /proc. */
#ifndef RUAS_PROC_H
#define RUAS_PROC_H

#include <signal.h>
#include <sys/types.h>

/*
 * Field 22 of /proc/PID/stat (start time in clock ticks since boot); with
 * the pid it names one process for good, even after the pid is recycled.
 * 0 when it cannot be read.
 */
unsigned long long process_start_time(pid_t pid);

/*
 * Out of descriptors is this process's limit or the system's, not what the
 * failing call was about: for errnum EMFILE, " (this process has as many
 * descriptors open as its limit, RLIMIT_NOFILE N, allows: ...)"; for
 * ENFILE, the system's table (fs.file-max); for any other errno "". In buf
 * (256 bytes is room), which it returns; so that nobody looks for the
 * cause in sudo, PAM or the target's files.
 */
const char *descriptor_limit_words(int errnum, char *buf, size_t size);

/*
 * Says on stderr why F_DUPFD from 10 on failed with errnum ("PREFIX: ..."):
 * EINVAL there means RLIMIT_NOFILE is 10 or less, so no descriptor is free
 * from 10 on, which is running out of descriptors as EMFILE is.
 */
void say_dup_high_failed(const char *prefix, int errnum);

/* Field 4 of /proc/PID/stat, the parent's pid; -1 when it cannot be read. */
pid_t process_parent(pid_t pid);

/*
 * A pidfd for pid (pidfd_open(2); the kernel sets O_CLOEXEC), or -1 with
 * errno where the kernel or valgrind has none: callers then poll waitid.
 * It names the process for good, so a recycled pid cannot be mistaken
 * for it.
 */
int process_pidfd(pid_t pid);

/*
 * A pidfd of the supervisor, pid, which started at `start` (field 22) and
 * made the socketpair whose end is sock. From sock's peer where the kernel
 * names it (SO_PEERPIDFD, Linux 6.5): no /proc option hides it and no
 * recycled pid is mistaken for it. Else pidfd_open(pid), taken only when
 * /proc/PID/stat says the same start. -1 with errno: ESRCH (gone), EACCES
 * (alive for all this helper can tell, but /proc hides it: hidepid), or
 * the kernel's.
 */
int process_pidfd_of_peer(int sock, pid_t pid, unsigned long long start);

/*
 * Whether our child pid has ended, without reaping it (WNOWAIT: the wait
 * stays its owner's): 1 ended, 0 running, -1 with errno (ECHILD: not our
 * child, or already reaped).
 */
int child_has_ended(pid_t pid);

/*
 * sig to the process group that leader leads, or, until it has one (before
 * its setsid()) or when it has left it, to leader alone: a signal for the
 * agent is never dropped with ESRCH.
 */
void kill_group_else_leader(pid_t leader, int sig);

/* "SIGTERM" for 15, or the number for a signal without a name, in buf (the audit's records). */
const char *signal_name(int sig, char *buf, size_t bufsz);

/* CLOCK_MONOTONIC in milliseconds, for deadlines. */
long long monotonic_ms(void);

/*
 * How deep this process's PID namespace lies below the one of the /proc it
 * sees (the NSpid line of /proc/self/status has one more entry): 0 in the
 * same, -1 when /proc does not say.
 */
int pid_ns_level(void);
/*
 * The pid, in the PID namespace of this process's /proc, of the
 * descendant of root (root included) whose pid at that depth below it
 * (pid_ns_level()'s) is pid: found through /proc/P/task/T/children,
 * at most 4096 processes looked at (pid itself at depth 0). 0 when there
 * is none: one that has ended already cannot be found.
 */
pid_t pid_at_level(pid_t root, int level, pid_t pid);

/*
 * Blocks what a parent that relays signals to its child handles itself:
 * SIGCHLD, and SIGTERM, SIGHUP, SIGINT and SIGQUIT, which it passes on.
 * Blocked before the fork or spawn, so none is lost before the wait begins.
 * *set gets those signals, *old the previous mask. 0, or -1 with errno.
 */
int block_relayed_signals(sigset_t *set, sigset_t *old);

/*
 * The signal by which the library tells ruas-session (root: only root may
 * send it) that its helper did not answer and the run must end at once: a
 * real-time one, so that SIGUSR1 and SIGUSR2 sent to the pid the supervisor
 * holds reach the agent as any other.
 */
#define SESSION_KILL_SIGNAL (SIGRTMIN + 2)

#endif
