/* SPDX-License-Identifier: ISC */
/*
 * verdict.h - a whole check's passing verdict, kept for `ruas run`.
 *
 * What a check finds depends on the configuration, the targets (uid and
 * groups) and the host: sudo's and PAM's rules, the user database, the
 * helpers, the trees root trusts. Those change when an administrator
 * changes them, not between two runs of an agent. So a check that passed
 * (no fatal finding) is kept, report and all, beside the walk of the trees
 * (src/lib/host/cache.h: only the supervisor can write there), and a
 * preflight that asks for it (ruas_preflight_options.reuse_verdict: `ruas
 * run` does) gets it back instead of running the probes again, while:
 *   - it is younger than host_check_interval (CLOCK_BOOTTIME, same boot);
 *   - its key is the same: the configuration file, the supervisor (and
 *     its hard RLIMIT_NOFILE and RLIMIT_FSIZE, which the targets' runs
 *     start from), each
 *     target's uid, gid and groups, the helpers and sudo, and the identity
 *     (device, inode, mode, owner, size, mtime, ctime) of the files and
 *     directories that hold sudo's, PAM's, doas's and polkit's rules, the
 *     user database, each work_dir and the lifetime files (linger, cron and
 *     at); any change, even a touch, is another key;
 *   - the trees, their kept walk looked at again, give no target anything.
 * A fatal verdict is never kept: a refusal is always judged anew.
 */
#ifndef RUAS_CHECK_VERDICT_H
#define RUAS_CHECK_VERDICT_H

#include "config/config_int.h"
#include "ruas.h"

/*
 * The kept verdict for cfg, or NULL (none fits, or out of memory: the
 * caller checks anew). Only for a configuration read from a file.
 */
ruas_report *verdict_reuse(const ruas_config *cfg);

struct buf;
/*
 * The key of a verdict for cfg, taken before the check judges (a change
 * while it runs is then another key, and the next preflight checks anew):
 * 0, or -1 when none can be kept (no file, no interval, out of memory).
 */
int verdict_key(const ruas_config *cfg, struct buf *k);
/* Keeps rep under key k when nothing in it is fatal; failures are silent (nothing kept). */
void verdict_keep(const ruas_config *cfg, const struct buf *k, const ruas_report *rep);

/* A key's line for path: what, the path, and its identity (lstat), or its errno. */
void verdict_sig(struct buf *k, const char *what, const char *path);
/* verdict_sig() of each entry of dir (not dot files), in name order. */
void verdict_sig_entries(struct buf *k, const char *dir);

#endif
