/* SPDX-License-Identifier: ISC */
/*
 * cgroup_locate.h - where cgroup v2 is and where this process is in it.
 *
 * The parsing is kept apart from the reading so that the unit tests can
 * give it any text /proc could hold (escaped mount points, hybrid hosts
 * with cgroup v1 beside a v2 hierarchy, paths with spaces).
 */
#ifndef RUAS_COMMON_CGROUP_LOCATE_H
#define RUAS_COMMON_CGROUP_LOCATE_H

#include <stddef.h>

/*
 * The mount point of the first cgroup2 file system in mountinfo (the text
 * of /proc/self/mountinfo) whose root is "/" (a bind of a subtree is not
 * the hierarchy's top), with mountinfo's octal escapes (\040 ...) undone.
 * 0, or -1 when there is none or it does not fit in n bytes.
 */
int cgroup2_mount_from(const char *mountinfo, char *out, size_t n);

/*
 * This process's cgroup v2 path (the "0::" line of /proc/self/cgroup,
 * which begins with "/"). 0, or -1 when there is no such line (cgroup v1
 * only), it does not fit, or it is not one to trust: not the last line (a
 * name with a newline), " (deleted)", or with a "." or ".." part (from
 * inside a cgroup namespace, a cgroup above its root).
 */
int cgroup2_own_from(const char *proc_cgroup, char *out, size_t n);

/* The text of /proc/self/FILE (malloc'd, NUL-terminated), or NULL with errno. */
char *cgroup_proc_text(const char *file);

/* The same, read from /proc/self: 0, or -1 with errno (ENOENT: no cgroup v2). */
int cgroup2_mount(char *out, size_t n);
int cgroup2_own(char *out, size_t n);

#endif
