/* SPDX-License-Identifier: ISC */
/*
 * judge.c - host_may() and host_entry_judge() (trees.h): the kernel's
 * permission check (fs/posix_acl.c, posix_acl_permission(), and
 * generic_permission() without an ACL), for a user who is not root and
 * holds no capability, as every target is.
 */
#include "host/trees.h"

#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "path_follow.h"

static int in_groups(gid_t g, const gid_t *groups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (groups[i] == g)
			return 1;
	return 0;
}

int host_may(uid_t owner, gid_t group, unsigned int mode, const struct host_ace *acl,
	     size_t nacl, uid_t uid, const gid_t *groups, size_t ngroups, unsigned int want)
{
	/* The owner class: the mode's owner bits (an ACL's USER_OBJ is those). */
	if (uid == owner)
		return ((mode >> 6) & want) == want;
	if (!acl || !nacl) {
		if (in_groups(group, groups, ngroups))
			return ((mode >> 3) & want) == want;
		return (mode & want) == want;
	}
	/* With an ACL, named entries and the owning group are limited by the mask. */
	unsigned int mask = 7;
	for (size_t i = 0; i < nacl; i++)
		if (acl[i].tag == HOST_ACL_MASK)
			mask = acl[i].perm & 7u;
	for (size_t i = 0; i < nacl; i++)
		if (acl[i].tag == HOST_ACL_USER && acl[i].id == (unsigned int)uid)
			return ((acl[i].perm & mask) & want) == want;
	int found = 0;
	for (size_t i = 0; i < nacl; i++) {
		int match = (acl[i].tag == HOST_ACL_GROUP_OBJ && in_groups(group, groups, ngroups)) ||
			    (acl[i].tag == HOST_ACL_GROUP &&
			     in_groups((gid_t)acl[i].id, groups, ngroups));
		if (!match)
			continue;
		found = 1;
		if (((acl[i].perm & mask) & want) == want)
			return 1;
	}
	if (found)
		return 0;
	for (size_t i = 0; i < nacl; i++)
		if (acl[i].tag == HOST_ACL_OTHER)
			return (acl[i].perm & want) == want;
	return (mode & want) == want;
}

/*
 * A default ACL is the access ACL of what is created in the directory
 * (masked again by the creator's mode, which root's tools leave 0644 or
 * 0755 for files: the group class keeps only what the mask allows): does it
 * let this user write a new entry?
 */
static int default_grants(const struct host_entry *e, uid_t uid, const gid_t *groups,
			  size_t ngroups)
{
	/* A new entry's owner is its creator (root), its group the directory's own gid. */
	return e->dacl && e->ndacl &&
	       host_may(0, e->gid, 0, e->dacl, e->ndacl, uid, groups, ngroups, 2);
}

char host_entry_judge(const struct host_entry *e, uid_t uid, const gid_t *groups,
		      size_t ngroups)
{
	if (uid == e->uid)
		return 'o';
	if (e->flags & HOST_ENTRY_HIDDEN)
		return host_may(e->uid, e->gid, e->mode, e->acl, e->nacl, uid, groups, ngroups, 1)
			       ? 'x'
			       : 0;
	/* Only files and directories hold what root reads; a symlink's mode means nothing. */
	if (!S_ISREG(e->mode) && !S_ISDIR(e->mode))
		return 0;
	if (e->flags & HOST_ENTRY_RO)
		return 0;
	/*
	 * Above a tree, a sticky directory (like /var/tmp) lets a writer
	 * rename only its own entries, and the tree's root is not its own.
	 */
	if ((e->flags & HOST_ENTRY_ABOVE) && (e->mode & S_ISVTX))
		return 0;
	if (host_may(e->uid, e->gid, e->mode, e->acl, e->nacl, uid, groups, ngroups, 2))
		return 'w';
	if (S_ISDIR(e->mode) && default_grants(e, uid, groups, ngroups))
		return 'd';
	return 0;
}

static const struct host_entry *find(const struct host_trees *t, const char *path)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(t->e[mid].path, path);
		if (c == 0)
			return &t->e[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int host_entry_reachable(const struct host_trees *t, const struct host_entry *e, uid_t uid,
			 const gid_t *groups, size_t ngroups)
{
	char dir[PATH_MAX];
	/* A path too long yields none: judged as reachable, fail closed. */
	for (size_t pos = 0; path_above_next(e->path, &pos, dir);) {
		const struct host_entry *a = find(t, dir);
		if (a && S_ISDIR(a->mode) &&
		    !host_may(a->uid, a->gid, a->mode, a->acl, a->nacl, uid, groups, ngroups, 1))
			return 0;
	}
	return 1;
}
