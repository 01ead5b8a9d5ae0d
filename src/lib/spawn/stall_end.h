/*
 * stall_end.h - ending what a start left stalled before ruas's helper ran:
 * sudo or ruas-session, and what their PAM session stack started (a
 * pam_exec'd program, a module's child), which would otherwise outlive
 * them as an orphan.
 */
#ifndef RUAS_STALL_END_H
#define RUAS_STALL_END_H

#include <sys/types.h>

/*
 * Stops pid (so it starts nothing more), finds its descendants on /proc,
 * stopping each as found, then kills them all and pid with SIGKILL.
 * Returns how many descendants this process was not allowed to kill (a
 * non-root supervisor and sudo's root PAM children): those end when their
 * own work does, and the caller says so. pid itself is for the caller to
 * reap.
 */
int stall_end(pid_t pid);

#endif
