/*
 * userns.h - the user namespace that the agent's PID namespace needs on the
 * sudo backend (pidns.h), made without this helper ever being dumpable.
 *
 * An unprivileged process may write its own namespace's uid_map only while
 * it is dumpable (/proc/self is root's otherwise), and a dumpable process
 * can be ptraced, its memory read and its descriptors taken by any process
 * of its uid. The helper holds the supervisor's channel and the payload,
 * so it never is: a throwaway process made for the purpose (this binary
 * again, `ruas-exec --userns-fd 3`, a fresh image that holds nothing of
 * the helper's) makes the namespace and its maps, and the helper joins
 * it with setns() once it has checked it: a child of its own user
 * namespace, owned by its own uid, mapping exactly its uid and gid to
 * themselves, with setgroups denied. The throwaway process then exits.
 */
#ifndef RUAS_USERNS_H
#define RUAS_USERNS_H

#include <stddef.h>

/*
 * Joins such a namespace (pidns.h pidns_userns_fn): 0, or -1 with errno
 * and why, the caller unchanged. Single-threaded callers only (setns).
 */
int userns_enter(char *why, size_t whysz);

/* The throwaway process's side, `--userns-fd FD`: never returns. */
_Noreturn void userns_maker(int fd);

#endif
