/* SPDX-License-Identifier: ISC */
/*
 * sealed_memfd.h - bytes handed to another program by descriptor, not by
 * argv or a path: a memfd, sealed so that what the reader gets is what was
 * written, at offset 0 for a reader that read(2)s it (bwrap --args) or
 * pread(2)s it (the inner helper's AGENT). Only processes that may open
 * this process's descriptors (its own uid, while it is dumpable) can reach
 * it; /proc/PID/cmdline, which every local user may read, never shows it.
 */
#ifndef RUAS_SEALED_MEMFD_H
#define RUAS_SEALED_MEMFD_H

#include <stddef.h>

/* A close-on-exec memfd named name holding data: its descriptor, or -1 with errno. */
int sealed_memfd(const char *name, const void *data, size_t len);

#endif
