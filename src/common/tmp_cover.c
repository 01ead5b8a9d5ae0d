/* SPDX-License-Identifier: ISC */
/* tmp_cover.c - see tmp_cover.h. */
#include "tmp_cover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int failed(char *why, size_t whysz, const char *step, int e)
{
	snprintf(why, whysz, "%s: %s", step, strerror(e));
	errno = e;
	return -1;
}

/* A single path component that names no other directory. */
static int plain_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/*
 * dir/name as an O_PATH descriptor of a directory of uid, made (0700, as
 * uid) when missing. -1 with errno; ENOTDIR when it is something else
 * (a symlink, a file, another user's directory).
 */
static int own_dir(int dir, const char *name, uid_t uid, gid_t gid)
{
	struct stat st;
	int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* As the target, so that it is the target's from the start. */
		int root = geteuid() == 0 && uid != 0;
		if (root) {
			setfsgid(gid);
			setfsuid(uid);
		}
		int r = mkdirat(dir, name, 0700);
		int e = errno;
		if (root) {
			setfsuid(0);
			setfsgid(0);
		}
		if (r < 0 && e != EEXIST) {
			errno = e;
			return -1;
		}
		fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0) {
		if (errno == ELOOP)
			errno = ENOTDIR;
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != uid) {
		close(fd);
		errno = ENOTDIR;
		return -1;
	}
	if (st.st_mode & 077) {
		/* Private again, through a descriptor of the same directory (O_PATH cannot chmod). */
		int rw = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		struct stat again;
		int ok = rw >= 0 && fstat(rw, &again) == 0 && again.st_dev == st.st_dev &&
			 again.st_ino == st.st_ino && fchmod(rw, 0700) == 0;
		if (rw >= 0)
			close(rw);
		if (!ok) {
			close(fd);
			errno = ENOTDIR;
			return -1;
		}
	}
	return fd;
}

/*
 * As root: what squats /tmp/name (a symlink, a file, another user's
 * directory, made by someone else before the target's run) is renamed to
 * name.squatted-RANDOM, kept whole for root to look at, so that the name is
 * the target's again. 0, or -1 with errno.
 */
static int set_aside(int tmp, const char *name)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char r[8];
	char to[128];
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
		return -1;
	size_t n = (size_t)snprintf(to, sizeof to, "%s.squatted-", name);
	for (size_t i = 0; i < sizeof r && n + 2 < sizeof to; i++) {
		to[n++] = hex[r[i] >> 4];
		to[n++] = hex[r[i] & 15];
	}
	to[n] = '\0';
	if (renameat2(tmp, name, tmp, to, RENAME_NOREPLACE) < 0)
		return -1;
	fprintf(stderr, "ruas-session: warning: /tmp/%s was not the target's own directory (a "
			"symlink, a file or another user's, made first): moved aside to /tmp/%s\n",
		name, to);
	return 0;
}

/*
 * An empty tmpfs, 0700 and uid's, attached over the directory at dirfd; its
 * root's descriptor. small: it holds one mount point (a few pages and
 * inodes); else it holds the run's files.
 */
static int tmpfs_over(int dirfd, uid_t uid, gid_t gid, int small, const char **step)
{
	char u[24], g[24];
	snprintf(u, sizeof u, "%u", (unsigned int)uid);
	snprintf(g, sizeof g, "%u", (unsigned int)gid);
	*step = "fsopen(tmpfs)";
	int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -1;
	int mnt = -1;
	*step = "fsconfig(tmpfs)";
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0700", 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "uid", u, 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "gid", g, 0) == 0 &&
	    (!small || (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "64k", 0) == 0 &&
			syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "nr_inodes", "64", 0) == 0)) &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0) {
		*step = "fsmount(tmpfs)";
		mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
				   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					   (small ? MOUNT_ATTR_NOEXEC : 0));
	}
	int e = errno;
	close(fs);
	if (mnt >= 0 && syscall(SYS_move_mount, mnt, "", dirfd, "",
				MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		*step = "move_mount(tmpfs)";
		e = errno;
		close(mnt);
		mnt = -1;
	}
	errno = e;
	return mnt;
}

/* person's own directory (O_PATH, pfd) bound onto a directory person made in the tmpfs at mnt. */
static int bind_back(int mnt, const char *person, int pfd, uid_t uid, gid_t gid,
		     const char **step)
{
	*step = "mkdir in the tmpfs";
	if (mkdirat(mnt, person, 0700) < 0)
		return -1;
	*step = "chown in the tmpfs";
	if (fchownat(mnt, person, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	*step = "open_tree(TMPDIR)";
	int tree = (int)syscall(SYS_open_tree, pfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
							   AT_EMPTY_PATH);
	if (tree < 0)
		return -1;
	*step = "move_mount(TMPDIR)";
	int r = (int)syscall(SYS_move_mount, tree, "", mnt, person, MOVE_MOUNT_F_EMPTY_PATH);
	int e = errno;
	close(tree);
	errno = e;
	return r;
}

int tmp_cover(const char *parent, const char *person, uid_t uid, gid_t gid, int ephemeral,
	      char *why, size_t whysz)
{
	if (!plain_name(parent) || !plain_name(person))
		return failed(why, whysz, "the private TMPDIR's names", EINVAL);
	int tmp = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return failed(why, whysz, "/tmp", errno);
	int par = own_dir(tmp, parent, uid, gid);
	int e = errno;
	if (par < 0 && e == ENOTDIR && geteuid() == 0 && uid != 0 && set_aside(tmp, parent) == 0) {
		par = own_dir(tmp, parent, uid, gid);
		e = errno;
	}
	close(tmp);
	if (par < 0)
		return e == ENOTDIR ? 1 : failed(why, whysz, "/tmp's private directory", e);
	int mine = own_dir(par, person, uid, gid);
	e = errno;
	if (mine < 0) {
		close(par);
		return e == ENOTDIR ? 1 : failed(why, whysz, "the person's TMPDIR", e);
	}
	const char *step = "";
	int mnt = -1, r;
	if (ephemeral) {
		mnt = tmpfs_over(mine, uid, gid, 0, &step);
		r = mnt < 0 ? -1 : 0;
	} else {
		mnt = tmpfs_over(par, uid, gid, 1, &step);
		r = mnt < 0 ? -1 : bind_back(mnt, person, mine, uid, gid, &step);
	}
	e = errno;
	if (mnt >= 0)
		close(mnt);
	close(mine);
	close(par);
	return r < 0 ? failed(why, whysz, step, e) : 0;
}
