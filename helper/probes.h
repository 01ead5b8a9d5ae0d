/* probes.h - what ruas-exec checks as the target user in check mode. */
#ifndef RUAS_PROBES_H
#define RUAS_PROBES_H

#include "buf.h"
#include "wire.h"

/*
 * Runs `SUDO -n true` and `SUDO -n -l` at the same time, as the target.
 * The rcs are exit codes, 128+signal, or -errno when sudo did not start.
 * *list gets the combined output of the second.
 */
void probe_escalation(const char *sudo, int *true_rc, int *list_rc,
		      struct buf *list);

/* Runs argv with output captured into out; its exit code, 128+signal or -errno. */
int probe_run(const char *path, char *const argv[], struct buf *out);

/*
 * Can the target enter dir (search on every ancestor, read and search on
 * dir)? Fills d->state, and for a failure the component at fault.
 */
void probe_dir_access(const char *dir, struct dir_result *d);

#endif
