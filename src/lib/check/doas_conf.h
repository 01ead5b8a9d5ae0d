/* SPDX-License-Identifier: ISC */
/*
 * doas_conf.h - rules of /etc/doas.conf that let the target run commands
 * as another user without a password.
 *
 * The helper's `doas -n true` proves (or not) a way to root for any
 * command; a rule limited to one command (`cmd vi`) or to another user
 * (`as deploy`) it cannot see. So where doas is installed and the
 * supervisor can read doas.conf (it is often 0600 root: then root's check
 * and ruas-setup judge it), its rules are read as doas(1) reads them
 * (doas.conf(5): quotes, backslashes, comments, `:group` and numeric
 * identities), and a `permit nopass` that matches the user and lets it act
 * as another user (any, when `as` is absent) is a way up, unless a later
 * rule matching the user (the last match wins) denies it or asks for a
 * password for the same target and command. Each is named by its line.
 */
#ifndef RUAS_CHECK_DOAS_CONF_H
#define RUAS_CHECK_DOAS_CONF_H

#include "check/pam_stack.h"

/*
 * The ways in the doas.conf at path (NULL: /etc/doas.conf, and only where
 * doas is installed) for u, added to *out with service "doas"; skip_root:
 * leave out the rules to root (the probe already said doas gives root). 0,
 * or -1 when out of memory.
 */
int doas_ways_up(const char *path, const struct pam_user *u, int skip_root,
		 struct pam_ways *out);

#endif
