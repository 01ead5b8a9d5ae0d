/* SPDX-License-Identifier: ISC */
/*
 * home.c - ruas-setup home --target USER --home DIR: chmod 0700 of
 * the user's home, by descriptor. The script of ruas-setup useradd runs it
 * instead of chmod, which follows a symlink: where the home's parent is the
 * user's (a home inside its work_dir), the user can put a symlink to /etc
 * in its place between two runs, and chmod would make /etc drwx------.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "ruas.h"
#include "acl_walk.h"
#include "args.h"

int setup_home(const struct setup_args *a)
{
	struct setup_target t;
	int r = setup_target_lookup(a, a->home, "home needs --home DIR, an absolute path", &t);
	if (r != SETUP_OK)
		return r;
	const char *shown = t.shown, *hshown = t.pshown;

	/* Refuses "/", "..", and a symlink anywhere in the path. */
	int fd = acl_open_dir(a->home, "home", stderr);
	if (fd < 0)
		return setup_fail(SETUP_FAILED, "home %s of %s not made 0700 (see above)", hshown,
				  shown);
	struct stat sb;
	int rc = SETUP_OK;
	if (fstat(fd, &sb) < 0) {
		rc = setup_fail(SETUP_FAILED, "home %s: cannot stat: %s", hshown, strerror(errno));
	} else if (sb.st_uid != t.pw.pw_uid) {
		/* Not the user's own: someone else's directory (or /etc, /home). */
		rc = setup_fail(SETUP_FAILED, "home %s is owned by uid %lu, not by %s (uid %lu); "
				"refusing to chmod it: give %s a home of its own (usermod -d)",
				hshown, (unsigned long)sb.st_uid, shown, (unsigned long)t.pw.pw_uid,
				shown);
	} else if ((sb.st_mode & 07777) != 0700 && fchmod(fd, 0700) < 0) {
		rc = setup_fail(SETUP_FAILED, "home %s: cannot chmod 0700: %s", hshown,
				strerror(errno));
	}
	close(fd);
	return rc;
}
