/* SPDX-License-Identifier: ISC */
/*
 * stall_end.h - ending what a start left stalled before ruas's helper said
 * HELLO: sudo or ruas-session, and what ran beneath them (what their PAM
 * session stack started, a pam_exec'd program or a module's child; or the
 * target's own ruas-exec, which a process of the target's may have
 * stopped), which would otherwise outlive them as orphans.
 */
#ifndef RUAS_STALL_END_H
#define RUAS_STALL_END_H

#include <sys/types.h>

struct stall {
	int denied;      /* descendants this process was not allowed to kill */
	int target_ran;  /* one of them ran as the target: the helper had started */
	int unseen;      /* /proc could not be read (or the walk was cut short) */
	int kept;        /* pid itself could not be killed: it is not to be waited for */
};

/*
 * Stops pid (so it starts nothing more), finds its descendants on /proc,
 * holding each by a pidfd and stopping it as soon as it is found, then
 * kills them all and pid with SIGKILL. A pidfd never signals a recycled
 * pid. pid itself is for the caller to reap (unless st->kept).
 */
void stall_end(pid_t pid, uid_t target, struct stall *st);

#endif
