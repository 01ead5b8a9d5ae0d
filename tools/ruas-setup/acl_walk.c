/* SPDX-License-Identifier: ISC */
/*
 * acl_walk.c - the ACL walk of ruas-setup acl; see acl_walk.h.
 *
 * The tree belongs to the user being granted, who may be renaming,
 * exchanging (renameat2 RENAME_EXCHANGE) and symlinking its entries while
 * this runs as root. So no path below the root is ever resolved twice:
 *   - the root is reached one component at a time with O_NOFOLLOW, each
 *     component looked up in the descriptor of the one before;
 *   - each child is opened with openat() in its parent's descriptor with
 *     O_NOFOLLOW: a name that became a symlink since readdir() fails with
 *     ELOOP and is skipped. Symlinks, FIFOs, sockets and devices are never
 *     opened (O_NONBLOCK and O_NOCTTY cover a name swapped for one since);
 *   - the type, filesystem and link count are taken from fstat() of the
 *     open descriptor, never from the name;
 *   - the access ACL is read and written on that descriptor (acl_get_fd,
 *     acl_set_fd). libacl has no descriptor call for the default ACL, so it
 *     goes through /proc/self/fd/N: that is a magic link, which the kernel
 *     resolves to the very file the descriptor has open, not by looking up
 *     a name again, so no rename can redirect it. /proc is checked to be
 *     procfs, and the magic link to reach the descriptor's inode.
 * Memory is one descriptor and one DIR per level, at most max_depth levels.
 */
#include "acl_walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <acl/libacl.h> /* acl_cmp, acl_entries: Linux extensions */
#include <pwd.h>
#include <sys/acl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "escape.h"

struct walk {
	uid_t uid;
	uid_t root_owner; /* of work_dir itself: its files are the operator's to grant */
	dev_t dev;
	uint64_t mnt;     /* mount id of work_dir: a bind mount has the same st_dev */
	const char *label; /* "work_dir", "home": for messages */
	unsigned int max_depth;
	FILE *err;
	struct acl_tree_stats *st;
	char *path; /* for messages only: never opened */
	size_t cap;
	int failed;
};

static void say(struct walk *w, size_t plen, const char *what, int e)
{
	char shown[1024];
	w->path[plen] = '\0';
	fprintf(w->err, "ruas-setup: %s: %s%s%s\n", escape_name(w->path, shown, sizeof shown),
		what, e ? ": " : "", e ? strerror(e) : "");
}

static void fail(struct walk *w, size_t plen, const char *what, int e)
{
	say(w, plen, what, e);
	w->failed = 1;
}

static int openat_retry(int dirfd, const char *name, int flags)
{
	int fd;
	do
		fd = openat(dirfd, name, flags);
	while (fd < 0 && errno == EINTR);
	return fd;
}

/* The ACL_USER entry of uid in *a, created when missing, set to exactly rw or rwx. */
static int set_user(acl_t *a, uid_t uid, int exec)
{
	acl_entry_t e;
	int r, found = 0;
	for (r = acl_get_entry(*a, ACL_FIRST_ENTRY, &e); r == 1;
	     r = acl_get_entry(*a, ACL_NEXT_ENTRY, &e)) {
		acl_tag_t tag;
		if (acl_get_tag_type(e, &tag) < 0)
			return -1;
		if (tag != ACL_USER)
			continue;
		uid_t *q = acl_get_qualifier(e);
		if (!q)
			return -1;
		found = *q == uid;
		acl_free(q);
		if (found)
			break; /* e is uid's entry */
	}
	if (r < 0)
		return -1;
	if (!found && (acl_create_entry(a, &e) < 0 || acl_set_tag_type(e, ACL_USER) < 0 ||
		       acl_set_qualifier(e, &uid) < 0))
		return -1;
	acl_permset_t ps;
	if (acl_get_permset(e, &ps) < 0 || acl_clear_perms(ps) < 0 ||
	    acl_add_perm(ps, ACL_READ | ACL_WRITE) < 0 ||
	    (exec && acl_add_perm(ps, ACL_EXECUTE) < 0) || acl_set_permset(e, ps) < 0)
		return -1;
	return 0;
}

