/* SPDX-License-Identifier: ISC */
/*
 * trusted_tree.h - the trees root and the system trust, where no grant to
 * a target and no agent's work_dir may reach: their programs, libraries,
 * configuration, boot files, package database, crontabs, root's home,
 * logs, devices and runtime state. A work_dir is refused when it is one
 * of them, lies inside one, or lies above one (the target who may write a
 * parent can rename the tree away and put its own in its place, and a
 * recursive grant on the parent is a grant on the tree). For a grant
 * (ruas-setup acl) the holders count too: /home, /tmp, /var/tmp, /srv,
 * /mnt and /media hold work_dirs and other users' files, so they
 * themselves and what lies above them are refused, not what lies inside.
 */
#ifndef RUAS_TRUSTED_TREE_H
#define RUAS_TRUSTED_TREE_H

#include <stddef.h>

/*
 * The trusted tree that path (absolute, normalized: no ".", "..", or empty
 * component) conflicts with, or NULL; *how says how: "is", "lies inside"
 * or "lies above". holders_too: the holders count as well (a grant).
 */
const char *trusted_tree_conflict(const char *path, int holders_too, const char **how);

/*
 * path made absolute-normal without touching the file system: empty and
 * "." components dropped, ".." taking the one before it (never above /).
 * In out (size n); -1 when path is not absolute or does not fit.
 */
int path_normalize(const char *path, char *out, size_t n);

#endif
