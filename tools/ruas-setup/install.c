/* SPDX-License-Identifier: ISC */
/*
 * install.c - ruas-setup install: put the fragment in place so that
 * sudo never reads a broken, half-written or insecure file.
 *
 *  1. write it as .NAME.ruas-new-XXXX (a '.' in the name: sudo skips it),
 *     0440 root:root, fsync'd;
 *  2. visudo -c -f on it;
 *  3. keep the old NAME as a hard link .NAME.ruas-old-XXXX;
 *  4. rename() the new file over NAME: sudo sees the old or the new, whole;
 *  5. visudo -c on the whole policy, then the library's checks: sudo to each
 *     target works as the supervisor, and no target can escalate;
 *  6. on any failure rename() the old file back (or remove NAME when there
 *     was none), and exit 1.
 *
 * Catchable signals are blocked from step 3 on. A SIGKILL can only leave a
 * fragment that visudo has already accepted, plus dot-files that sudo skips
 * and the next run removes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ruas.h"
#include "escape.h"
#include "exit_status.h"
#include "args.h"
#include "dir_files.h"

extern char **environ;
int setup_run_target_checks(const struct setup_args *a, int json, int quiet_ok);

struct txn {
	const char *dir;
	int dfd;
	char name[80];
	char tmp[128];
	char old[128];
	int have_tmp, have_old, replaced;
};

static const char *file_name_problem(const char *name)
{
	if (!*name)
		return "is empty";
	if (strlen(name) > 64)
		return "is longer than 64 bytes";
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return "may contain only A-Z, a-z, 0-9, '_' and '-' (sudo silently "
			       "skips sudoers.d files whose names contain '.' or end in '~')";
	return NULL;
}

/* A free name .NAME.ruas-KIND-XXXXXXXX in dir, created O_EXCL when `create`. */
static int unique_name(struct txn *t, const char *kind, char *out, size_t outsz,
		       int create)
{
	for (int tries = 0; tries < 16; tries++) {
		unsigned int r;
		if (getrandom(&r, sizeof r, 0) != sizeof r)
			return -1;
		snprintf(out, outsz, ".%s.ruas-%s-%08x", t->name, kind, r);
		if (!create) {
			struct stat st;
			if (fstatat(t->dfd, out, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
				return 0;
			continue;
		}
		int fd = openat(t->dfd, out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0400);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Leftovers of an interrupted run: dot-files that sudo skips anyway. */
static void remove_stale(struct txn *t)
{
	char prefix[96];
	snprintf(prefix, sizeof prefix, ".%s.ruas-", t->name);
	dir_remove_prefixed(t->dfd, prefix);
}

/* Runs visudo with its output on our stderr; returns its exit status or -1. */
static int run_visudo(const char *visudo, const char *file)
{
	const char *argv[6] = {visudo, "-c", "-q", NULL, NULL, NULL};
	if (file) {
		argv[3] = "-f";
		argv[4] = file;
	}
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	int e = posix_spawn(&pid, visudo, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e != 0) {
		errno = e;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return exit_status_code(status);
}

static void path_of(const struct txn *t, const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", t->dir, name);
}

/* Puts back exactly what was there. 0, or -1 when that failed too. */
static int rollback(struct txn *t)
{
	int r = 0;
	if (t->replaced) {
		if (t->have_old) {
			if (renameat(t->dfd, t->old, t->dfd, t->name) < 0)
				r = -1;
			else
				t->have_old = 0;
		} else if (unlinkat(t->dfd, t->name, 0) < 0) {
			r = -1;
		}
		t->replaced = 0;
	}
	if (t->have_tmp && unlinkat(t->dfd, t->tmp, 0) == 0)
		t->have_tmp = 0;
	if (t->have_old && unlinkat(t->dfd, t->old, 0) == 0)
		t->have_old = 0;
	fsync(t->dfd);
	return r;
}

static int check_dir(struct txn *t)
{
	struct stat st;
	t->dfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dfd < 0)
		return setup_fail(SETUP_USAGE, "cannot open %s: %s; nothing written", t->dir,
				  strerror(errno));
	if (fstat(t->dfd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022))
		return setup_fail(SETUP_USAGE, "%s must be owned by root and writable only "
				  "by root (sudo would ignore or distrust it); nothing written",
				  t->dir);
	return 0;
}

static int stage(struct txn *t, const char *fragment, const char *visudo)
{
	char path[4200];
	int fd = unique_name(t, "new", t->tmp, sizeof t->tmp, 1);
	if (fd < 0)
		return setup_fail(SETUP_FAILED, "cannot create a temporary file in %s: %s",
				  t->dir, strerror(errno));
	t->have_tmp = 1;
	int ok = fchown(fd, 0, 0) == 0 && fchmod(fd, 0440) == 0 &&
		 fd_write_all(fd, fragment, strlen(fragment)) == 0 && fsync(fd) == 0;
	if (close(fd) < 0 || !ok)
		return setup_fail(SETUP_FAILED, "cannot write %s/%s: %s", t->dir, t->tmp,
				  strerror(errno));
	path_of(t, t->tmp, path, sizeof path);
	int v = run_visudo(visudo, path);
	if (v != 0)
		return setup_fail(SETUP_FAILED, "%s -c -f rejected the new fragment (status %d); "
				  "nothing changed", visudo, v);
	return 0;
}

static int swap_in(struct txn *t)
{
	struct stat st;
	if (fstatat(t->dfd, t->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode))
			return setup_fail(SETUP_FAILED, "%s/%s exists and is not a regular file; "
					  "remove it first. Nothing changed", t->dir, t->name);
		if (unique_name(t, "old", t->old, sizeof t->old, 0) < 0 ||
		    linkat(t->dfd, t->name, t->dfd, t->old, 0) < 0)
			return setup_fail(SETUP_FAILED, "cannot keep a copy of %s/%s: %s; "
					  "nothing changed", t->dir, t->name, strerror(errno));
		t->have_old = 1;
	} else if (errno != ENOENT) {
		return setup_fail(SETUP_FAILED, "cannot inspect %s/%s: %s", t->dir, t->name,
				  strerror(errno));
	}
	if (renameat(t->dfd, t->tmp, t->dfd, t->name) < 0)
		return setup_fail(SETUP_FAILED, "cannot rename into %s/%s: %s; nothing changed",
				  t->dir, t->name, strerror(errno));
	t->have_tmp = 0;
	t->replaced = 1;
	fsync(t->dfd);
	return 0;
}

int setup_install(const struct setup_args *a)
{
	struct txn t;
	char *fragment = NULL;
	ruas_error *err = NULL;
	const char *visudo = a->visudo ? a->visudo : "/usr/sbin/visudo";
	const char *name_problem;
	int rc;

	memset(&t, 0, sizeof t);
	t.dfd = -1;
	t.dir = a->sudoers_dir ? a->sudoers_dir : "/etc/sudoers.d";
	if (geteuid() != 0)
		return setup_fail(SETUP_USAGE, "install must run as root; nothing written");
	if (ruas_sudoers_fragment(&fragment, a->supervisor, a->targets, &err) < 0) {
		rc = setup_fail(SETUP_USAGE, "%s; nothing written", ruas_error_message(err));
		ruas_error_free(err);
		return rc;
	}
	snprintf(t.name, sizeof t.name, "%s", a->name ? a->name : "");
	if (!a->name)
		snprintf(t.name, sizeof t.name, "ruas-%s", a->supervisor);
	if ((name_problem = file_name_problem(a->name ? a->name : t.name))) {
		char shown[256];
		ruas_free(fragment);
		return setup_fail(SETUP_USAGE, "--name \"%s\" %s; nothing written",
				  escape_name(a->name ? a->name : t.name, shown, sizeof shown),
				  name_problem);
	}
	if ((rc = check_dir(&t)) != 0)
		goto out;
	remove_stale(&t);

	if ((rc = stage(&t, fragment, visudo)) != 0) {
		rollback(&t);
		goto out;
	}
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if ((rc = swap_in(&t)) == 0) {
		int v = run_visudo(visudo, NULL);
		if (v != 0)
			rc = setup_fail(SETUP_FAILED, "%s -c rejected the whole policy with the "
					"new fragment (status %d)", visudo, v);
		else
			rc = setup_run_target_checks(a, 0, 1);
	}
	if (rc != 0) {
		if (rollback(&t) < 0)
			setup_fail(SETUP_FAILED, "could not restore %s/%s: %s; check it by hand "
				   "with visudo -c", t.dir, t.name, strerror(errno));
		else
			setup_fail(SETUP_FAILED, "restored %s/%s as it was before", t.dir, t.name);
		rc = SETUP_FAILED;
	} else {
		if (t.have_old)
			unlinkat(t.dfd, t.old, 0);
		fsync(t.dfd);
		fprintf(stderr, "ruas-setup: installed %s/%s for supervisor %s; visudo and "
				"the no-escalation check passed\n",
			t.dir, t.name, a->supervisor);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	if (t.dfd >= 0)
		close(t.dfd);
	ruas_free(fragment);
	return rc;
}
