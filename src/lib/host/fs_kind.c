/* SPDX-License-Identifier: ISC */
/* fs_kind.c - host_fs_mode_bits_decide() (fs_kind.h). */
#include "host/fs_kind.h"

#include <stddef.h>
#include <sys/vfs.h>

/* <linux/magic.h>'s numbers (and ZFS's), written out: not every kernel's headers have them all. */
static const unsigned long local[] = {
	0xEF53,	    /* ext2, ext3, ext4 */
	0x58465342, /* xfs */
	0x9123683E, /* btrfs */
	0x01021994, /* tmpfs, devtmpfs */
	0x858458F6, /* ramfs */
	0x794C7630, /* overlayfs */
	0xF2F52010, /* f2fs */
	0x73717368, /* squashfs */
	0x9660,	    /* iso9660 */
	0xE0F5E1E2, /* erofs */
	0x3153464A, /* jfs */
	0x52654973, /* reiserfs */
	0xCA451A4E, /* bcachefs */
	0x2FC12FC1, /* zfs */
	0x3434,	    /* nilfs2 */
	0x4D44,	    /* vfat, msdos: the mount's fixed mode, checked as any */
	0x2011BAB0, /* exfat: the same */
};

int host_fs_mode_bits_decide(const char *path)
{
	struct statfs sf;
	if (statfs(path, &sf) < 0)
		return 0;
	for (size_t i = 0; i < sizeof local / sizeof *local; i++)
		if ((unsigned long)sf.f_type == local[i])
			return 1;
	return 0;
}
