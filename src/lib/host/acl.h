/* SPDX-License-Identifier: ISC */
/* acl.h - a POSIX ACL of a path, as the kernel stores it (the walk's, and its refresh's). */
#ifndef RUAS_HOST_ACL_H
#define RUAS_HOST_ACL_H

#include <stddef.h>

#include "host/trees.h"

/*
 * The attribute ("system.posix_acl_access" or "system.posix_acl_default")
 * of path itself (not where a symlink leads), parsed into *out (malloc'd;
 * NULL with *n 0 when it has none): 0, or -1 when out of memory.
 */
int host_acl_read(const char *path, const char *attr, struct host_ace **out, size_t *n);

#endif