/* A default ACL that does not exist yet starts from the access ACL's owner,
 * group and other entries, as setfacl's does. */
static int copy_base(acl_t *dst, acl_t src)
{
	acl_entry_t e, n;
	int r;
	for (r = acl_get_entry(src, ACL_FIRST_ENTRY, &e); r == 1;
	     r = acl_get_entry(src, ACL_NEXT_ENTRY, &e)) {
		acl_tag_t tag;
		if (acl_get_tag_type(e, &tag) < 0)
			return -1;
		if ((tag == ACL_USER_OBJ || tag == ACL_GROUP_OBJ || tag == ACL_OTHER) &&
		    (acl_create_entry(dst, &n) < 0 || acl_copy_entry(n, e) < 0))
			return -1;
	}
	return r;
}

/* want = have with uid's entry set and the mask recomputed; 1 when they differ. */
static int merged(acl_t have, acl_t *want, uid_t uid, int exec)
{
	*want = acl_dup(have);
	if (!*want)
		return -1;
	if (set_user(want, uid, exec) < 0 || acl_calc_mask(want) < 0 || acl_valid(*want) < 0)
		return -1;
	return acl_cmp(have, *want);
}

static int set_fd_retry(int fd, acl_t a)
{
	int r;
	do
		r = acl_set_fd(fd, a);
	while (r < 0 && errno == EINTR);
	return r;
}

static int set_default_retry(const char *magic, acl_t a)
{
	int r;
	do
		r = acl_set_file(magic, ACL_TYPE_DEFAULT, a);
	while (r < 0 && errno == EINTR);
	return r;
}

/* The default ACL of the open directory fd (see the top of this file). */
static int grant_default(struct walk *w, size_t plen, int fd, const struct stat *sb,
			 acl_t access)
{
	char magic[64];
	struct stat ms;
	acl_t have = NULL, want = NULL;
	int r = -1, d;
	snprintf(magic, sizeof magic, "/proc/self/fd/%d", fd);
	if (stat(magic, &ms) < 0 || ms.st_dev != sb->st_dev || ms.st_ino != sb->st_ino) {
		fail(w, plen, "/proc/self/fd does not lead to the open directory; is /proc mounted?",
		     errno);
		return -1;
	}
	have = acl_get_file(magic, ACL_TYPE_DEFAULT);
	if (!have) {
		fail(w, plen, "cannot read the default ACL", errno);
		goto out;
	}
	if (acl_entries(have) == 0 && copy_base(&have, access) < 0) {
		fail(w, plen, "cannot build the default ACL", errno);
		goto out;
	}
	d = merged(have, &want, w->uid, 1);
	if (d < 0) {
		fail(w, plen, "cannot build the default ACL", errno);
		goto out;
	}
	if (d && set_default_retry(magic, want) < 0) {
		fail(w, plen, "cannot set the default ACL", errno);
		goto out;
	}
	r = d;
out:
	acl_free(have);
	acl_free(want);
	return r;
}

/* Grants uid on the open file fd; 0, or -1 after a message. */
static int grant(struct walk *w, size_t plen, int fd, const struct stat *sb)
{
	/*
	 * The user's own: its owner bits are what it gets (a named entry for
	 * the owner is never consulted), and what it made through the default
	 * ACL stays as it made it, so a run after the agent wrote files
	 * changes, and reports, nothing.
	 */
	if (sb->st_uid == w->uid) {
		w->st->granted++;
		return 0;
	}
	int dir = S_ISDIR(sb->st_mode);
	int exec = dir || (sb->st_mode & (S_IXUSR | S_IXGRP | S_IXOTH));
	acl_t have = acl_get_fd(fd), want = NULL;
	int r = -1, d, dd = 0;
	if (!have) {
		fail(w, plen, "cannot read the ACL", errno);
		return -1;
	}
	d = merged(have, &want, w->uid, exec);
	if (d < 0) {
		fail(w, plen, "cannot build the ACL", errno);
		goto out;
	}
	if (d && set_fd_retry(fd, want) < 0) {
		fail(w, plen, errno == EOPNOTSUPP ? "cannot set the ACL (does the filesystem support "
						    "POSIX ACLs? mount it with acl)"
						  : "cannot set the ACL",
		     errno);
		goto out;
	}
	if (dir && (dd = grant_default(w, plen, fd, sb, have)) < 0)
		goto out;
	w->st->granted++;
	if (d || dd)
		w->st->changed++;
	r = 0;
out:
	acl_free(have);
	acl_free(want);
	return r;
}

