/* SPDX-License-Identifier: ISC */
/*
 * probe_cache.h - a target's escalation probes, kept between checks.
 *
 * The probes the helper runs as the target (sudo -n true and sudo -n -l,
 * plain and on a pty; passwd -S; doas -n true) each start a program that
 * does sudo's or PAM's work again, and cost a check of 8 users several
 * times the single sudo call per user that the helper itself takes. What
 * they say is decided by files that change when an administrator changes
 * them: sudo's, doas's and PAM's rules, the user database and shadow, the
 * programs themselves, and the target's uid and groups. So their results
 * are kept, beside the walk of the trees (src/lib/host/cache.h: in a
 * directory only the supervisor can write), under a key of exactly those:
 * the identity (device, inode, mode, owner, size, mtime, ctime) of each
 * file and of every entry of sudoers.d, pam.d and security, the host's
 * name, the supervisor, the target's uid, gid and groups. A check gives
 * them back instead of running the probes while the key holds and they are
 * younger than host_check_interval; `--fresh` (PREFLIGHT_FRESH_HOST) runs
 * them again. Never kept: results of a probe that did not exit on its own
 * (a signal, a failure to start), and any when nsswitch.conf takes sudoers
 * from anywhere but files (LDAP, sssd: no file's state names those).
 * Everything else of a check (the scans, the anchors, the groups the login
 * session really has, the trees) is judged anew each time.
 */
#ifndef RUAS_CHECK_PROBE_CACHE_H
#define RUAS_CHECK_PROBE_CACHE_H

#include "buf.h"
#include "helper_report.h"

/*
 * The part of every target's key that is the host's (the files, the
 * supervisor, the host's name), once per check, into *k: 0, or -1 when no
 * probe is to be kept (sudoers from elsewhere than files, or out of memory).
 */
int probe_cache_host_key(struct buf *k);
/* user's key, host's part and its own, into *k: 0, or -1 when its probes are not to be kept. */
int probe_cache_key(const struct buf *host, const char *user, struct buf *k);

/*
 * The probes kept for key, younger than interval seconds, into hr's
 * escalation, passwd and doas fields (the rest untouched): 1, or 0 when
 * none fits (hr untouched).
 */
int probe_cache_load(const struct buf *key, const char *user, unsigned int interval,
		     struct helper_report *hr);

/* The probe results load put in kept, moved into hr (the helper ran no probe); kept's strings are hr's now. */
void probe_cache_give(struct helper_report *hr, struct helper_report *kept);

/* Keeps hr's probe results under key when every probe ran and exited on its own. */
void probe_cache_store(const struct buf *key, const char *user, const struct helper_report *hr);

#endif
