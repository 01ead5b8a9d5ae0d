/* SPDX-License-Identifier: ISC */
/* work_dir.c - see work_dir.h. */
#include "work_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "complain.h"
#include "contain.h"

/* errno for a contain_resolve() verdict: EXDEV for "not beneath", as openat2's RESOLVE_BENEATH. */
static int verdict_errno(enum contain_result r)
{
	if (r == CONTAIN_OUTSIDE || r == CONTAIN_ABSLINK)
		return EXDEV;
	return r == CONTAIN_MISSING ? ENOENT : EACCES;
}

/* Beneath the project's work_dir (root), which is entered first, through the scope when set. */
static int open_beneath_root(const char *root, const char *scope, const char *work_dir)
{
	char why[512];
	int rootfd = -1, fd = -1;
	int scoped = *scope != '\0';
	enum contain_result r = contain_resolve(scoped ? scope : root, root, &rootfd, why,
						sizeof why, 0);
	if (r != CONTAIN_OK) {
		if (scoped && (r == CONTAIN_OUTSIDE || r == CONTAIN_ABSLINK))
			complain("work_dir is not contained in its person's scope", NULL, why);
		else
			complain("cannot enter work_dir", root, why);
		errno = verdict_errno(r);
		return -1;
	}
	r = contain_resolve_at(rootfd, root, work_dir, &fd, why, sizeof why, 0);
	close(rootfd);
	if (r == CONTAIN_OK)
		return fd;
	if (r == CONTAIN_OUTSIDE || r == CONTAIN_ABSLINK)
		complain("work_dir is not contained in its project's work_dir", NULL, why);
	else
		complain("cannot enter work_dir", work_dir, why);
	errno = verdict_errno(r);
	return -1;
}

int work_dir_open(const char *root, const char *scope, const char *work_dir)
{
	int fd = -1;
	char why[512];
	if (*root) {
		fd = open_beneath_root(root, scope, work_dir);
	} else if (*scope) {
		/* Enter the object that was checked, not the name again. */
		enum contain_result r = contain_resolve(scope, work_dir, &fd, why, sizeof why, 0);
		if (r != CONTAIN_OK) {
			complain("work_dir is not contained in its person's scope", NULL, why);
			errno = verdict_errno(r);
		}
	} else if ((fd = open(work_dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		int e = errno;
		complain("cannot enter work_dir", work_dir, strerror(e));
		errno = e;
	}
	if (fd >= 0 && fchdir(fd) < 0) {
		int e = errno;
		complain("cannot enter work_dir", work_dir, strerror(e));
		close(fd);
		errno = e;
		fd = -1;
	}
	return fd;
}
