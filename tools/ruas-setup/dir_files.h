/* SPDX-License-Identifier: ISC */
/*
 * dir_files.h - what ruas-setup's atomic writers (install, delegate) do
 * alike in the directory they write into, by its descriptor.
 */
#ifndef RUAS_SETUP_DIR_FILES_H
#define RUAS_SETUP_DIR_FILES_H

#include <stddef.h>

/* Removes the entries of directory dfd whose names start with prefix: an interrupted run's. */
void dir_remove_prefixed(int dfd, const char *prefix);

/* All of s to fd, EINTR retried: 0, or -1 with errno (EIO for a write of nothing). */
int fd_write_all(int fd, const char *s, size_t n);

#endif
