/* SPDX-License-Identifier: ISC */
/*
 * log_file.h - the configuration's audit_log: a JSON lines file that the
 * supervisor appends to and that nobody else may change or read.
 *
 * Reached by descriptor, one component at a time from /, never through a
 * symlink (O_NOFOLLOW at every step), so that nothing can redirect it
 * between the checks and the open. Every directory on the way must belong
 * to root or to this process's user, and be writable by its group or
 * others only with the sticky bit, and the one that holds the file not
 * at all (sticky or not: others could create its name first); the file
 * must be a regular file of this
 * process's user with no permission for its group or others. Opened with
 * O_APPEND (each record one write(2), so records of concurrent runs never
 * interleave), created 0600.
 */
#ifndef RUAS_AUDIT_LOG_FILE_H
#define RUAS_AUDIT_LOG_FILE_H

#include <stddef.h>

#include "config/config_int.h"

/* What audit_log_open() returns besides a descriptor. */
#define AUDIT_LOG_REFUSED (-1) /* why says what was wrong and the fix */
#define AUDIT_LOG_MISSING (-2) /* without create: no file yet, and its directories are fine */

/*
 * Opens cfg's audit_log for appending, creating it when `create` (a spawn;
 * a check creates nothing, so that whoever runs ruas check does not come to
 * own the file): the descriptor (close-on-exec), AUDIT_LOG_MISSING, or
 * AUDIT_LOG_REFUSED with why filled. cfg without audit_log:
 * AUDIT_LOG_REFUSED with why "".
 */
int audit_log_open(const struct ruas_config *cfg, int create, char *why, size_t whysz);

/*
 * At load, before any descriptor: whether the directory that holds path
 * (absolute) is one that others may write, sticky or not. A quick early
 * refusal by name (stat); audit_log_open() judges every directory on the
 * way again, by descriptor. 0 (fine, or not there yet), or
 * AUDIT_LOG_REFUSED with why.
 */
int audit_log_holder_check(const char *path, char *why, size_t whysz);

/*
 * The record's JSON line, in one write(2). 0, or -1 with errno (ENOSPC for
 * one cut short, which is taken back: the file holds only whole records).
 */
int audit_log_write(int fd, const char *line, size_t len);

#endif
