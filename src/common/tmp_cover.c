/* tmp_cover.c - see tmp_cover.h. */
#include "tmp_cover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mount.h>
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
	return fd;
}

/* An empty tmpfs, 0700 and uid's, attached over the directory at dirfd; its root's descriptor. */
static int tmpfs_over(int dirfd, uid_t uid, gid_t gid, const char **step)
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
	/* It holds one mount point: a few pages are all it may take. */
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0700", 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "uid", u, 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "gid", g, 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "64k", 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0) {
		*step = "fsmount(tmpfs)";
		mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
				   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
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

int tmp_cover(const char *parent, const char *person, uid_t uid, gid_t gid, char *why,
	      size_t whysz)
{
	if (!plain_name(parent) || !plain_name(person))
		return failed(why, whysz, "the private TMPDIR's names", EINVAL);
	int tmp = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return failed(why, whysz, "/tmp", errno);
	int par = own_dir(tmp, parent, uid, gid);
	int e = errno;
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
	int mnt = tmpfs_over(par, uid, gid, &step);
	int r = mnt < 0 ? -1 : bind_back(mnt, person, mine, uid, gid, &step);
	e = errno;
	if (mnt >= 0)
		close(mnt);
	close(mine);
	close(par);
	return r < 0 ? failed(why, whysz, step, e) : 0;
}
