/* SPDX-License-Identifier: ISC */
/*
 * fs_kind.h - whether a file system decides who may write by the mode bits
 * and POSIX ACLs that stat(2) and getxattr(2) show, so that the library may
 * judge a target from them instead of asking access(2) as the target.
 *
 * On NFSv4 (its own ACLs, checked by the server), FUSE without
 * default_permissions, SMB/CIFS, Ceph, AFS or 9p the mode bits do not
 * decide: there only the kernel, asked as the target, knows. So only the
 * local file systems below count, and any other is left to the helper.
 */
#ifndef RUAS_HOST_FS_KIND_H
#define RUAS_HOST_FS_KIND_H

/* 1 when the file system that holds path is one of them, 0 when not (or statfs fails). */
int host_fs_mode_bits_decide(const char *path);

#endif
