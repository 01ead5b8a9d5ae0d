/* SPDX-License-Identifier: ISC */
/* deny_files.c - see deny_files.h. */
#include "people/deny_files.h"
#include "people/deny_sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <acl/libacl.h>
#include <stdio.h>
#include <sys/acl.h>

#include "account.h"
#include "buf.h"
#include "error.h"

/* The files' names in their directory. */
static const char LIST[] = "deny.list", SETTINGS[] = "settings.json";

static void clear(struct deny_files *x)
{
	deny_list_free(&x->dl);
	free(x->dir);
	free(x->list_path);
	free(x->settings);
	for (size_t i = 0; i < x->nargs; i++)
		free(x->args[i]);
	free(x->args);
	free(x->scope);
	memset(x, 0, sizeof *x);
}

void deny_files_free(struct deny_files *x)
{
	if (x->dir) {
		if (x->list_path)
			unlink(x->list_path);
		if (x->settings)
			unlink(x->settings);
		rmdir(x->dir);
	}
	clear(x);
}

char *deny_files_release(struct deny_files *x)
{
	char *dir = x->dir;
	x->dir = NULL;
	clear(x);
	return dir;
}

/* DIR/NAME, or NULL when out of memory. */
static char *path_in(const char *dir, const char *name)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s/%s", dir, name);
	return buf_detach(&b);
}

void deny_files_remove(const char *dir)
{
	char *list = path_in(dir, LIST), *settings = path_in(dir, SETTINGS);
	if (list)
		unlink(list);
	if (settings)
		unlink(settings);
	free(list);
	free(settings);
	rmdir(dir);
}

/*
 * Only the supervisor and the target: mode 0700 (directory) or 0600
 * (file) for the supervisor, and an ACL entry that gives the target uid
 * `perm` alone (--x on the directory, r-- on the files). Nobody else can
 * enter the directory or read a file, even knowing its name, and the
 * target can read but neither write nor chmod, since the files are not
 * its own. -1 with errno when the filesystem has no ACLs (EOPNOTSUPP):
 * then the spawn is refused rather than the files opened to everyone.
 */
static int only_target(int fd, const char *own, uid_t uid, const char *perm)
{
	char text[128];
	snprintf(text, sizeof text, "u::%s,u:%u:%s,g::---,m::%s,o::---", own, (unsigned)uid, perm,
		 perm);
	acl_t acl = acl_from_text(text);
	if (!acl)
		return -1;
	int r = acl_set_fd(fd, acl);
	int e = errno;
	acl_free(acl);
	errno = e;
	return r;
}

static int write_file(const char *path, const char *text, uid_t uid)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	int ok = only_target(fd, "rw-", uid, "r--") == 0 && write(fd, text, n) == (ssize_t)n;
	int e = errno;
	if (close(fd) < 0 && ok)
		return -1;
	errno = e;
	return ok ? 0 : -1;
}

/* The spawn's directory, made 0700 with --x for the target alone. */
static int make_dir(char *tmpl, uid_t uid)
{
	if (!mkdtemp(tmpl))
		return -1;
	int fd = open(tmpl, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int r = fd >= 0 && only_target(fd, "rwx", uid, "--x") == 0 ? 0 : -1;
	int e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return r;
}

static const char *no_acls(int e)
{
	return e == EOPNOTSUPP ? " (the filesystem of /tmp has no POSIX ACLs, which keep the "
				 "files from other users; mount it with acl support)"
			       : "";
}

/* The target's uid, for the ACLs. -1 (ENOENT) when it does not exist. */
static int target_uid(const struct ruas_project *p, uid_t *uid)
{
	struct account a;
	int found = account_lookup(p->run_as_user, &a);
	if (found != ACCOUNT_FOUND) {
		errno = found == ACCOUNT_MISSING ? ENOENT : errno;
		return -1;
	}
	*uid = a.uid;
	account_clear(&a);
	return 0;
}

static char *replace_file(const char *arg, const char *file)
{
	struct buf b = BUF_INIT;
	for (const char *a = arg; *a;) {
		const char *hit = strstr(a, "{file}");
		if (!hit) {
			buf_adds(&b, a);
			break;
		}
		buf_add(&b, a, (size_t)(hit - a));
		buf_adds(&b, file);
		a = hit + 6;
	}
	return buf_detach(&b);
}

/* deny_settings_args with {file} replaced by the settings file: 0 or -1. */
static int replace_args(const struct ruas_project *p, struct deny_files *x)
{
	if (!p->ndeny_args)
		return 0;
	x->args = calloc(p->ndeny_args + 1, sizeof *x->args);
	if (!x->args)
		return -1;
	for (size_t i = 0; i < p->ndeny_args; i++) {
		if (!(x->args[i] = replace_file(p->deny_settings_args[i], x->settings)))
			return -1;
		x->nargs++;
	}
	return 0;
}

/*
 * The deny list is computed afresh at every spawn, so directories made since
 * are on it. The files are the supervisor's, readable by the target alone
 * (only_target): the agent can read them, cannot list the directory, cannot
 * write; another local user cannot even enter the directory.
 */
int deny_files_build(const struct ruas_config *cfg, const struct ruas_project *p,
		     struct deny_files *x, ruas_error **err)
{
	memset(x, 0, sizeof *x);
	if (!p->person)
		return 0;
	uid_t uid = (uid_t)-1;
	if (target_uid(p, &uid) < 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
				 "project \"%s\": cannot look up run_as_user \"%s\" for its deny "
				 "files: %s (run ruas check)", p->name, p->run_as_user,
				 errno == ENOENT ? "no such user" : strerror(errno));
	int r = deny_list_compute(cfg, p->person, &x->dl, err);
	if (r < 0)
		return r;
	/* What supervisors killed before they could remove theirs left behind (deny_sweep.h). */
	(void)deny_files_sweep();
	char tmpl[128];
	if (deny_dir_template(tmpl, sizeof tmpl) < 0)
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, ENAMETOOLONG,
				 "project \"%s\": cannot name the deny files' directory", p->name);
	struct buf lines = BUF_INIT;
	char *settings_json = deny_claude_settings(&x->dl, p->claude_api_key);
	for (size_t i = 0; i < x->dl.n; i++)
		buf_printf(&lines, "%s\n", x->dl.paths[i]);
	if (!(x->scope = people_scope(cfg->people, p->person)) || !settings_json ||
	    lines.oom || make_dir(tmpl, uid) < 0 ||
	    !(x->dir = strdup(tmpl))) {
		int e = errno;
		free(settings_json);
		buf_free(&lines);
		if (tmpl[strlen(tmpl) - 1] != 'X')
			rmdir(tmpl);
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot prepare the deny files: %s%s", p->name,
				 strerror(e), no_acls(e));
	}
	x->list_path = path_in(x->dir, LIST);
	x->settings = path_in(x->dir, SETTINGS);
	r = (!x->list_path || !x->settings ||
	     write_file(x->list_path, lines.data ? lines.data : "", uid) < 0 ||
	     write_file(x->settings, settings_json, uid) < 0) ? -1 : 0;
	free(settings_json);
	buf_free(&lines);
	if (r == 0)
		r = replace_args(p, x);
	if (r < 0) {
		int e = errno;
		deny_files_free(x);
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, e,
				 "project \"%s\": cannot write the deny files: %s%s", p->name,
				 strerror(e), no_acls(e));
	}
	return 0;
}
