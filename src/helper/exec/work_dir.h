/* SPDX-License-Identifier: ISC */
/*
 * work_dir.h - the agent's work_dir, opened as the target, on descriptors:
 * beneath the project's work_dir (a per-spawn work_dir), through the
 * person's scope (people), or by its name. The library checked the same
 * before the spawn; this, as the target and on descriptors, is the check
 * that a swap of a directory for a symlink in between cannot get past.
 *
 * The outer helper opens it before the target's login files run, so that
 * a work_dir that cannot be entered fails before anything of the target's
 * runs. It hands on no descriptor: one opened outside the run's mount
 * namespace (lifetime = "pidns": its own /proc; people's enforce =
 * "bwrap": the masks) leads back into the outer tree, where `..` from the
 * agent's cwd walks to the host's /proc and to other people's files. The
 * inner helper, inside, opens it again by the same names, as the agent's
 * last step.
 */
#ifndef RUAS_HELPER_EXEC_WORK_DIR_H
#define RUAS_HELPER_EXEC_WORK_DIR_H

/*
 * root: "" or the project's work_dir, which a per-spawn work_dir must lie
 * beneath; scope: "" or the person's scope, which both must resolve inside.
 * Enters the work_dir (fchdir) and returns an O_PATH descriptor of it, or
 * -1 with errno set (EXDEV: not contained) after a complaint on stderr.
 */
int work_dir_open(const char *root, const char *scope, const char *work_dir);

#endif
