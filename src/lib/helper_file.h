/* SPDX-License-Identifier: ISC */
/*
 * helper_file.h - may the helper that runs as the target be started at
 * all: not while other users can read it.
 *
 * The kernel makes a process non-dumpable from its exec on only when its
 * program is not readable by it (fs/exec.c, would_dump()). A helper that
 * the target can read is dumpable from sudo's exec of it until its first
 * instruction (PR_SET_DUMPABLE 0): any process of the target's uid may
 * stop it there and take its descriptors with pidfd_getfd(), the spawn
 * channel among them, say the helper's HELLO itself and be sent the
 * payload, or forge a check's report. Nothing the helper does later can
 * undo that, so the library refuses to start it: 0711, as make install
 * and the Debian package leave it, is what closes the window.
 */
#ifndef RUAS_LIB_HELPER_FILE_H
#define RUAS_LIB_HELPER_FILE_H

/*
 * 1 with *mode (its permission bits) set when path's group or other read
 * bit is set (an ACL's named entries show in the group bits, as its mask);
 * 0 when not, or when it cannot be looked at (nothing can run it then
 * either, and sudo or ruas-session says so).
 */
int helper_readable(const char *path, unsigned int *mode);

#endif