/*
 * The mount id of the open fd: statx(STATX_MNT_ID) on the descriptor, or
 * the mnt_id line of /proc/self/fdinfo/N where statx does not give it.
 * A bind mount of the same filesystem has the root's st_dev but not its
 * mount id. 0, or -1 with errno.
 */
static int mount_id(int fd, uint64_t *id)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx) == 0 &&
	    (sx.stx_mask & STATX_MNT_ID)) {
		*id = sx.stx_mnt_id;
		return 0;
	}
	char name[64], line[256];
	snprintf(name, sizeof name, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(name, "re");
	if (!f)
		return -1;
	int found = 0;
	while (!found && fgets(line, sizeof line, f)) {
		static const char key[] = "mnt_id:";
		if (strncmp(line, key, sizeof key - 1) != 0)
			continue;
		char *end;
		errno = 0;
		unsigned long long v = strtoull(line + sizeof key - 1, &end, 10);
		if (errno == 0 && end != line + sizeof key - 1 && (*end == '\n' || *end == '\0')) {
			*id = v;
			found = 1;
		}
	}
	fclose(f);
	if (!found)
		errno = ENOENT;
	return found ? 0 : -1;
}

/*
 * An inode of a third user: the target may have renamed it in from a
 * directory it can write (another user's 0600 file from a shared
 * group-writable one); granting it would hand the target that user's file.
 */
static void foreign(struct walk *w, size_t plen, uid_t owner)
{
	struct passwd pw, *res = NULL;
	char mem[4096], what[512];
	if (getpwuid_r(owner, &pw, mem, sizeof mem, &res) != 0 || !res)
		snprintf(what, sizeof what, "not granted: owned by uid %lu, neither the target "
			 "nor the owner of %s", (unsigned long)owner, w->label);
	else
		snprintf(what, sizeof what, "not granted: owned by %.256s (uid %lu), neither "
			 "the target nor the owner of %s", pw.pw_name, (unsigned long)owner,
			 w->label);
	say(w, plen, what, 0);
	w->st->foreign++;
}

/* Appends "/name" to the message path; returns the new length. */
static size_t push(struct walk *w, size_t plen, const char *name)
{
	size_t n = strlen(name);
	if (plen + 1 + n + 1 > w->cap) /* cannot happen: cap holds max_depth names */
		return plen;
	w->path[plen] = '/';
	memcpy(w->path + plen + 1, name, n + 1);
	return plen + 1 + n;
}

static void walk_dir(struct walk *w, int fd, size_t plen, unsigned int depth);

/*
 * One entry of the open directory dfd, at level depth (the root's children
 * are 1). visit() and walk_dir() recurse once per level, at most max_depth
 * levels: the stack and the open descriptors stay bounded.
 */
