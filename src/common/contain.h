/* SPDX-License-Identifier: ISC */
/*
 * contain.h - does a path resolve inside a root, on the real filesystem?
 *
 * String comparison is defeated by "..", symlinks and races. This resolves
 * the part of the path below the root component by component in the kernel
 * (openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), or with an
 * O_NOFOLLOW walk where openat2 is missing, and hands back a descriptor of
 * what it found, so that callers use that object and not the name again.
 */
#ifndef RUAS_CONTAIN_H
#define RUAS_CONTAIN_H

#include <stddef.h>

enum contain_result {
	CONTAIN_OK = 0,
	CONTAIN_OUTSIDE,   /* not under the root, or escapes it (.., symlink) */
	CONTAIN_ABSLINK,   /* an absolute symlink on the way */
	CONTAIN_MISSING,   /* a component does not exist or is not a directory */
	CONTAIN_ERROR,     /* anything else; errno-style detail in why */
};

/*
 * Resolves absolute `path` beneath absolute `root`. On CONTAIN_OK, *fd (when
 * not NULL) is an O_PATH|O_CLOEXEC descriptor of it. Otherwise `why` names
 * the offending component. force_walk selects the fallback (for tests).
 */
enum contain_result contain_resolve(const char *root, const char *path, int *fd,
				    char *why, size_t whylen, int force_walk);
/*
 * The part of path below root, lexically (leading slashes dropped; "" for
 * root itself), or NULL when path is not under root: the first test of both.
 */
const char *contain_below(const char *root, const char *path);
/*
 * The same beneath a root already open as rootfd (a directory, left open),
 * whose name `root` serves for the test that path is under it and for the
 * messages: for a chain of roots, each entered through the one before, so
 * that no name is looked up twice and a swap of one between the checks
 * cannot lead elsewhere.
 */
enum contain_result contain_resolve_at(int rootfd, const char *root, const char *path, int *fd,
				       char *why, size_t whylen, int force_walk);

#endif
