/* SPDX-License-Identifier: ISC */
/* people_exec.h - what ruas-exec does for person-scoped agents. */
#ifndef RUAS_PEOPLE_EXEC_H
#define RUAS_PEOPLE_EXEC_H

#include <stddef.h>

#include "buf.h"

/*
 * The private temp directory /tmp/ruas-UID/PERSON, mode 0700, owned by this
 * user, never /tmp itself. Each level is created with mkdir 0700 or, when it
 * exists, opened with O_NOFOLLOW and accepted only if it is a directory that
 * this uid owns and nobody else can enter; a wrong mode on a directory of
 * ours is fixed through the descriptor. When /tmp/ruas-UID is a symlink,
 * not a directory or another user's (the /tmp squatting attack), it is
 * never used and never a refusal for good: this run gets a parent of its
 * own, /tmp/ruas-UID.RANDOM, made 0700 by this user (mkdir fails on a name
 * that exists), with a warning naming the squatted path and the fix. 0 with
 * *out set, or -1 with the reason printed.
 */
int private_tmp(const char *person, struct buf *out);
/*
 * In the PID namespace the sudo backend's helper made: tmp, private_tmp()'s
 * /tmp/PARENT/PERSON, made alone under PARENT (tmp_cover.h). 0, or -1
 * after a complaint: the agent must not run where the other people of
 * its user would see its files.
 */
int private_tmp_cover(const char *tmp);

/* Where bubblewrap finds its options: the descriptor bwrap_argv() names. */
#define BWRAP_ARGS_FD 4
#define BWRAP_ARGS_FD_TEXT "4"

/*
 * bubblewrap's options, NUL-separated in a sealed memfd for `bwrap --args
 * FD` (its descriptor, or -1 with errno): the whole filesystem as it is,
 * with each deny path masked (an empty tmpfs over a directory, /dev/null
 * over a file), --die-with-parent and --new-session. With tmp
 * (private_tmp()'s, or NULL) and tmp_all, the directory above it
 * (/tmp/ruas-UID, which holds the private directory of every person of
 * this uid), tmp_all is masked too and only tmp bound back in: the other
 * people who share the user have theirs there, made before this run or
 * after. By descriptor, because every local user may read every
 * /proc/PID/cmdline, and these name what the person may not see.
 */
int bwrap_options(char **deny, size_t ndeny, const char *tmp_all, const char *tmp);

/*
 * argv wrapped in bubblewrap, whose options it reads from BWRAP_ARGS_FD:
 * NULL-terminated, malloc'd; its strings are argv's and static.
 */
char **bwrap_argv(char **argv);

/* "bwrap" found on PATH, or NULL. */
const char *bwrap_path(void);

#endif