static void visit(struct walk *w, int dfd, /* NOLINT(misc-no-recursion) */
		  const char *name, unsigned char type, size_t plen, unsigned int depth)
{
	size_t clen = push(w, plen, name);
	int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
	struct stat sb;
	if (type == DT_UNKNOWN) { /* the filesystem does not say: ask, without following */
		if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT)
				w->st->skipped++;
			else
				fail(w, clen, "cannot stat", errno);
			return;
		}
		type = S_ISDIR(sb.st_mode) ? DT_DIR : S_ISREG(sb.st_mode) ? DT_REG : DT_LNK;
	}
	if (type == DT_DIR) {
		flags |= O_DIRECTORY;
	} else if (type != DT_REG) { /* symlinks, FIFOs, sockets, devices: never opened */
		w->st->skipped++;
		return;
	}
	int fd = openat_retry(dfd, name, flags);
	if (fd < 0) {
		/* Gone, or a symlink (ELOOP) or a file (ENOTDIR) since readdir. */
		if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR)
			w->st->skipped++;
		else
			fail(w, clen, "cannot open", errno);
		return;
	}
	uint64_t mnt = 0;
	if (fstat(fd, &sb) < 0) {
		fail(w, clen, "cannot stat", errno);
	} else if (sb.st_dev != w->dev) {
		say(w, clen, "is on another filesystem (a mount point); not entered", 0);
		w->st->other_fs++;
	} else if (mount_id(fd, &mnt) < 0) {
		fail(w, clen, "cannot read the mount id", errno);
	} else if (mnt != w->mnt) {
		say(w, clen, "is another mount (a bind mount of the same filesystem); not entered",
		    0);
		w->st->other_fs++;
	} else if (sb.st_uid != w->uid && sb.st_uid != w->root_owner) {
		foreign(w, clen, sb.st_uid);
	} else if (S_ISDIR(sb.st_mode)) {
		if (depth > w->max_depth) {
			char what[128];
			snprintf(what, sizeof what,
				 "more than %u levels below work_dir; not granted", w->max_depth);
			fail(w, clen, what, 0);
		} else if (grant(w, clen, fd, &sb) == 0) {
			walk_dir(w, fd, clen, depth);
			return; /* walk_dir closed fd */
		}
	} else if (!S_ISREG(sb.st_mode)) {
		w->st->skipped++; /* swapped for a FIFO since readdir: O_NONBLOCK, not blocked */
	} else if (sb.st_nlink > 1 && sb.st_uid != w->uid) {
		/* A hard link to a file elsewhere (another owner's): the grant
		 * would reach every name of it. fs.protected_hardlinks stops the
		 * user from making one, but it can be off. */
		say(w, clen, "has other hard links and another owner; not touched", 0);
		w->st->linked++;
	} else {
		(void)grant(w, clen, fd, &sb);
	}
	close(fd);
}

/* Walks the open, granted directory fd at level depth; closes fd. */
static void walk_dir(struct walk *w, int fd, /* NOLINT(misc-no-recursion): see visit() */
		     size_t plen, unsigned int depth)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		fail(w, plen, "cannot read the directory", errno);
		close(fd);
		return;
	}
	for (;;) {
		errno = 0;
		const struct dirent *e = readdir(d);
		if (!e) {
			if (errno)
				fail(w, plen, "cannot read the directory", errno);
			break;
		}
		const char *n = e->d_name;
		if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
			continue;
		visit(w, dirfd(d), n, e->d_type, plen, depth + 1);
	}
	closedir(d);
}

