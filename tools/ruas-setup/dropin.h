/* SPDX-License-Identifier: ISC */
/*
 * dropin.h - the systemd drop-in of ruas-setup delegate: what a
 * supervisor's service needs for ruas's per-run cgroups (a delegated
 * cgroup of its own, the supervisor in a leaf of it), as text, with no
 * file system access, so that every byte of it is tested.
 */
#ifndef RUAS_SETUP_DROPIN_H
#define RUAS_SETUP_DROPIN_H

#include <stddef.h>

/* The first systemd with DelegateSubgroup= (it moves the service's processes into a leaf). */
#define DROPIN_SUBGROUP_SINCE 254

/* The drop-in's file name in UNIT.d, and the leaf the supervisor runs in. */
#define DROPIN_NAME "ruas-delegate.conf"
#define DROPIN_SUBGROUP "supervisor"

/*
 * The service unit named by `name` ("NAME.service", or NAME, to which
 * ".service" is added as systemctl does) in out: NULL, or why it is refused.
 * Delegate= is a service's (or a scope's, which systemd makes at run time),
 * so another suffix is refused; so is anything systemd would not take as a
 * unit name, and a template ("NAME@.service"), whose instances each have a
 * cgroup of their own.
 */
const char *dropin_unit(const char *name, char *out, size_t n);

/*
 * The major version in `systemctl --version`'s output ("systemd 252
 * (252.39-1~deb12u2)" first), or -1.
 */
int dropin_systemd_version(const char *text);

/*
 * The drop-in for unit under systemd `version`: Delegate= of the cpu,
 * memory and pids controllers, and DelegateSubgroup= where systemd has it.
 * malloc'd, or NULL on OOM.
 */
char *dropin_text(const char *unit, int version);

/*
 * What to do once it is installed, for stderr: reload and restart, the
 * cgroup_parent to set (as a ruas.conf line, systemd's and libconfig's
 * escapes applied; for a template's instance, how to ask systemctl), and
 * (before DROPIN_SUBGROUP_SINCE) that the supervisor must move itself into
 * the leaf. malloc'd, or NULL on OOM.
 */
char *dropin_next_steps(const char *unit, int version);

#endif
