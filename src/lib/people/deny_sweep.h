/* SPDX-License-Identifier: ISC */
/*
 * deny_sweep.h - the deny files of supervisors that died without removing
 * them (SIGKILL, a crash): each person-scoped spawn removes them.
 *
 * A spawn's directory is named for the process that made it:
 * /tmp/ruas-deny-NS.PID.START-XXXXXX, with NS the inode of its PID
 * namespace, PID its pid there and START its start time (proc.h). Another
 * process of the same uid removes a directory only when it is its own uid's
 * (not a symlink), in the same PID namespace, and no process with that pid
 * and start time is alive: a recycled pid cannot keep it, and a live
 * supervisor's directory is never touched, not even one in another PID
 * namespace that shares /tmp.
 */
#ifndef RUAS_DENY_SWEEP_H
#define RUAS_DENY_SWEEP_H

#include <stddef.h>

/* The mkdtemp template for this process's next deny directory, in buf (size n). -1 when too small. */
int deny_dir_template(char *buf, size_t n);
/* Removes the deny directories of dead supervisors of this uid: how many it removed. */
int deny_files_sweep(void);

#endif