/* Says why component comp (looked up in dfd) could not be opened as a directory. */
static void root_problem(struct walk *w, int dfd, const char *comp, int last, int e)
{
	struct stat ls;
	char shown[1024];
	const char *p = escape_name(w->path, shown, sizeof shown);
	if ((e == ELOOP || e == ENOTDIR) && fstatat(dfd, comp, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(ls.st_mode)) {
		if (last) {
			fprintf(w->err, "ruas-setup: %s %s is a symlink; refusing: give the "
					"directory itself, after checking that nobody but root can "
					"change the link\n", w->label, p);
		} else {
			char cshown[512];
			fprintf(w->err, "ruas-setup: %s %s: component \"%s\" is a symlink; "
					"refusing: give the path without symlinks (realpath)\n",
				w->label, p, escape_name(comp, cshown, sizeof cshown));
		}
	} else if (e == ENOTDIR) {
		fprintf(w->err, "ruas-setup: %s %s is not a directory\n", w->label, p);
	} else {
		fprintf(w->err, "ruas-setup: %s %s: cannot open: %s\n", w->label, p, strerror(e));
	}
}

/* The root, one component at a time from /, none of them followed if a symlink. */
static int open_root(struct walk *w, const char *root)
{
	const char *p = root;
	char comp[NAME_MAX + 1];
	int opened = 0;
	int fd = openat_retry(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(w->err, "ruas-setup: cannot open /: %s\n", strerror(errno));
		return -1;
	}
	while (*p) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n > NAME_MAX) {
			root_problem(w, fd, "", 0, ENAMETOOLONG);
			close(fd);
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char shown[1024];
			fprintf(w->err, "ruas-setup: %s %s has a \"..\" component; give it "
					"without one\n", w->label, escape_name(w->path, shown, sizeof shown));
			close(fd);
			return -1;
		}
		int last = p[strspn(p, "/")] == '\0';
		int nfd = openat_retry(fd, comp, (last ? O_RDONLY : O_PATH) | O_DIRECTORY |
						   O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			root_problem(w, fd, comp, last, errno);
			close(fd);
			return -1;
		}
		close(fd);
		fd = nfd;
		opened = 1;
	}
	if (!opened) {
		if (strcmp(w->label, "work_dir") == 0)
			fprintf(w->err, "ruas-setup: work_dir /: refusing to grant a user the "
					"whole filesystem\n");
		else
			fprintf(w->err, "ruas-setup: %s /: refusing: that is the whole "
					"filesystem\n", w->label);
		close(fd);
		return -1;
	}
	return fd;
}

int acl_grant_tree(const char *root, uid_t uid, unsigned int max_depth, FILE *err,
		   struct acl_tree_stats *st)
{
	struct walk w;
	struct statfs sf;
	struct stat sb;
	memset(st, 0, sizeof *st);
	memset(&w, 0, sizeof w);
	w.uid = uid;
	w.label = "work_dir";
	w.max_depth = max_depth ? max_depth : ACL_TREE_MAX_DEPTH;
	w.err = err;
	w.st = st;
	size_t rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	w.cap = rl + (size_t)w.max_depth * (NAME_MAX + 1) + 2;
	w.path = malloc(w.cap);
	if (!w.path) {
		fprintf(err, "ruas-setup: out of memory\n");
		return -1;
	}
	memcpy(w.path, root, rl);
	w.path[rl] = '\0';
	if (root[0] != '/') {
		say(&w, rl, "work_dir must be an absolute path", 0);
		free(w.path);
		return -1;
	}
	if (statfs("/proc/self/fd", &sf) < 0 || sf.f_type != PROC_SUPER_MAGIC) {
		fprintf(err, "ruas-setup: /proc is not mounted (procfs); it is needed to set "
			     "default ACLs on an open directory\n");
		free(w.path);
		return -1;
	}
	int fd = open_root(&w, root);
	if (fd < 0) {
		free(w.path);
		return -1;
	}
	if (fstat(fd, &sb) < 0) {
		fail(&w, rl, "cannot stat", errno);
		close(fd);
	} else if (grant(&w, rl, fd, &sb) < 0) {
		close(fd);
	} else if (mount_id(fd, &w.mnt) < 0) {
		fail(&w, rl, "cannot read the mount id", errno);
		close(fd);
	} else {
		w.dev = sb.st_dev;
		w.root_owner = sb.st_uid;
		walk_dir(&w, fd, rl, 0);
	}
	free(w.path);
	return w.failed ? -1 : 0;
}

int acl_open_dir(const char *path, const char *label, FILE *err)
{
	struct walk w;
	memset(&w, 0, sizeof w);
	w.label = label;
	w.err = err;
	w.path = strdup(path);
	if (!w.path) {
		fprintf(err, "ruas-setup: out of memory\n");
		return -1;
	}
	int fd = -1;
	if (path[0] != '/')
		fprintf(err, "ruas-setup: %s must be an absolute path\n", label);
	else
		fd = open_root(&w, path);
	free(w.path);
	return fd;
}
