/* SPDX-License-Identifier: ISC */
/*
 * leftovers.h - what of a run comes back to ruas-session when its helper
 * has gone. ruas-session is a child subreaper: when ruas-exec dies (killed
 * by another process of the target's uid, say) before the PID namespace's
 * init, which it forked and which stays root, that init and anything else
 * orphaned come to ruas-session rather than to PID 1. The init's death
 * signal would not reach it (the kernel checks an unprivileged parent's
 * permission), so ruas-session kills it itself: nothing root of the run
 * outlives ruas-session, whatever descriptors the target holds.
 */
#ifndef RUAS_LEFTOVERS_H
#define RUAS_LEFTOVERS_H

/* SIGKILL to every child this process still has, until it has none left to reap. */
void leftovers_end(void);

#endif
