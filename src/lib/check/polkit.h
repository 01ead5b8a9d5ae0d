/* SPDX-License-Identifier: ISC */
/*
 * polkit.h - polkit rules that let the target act as root without a
 * password: pkexec, systemctl, and every D-Bus service that asks polkit
 * take a YES (or AUTH_SELF: the target's own password, which an agent that
 * knows it, or one whose password is empty, gives) as leave.
 *
 * .rules files (JavaScript; /etc/polkit-1/rules.d, /run/polkit-1/rules.d,
 * /usr/local/share/polkit-1/rules.d, /usr/share/polkit-1/rules.d) are
 * judged rule by rule, without running them: a polkit.addRule(...) whose
 * body can return polkit.Result.YES, AUTH_SELF or AUTH_SELF_KEEP is a way
 * up for the user when its subject tests name the user (subject.user ==
 * "T") or one of its groups (subject.isInGroup("G")), or name no user or
 * group at all (it lets everyone); a body that tests the subject in a way
 * this cannot read (!=, a list, a variable) is one too, as not judged is
 * not passed. Rules that name only other users and groups are not.
 * .pkla files (the local authority: /etc/polkit-1/localauthority and
 * /var/lib/polkit-1/localauthority, one directory down) are a way up when an
 * Identity matches the user or a group of it (globs as polkit reads them)
 * and a Result is yes or auth_self*. Files the supervisor cannot read are
 * not judged (a non-root supervisor cannot read Debian's rules.d, 0700
 * polkitd; ruas-setup check as root judges them).
 */
#ifndef RUAS_CHECK_POLKIT_H
#define RUAS_CHECK_POLKIT_H

#include "check/pam_stack.h"

/*
 * The ways up in polkit's files beneath fs_root (NULL: "/"), for u, added
 * to *out as pam_ways with service "polkit". 0, or -1 when out of memory.
 */
int polkit_ways_up(const char *fs_root, const struct pam_user *u, struct pam_ways *out);

#endif
