/* SPDX-License-Identifier: ISC */
/* private_state.c - keeps a unit test's check state off the host. */
#include "config.h"
#include "private_state.h"

#include <errno.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

static char state_dir[] = "/tmp/ruas-test-state.XXXXXX";
static pid_t state_owner;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0)
		fprintf(stderr, "private_state: cannot remove %s: %s\n", path, strerror(errno));
	return 0;
}

/* Only the process that made it: a forked child that exits leaves it be. */
static void remove_state(void)
{
	if (getpid() == state_owner)
		nftw(state_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void fail(const char *what)
{
	fprintf(stderr, "private_state: a root unit test needs a private /run: %s: %s\n", what,
		strerror(errno));
	exit(99);
}

/*
 * What a parent of this test's (the nss_env re-run) already made, seen as it
 * is rather than taken from the environment, which any caller can set: as
 * root a mount namespace other than pid 1's with a tmpfs on /run; else an
 * XDG_RUNTIME_DIR of ours under /tmp/ruas-test-state.*.
 */
static int already_private(void)
{
	const char *done = getenv("RUAS_TEST_PRIVATE_STATE");
	if (!done || strcmp(done, "1") != 0)
		return 0;
	if (geteuid() == 0) {
		char self[64] = "", init[64] = "";
		struct statfs fs;
		ssize_t a = readlink("/proc/self/ns/mnt", self, sizeof self - 1);
		ssize_t b = readlink("/proc/1/ns/mnt", init, sizeof init - 1);
		return a > 0 && b > 0 && strcmp(self, init) != 0 && statfs("/run", &fs) == 0 &&
		       fs.f_type == TMPFS_MAGIC;
	}
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	return xdg && strncmp(xdg, "/tmp/ruas-test-state.", 21) == 0 && lstat(xdg, &st) == 0 &&
	       S_ISDIR(st.st_mode) && st.st_uid == geteuid();
}

void private_state(void)
{
	if (already_private())
		return;
	if (geteuid() == 0) {
		if (unshare(CLONE_NEWNS) != 0)
			fail("unshare(CLONE_NEWNS)");
		/*
		 * Private first: on a shared / a mount on /run would reach the
		 * host. (The kernel ignores source and type here; valgrind wants
		 * them readable.)
		 */
		if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
			fail("making / private");
		if (mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0)
			fail("a tmpfs on /run");
	} else {
		if (!mkdtemp(state_dir)) {
			fprintf(stderr, "private_state: mkdtemp %s: %s\n", state_dir, strerror(errno));
			exit(99);
		}
		state_owner = getpid();
		if (atexit(remove_state) != 0 || setenv("XDG_RUNTIME_DIR", state_dir, 1) != 0) {
			fprintf(stderr, "private_state: cannot set XDG_RUNTIME_DIR\n");
			remove_state();
			exit(99);
		}
	}
	if (setenv("RUAS_TEST_PRIVATE_STATE", "1", 1) != 0) {
		fprintf(stderr, "private_state: cannot set RUAS_TEST_PRIVATE_STATE\n");
		exit(99);
	}
}
