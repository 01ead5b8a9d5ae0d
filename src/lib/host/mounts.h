/* SPDX-License-Identifier: ISC */
/*
 * mounts.h - which of the walk's entries are on a read-only mount, from
 * /proc/self/mountinfo: nobody writes there, though an owner still owns
 * what is there (and writes it through the mount's source).
 */
#ifndef RUAS_HOST_MOUNTS_H
#define RUAS_HOST_MOUNTS_H

#include <stddef.h>

#include "host/trees.h"

/*
 * Sets HOST_ENTRY_RO on each entry (paths as this process sees them) whose
 * mount, the last one mounted on its longest mount point, is read-only in
 * its own or its superblock's options. 0, or -1 when out of memory; an
 * unreadable mountinfo marks nothing (so nothing passes for read-only).
 */
int host_mounts_mark(struct host_entry *e, size_t n);

#endif
