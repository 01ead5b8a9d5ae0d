/*
 * log_file.h - the configuration's audit_log: a JSON lines file that the
 * supervisor appends to and that no target may change.
 *
 * Opened with O_APPEND (each record one write(2), so records of concurrent
 * runs never interleave), created 0600, never through a symlink, and
 * refused when a target could rewrite what it says: the file or its
 * directory owned by a target, the file writable by its group or others or
 * readable by others (the records hold arguments), the directory writable
 * by its group or others without the sticky bit.
 */
#ifndef RUAS_AUDIT_LOG_FILE_H
#define RUAS_AUDIT_LOG_FILE_H

#include <stddef.h>

#include "config/config_int.h"

/*
 * Opens cfg's audit_log for appending: the descriptor (close-on-exec), or
 * -1 with why filled ("it is a symlink; ..."): what was wrong and the fix.
 * Every run_as_user of cfg is a target here. cfg without audit_log: -1
 * with why "".
 */
int audit_log_open(const struct ruas_config *cfg, char *why, size_t whysz);

/* The record's JSON line, in one write(2). 0, or -1 with errno. */
int audit_log_write(int fd, const char *line, size_t len);

#endif
