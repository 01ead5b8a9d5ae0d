/* SPDX-License-Identifier: ISC */
/*
 * tmp_cover.h - a person's private TMPDIR, private from the other people of
 * the same run_as_user too, in the run's own mount namespace (pidns.h).
 *
 * A person's TMPDIR is /tmp/PARENT/PERSON (PARENT: ruas-UID, or the fresh
 * ruas-UID.RANDOM of a run whose ruas-UID was squatted), 0700, the
 * target's. Mode bits cannot keep apart two people who run as one uid, so
 * the run covers /tmp/PARENT, in its own mount namespace only, with an
 * empty tmpfs (0700, the target's) and binds PERSON alone back into it:
 * the agent's tree sees its own person's directory and no other, and the
 * files stay on /tmp's own file system, as before. The same masks bwrap
 * sets (--tmpfs PARENT --bind TMPDIR TMPDIR), made without it.
 *
 * Everything is done through descriptors (fsopen, fsmount, move_mount,
 * open_tree: Linux 5.2): /tmp is root's and sticky, PARENT and PERSON are
 * opened with O_NOFOLLOW and must be directories of uid, and no path is
 * looked up again after it was checked, so a process of the target's that
 * swaps them for symlinks meanwhile (it may: they are its own) moves
 * nothing onto anything else. Run as root (ruas-session, the pam backend,
 * before it drops to the target), missing levels are made as the target
 * (setfsuid); run as the target in a user namespace of its own (ruas-exec,
 * the sudo backend), as itself.
 */
#ifndef RUAS_TMP_COVER_H
#define RUAS_TMP_COVER_H

#include <stddef.h>
#include <sys/types.h>

/*
 * In the caller's own mount namespace: 0 when /tmp/parent now shows only
 * person; 1 when it cannot be covered because /tmp/parent or person is
 * not a directory of uid (a squatter's: the caller's own checks of the
 * path say so); -1 with why when a step failed. As root, a squatter's
 * /tmp/parent is first moved aside (to parent.squatted-RANDOM, said on
 * stderr), so that the run still gets its own. Each level is made 0700.
 *
 * ephemeral: person itself is covered by a tmpfs of the run's own instead
 * (its files live as long as the run): for a run whose parent is a fresh
 * /tmp/ruas-UID.RANDOM, which every process of the uid can list.
 */
int tmp_cover(const char *parent, const char *person, uid_t uid, gid_t gid, int ephemeral,
	      char *why, size_t whysz);

#endif
