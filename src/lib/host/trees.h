/* SPDX-License-Identifier: ISC */
/*
 * trees.h - the trees root trusts, walked once for all targets of a check.
 *
 * A list of trust anchors always misses one (issue 25 found 37 of 39), so
 * besides the table (src/common/anchors_table.c, judged by the helper as
 * each target) the library walks whole trees: /etc, /usr (with
 * /usr/local), /boot, /opt, /var/lib/dpkg, /var/spool/cron and every
 * directory that ld.so.conf names (roots.c). The walk (walk.c) runs as the
 * supervisor, on every core, and keeps only the few entries that someone
 * other than root could write or owns: the rest cannot be a target's way
 * up, whoever the target is. judge.c then asks, for each target (its uid
 * and groups), which of those it can really write: owner, group and other
 * bits, ACL entries and their mask, and a read-only mount, as the kernel
 * decides. The kept entries do not depend on the targets or the projects,
 * so cache.c can keep them for `host_check_interval` seconds.
 */
#ifndef RUAS_HOST_TREES_H
#define RUAS_HOST_TREES_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* One entry of a POSIX ACL, as the kernel stores it (acl_xattr). */
struct host_ace {
	unsigned short tag; /* HOST_ACL_* */
	unsigned short perm;
	unsigned int id;
};

enum {
	HOST_ACL_USER_OBJ = 0x01,
	HOST_ACL_USER = 0x02,
	HOST_ACL_GROUP_OBJ = 0x04,
	HOST_ACL_GROUP = 0x08,
	HOST_ACL_MASK = 0x10,
	HOST_ACL_OTHER = 0x20,
};

/* What an entry is to the walk. */
enum {
	HOST_ENTRY_RO = 1,     /* on a read-only mount: not writable, though still owned */
	HOST_ENTRY_HIDDEN = 2, /* a directory the supervisor could not list */
	HOST_ENTRY_ABOVE = 4,  /* a directory above a tree's root (not walked itself) */
	/* The table's trees only (table.h): */
	HOST_ENTRY_SKIP_SELF = 8, /* fine for the target it is named after (its own crontab) */
	HOST_ENTRY_CAPPED = 16,   /* a directory where the cap stopped the walk */
	HOST_ENTRY_UNJUDGED = 32, /* a directory not walked: an error (anchor: why) */
	HOST_ENTRY_LATE = 64,     /* a tree not walked whole in time (anchor: the seconds) */
};

struct host_entry {
	char *path;
	unsigned int mode; /* st_mode, type bits too */
	uid_t uid;
	gid_t gid;
	unsigned int flags;  /* HOST_ENTRY_* */
	unsigned int root;   /* index of its tree in host_trees.roots */
	struct host_ace *acl;  /* the access ACL, when it has one that can grant write */
	size_t nacl;
	struct host_ace *dacl; /* a directory's default ACL, when it has one */
	size_t ndacl;
	/*
	 * The table's trees only (table.h; NULL, 0 for the walk's): what the
	 * helper would have named it by: the table's id, how it relates to the
	 * anchor (AREL_*, helper_report.h), and the anchor (a symlink for a
	 * link's target and the directories above it).
	 */
	const char *id;
	int rel;
	char *anchor;
};

struct host_trees {
	char **roots; /* as the findings name them: without the test's fs_root */
	size_t nroots;
	struct host_entry *e; /* sorted by path */
	size_t n;
	unsigned long long entries; /* entries looked at */
	int incomplete;             /* stopped by the time limit or out of memory */
	unsigned int threads;
};

/*
 * The roots to walk: the fixed trees and the directories ld.so.conf (and
 * what it includes) names, each the first time, none inside another. The
 * files are read beneath fs_root (NULL: "/"); the roots are as on the host.
 * 0, or -1 when out of memory.
 */
int host_roots(const char *fs_root, char ***roots, size_t *n);

/*
 * Walks the roots beneath fs_root on up to `threads` threads (0: every
 * CPU, at most 8), for at most `seconds` (0: no limit). 0 with *out
 * filled, or -1 when out of memory.
 */
int host_trees_walk(const char *fs_root, unsigned int threads, unsigned int seconds,
		    struct host_trees *out);
void host_trees_free(struct host_trees *t);
/* Frees what one entry holds (not the entry). */
void host_entry_clear(struct host_entry *e);
/*
 * *e (zeroed first) for the object at `path` (as lstat saw it: st) when
 * someone other than root could write or own it, or may not enter it
 * (flags: HOST_ENTRY_*; HIDDEN keeps it always): 1 made, 0 not worth
 * keeping (root's, and only root may write it), -1 out of memory.
 */
int host_entry_make(const char *path, const struct stat *st, unsigned int flags,
		    struct host_entry *e);

/*
 * A kept walk's entries looked at again (lstat and ACLs, beneath fs_root):
 * what was fixed since is seen at once; an entry gone since is dropped.
 * What became writable since, and was not kept, waits for the next walk.
 * 0; 1 when the kept walk cannot stand (a directory it could not list can
 * be listed now: what is in it was never walked); -1 when out of memory.
 */
int host_trees_refresh(const char *fs_root, struct host_trees *t);

/*
 * What a user with this uid and these groups (its primary one among them)
 * may do to the entry: 'o' it owns it (and can change its mode, even on a
 * read-only mount, through the mount's source), 'w' it may write it (for a
 * directory: create, remove and rename entries), 'd' a default ACL entry
 * lets it write what is created in the directory, 'x' it may enter a
 * directory the supervisor could not list, 0 none of these.
 */
char host_entry_judge(const struct host_entry *e, uid_t uid, const gid_t *groups,
		      size_t ngroups);

/*
 * Can this user reach the entry at all: may it enter every directory above
 * it that t keeps (those others may not enter)? Entries of t only.
 */
int host_entry_reachable(const struct host_trees *t, const struct host_entry *e, uid_t uid,
			 const gid_t *groups, size_t ngroups);

/*
 * The same permission test on its own: may a user with this uid and these
 * groups have every bit of `want` (4 r, 2 w, 1 x) on an object with this
 * owner, group, mode and access ACL (NULL: none), as the kernel decides.
 */
int host_may(uid_t owner, gid_t group, unsigned int mode, const struct host_ace *acl,
	     size_t nacl, uid_t uid, const gid_t *groups, size_t ngroups, unsigned int want);

#endif
