/* SPDX-License-Identifier: ISC */
/*
 * userns.h - the user namespace that the agent's PID namespace needs on the
 * sudo backend (pidns.h), made without this helper ever being dumpable.
 *
 * An unprivileged process may write its own namespace's uid_map only while
 * it is dumpable (/proc/self is root's otherwise), and a dumpable process
 * can be ptraced, its memory read and its descriptors taken by any process
 * of its uid. The helper holds the supervisor's channel and the payload,
 * so it never is. A maker process does it instead: forked by the helper at
 * its very start (userns_prepare()), before the helper has read anything,
 * it closes every descriptor but its socket to the helper at once, so it
 * never holds the channel or any byte of the payload. Asked (userns_enter()),
 * it makes itself dumpable, makes the namespace and its maps, and the
 * helper joins it with setns() once it has checked it: a child of its own
 * user namespace, owned by its own uid, mapping exactly its uid and gid to
 * themselves, with setgroups denied. The maker then exits; unasked, it
 * exits when the helper lets it go (userns_release()) or dies.
 */
#ifndef RUAS_USERNS_H
#define RUAS_USERNS_H

#include <stddef.h>

/* Forks the maker: at the helper's start, before the channel is read. 0, or -1 with errno. */
int userns_prepare(void);
/*
 * Joins a namespace that the maker makes (pidns.h pidns_userns_fn): 0, or
 * -1 with errno and why, the caller unchanged. Once per maker; a fork of
 * the helper may ask in its place. Single-threaded callers only (setns).
 */
int userns_enter(char *why, size_t whysz);
/* The maker, unasked, exits and is reaped: before anything waits for all children. */
void userns_release(void);
/* The helper's socket to its maker, which the helper's closing of strays keeps; -1: none. */
int userns_fd(void);

#endif
