/* SPDX-License-Identifier: ISC */
/*
 * anchors_known.c - the trust anchors only the library knows, for the
 * payload (see anchors.h): the target may not be able to list the
 * supervisor's home, but whatever it can reach there it must not write.
 */
#include "check/anchors_known.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "strv.h"
#include "config/sudo_allowed.h"

/* Dot entries of the supervisor's home sent at most: keeps the payload small. */
#define DOT_ENTRIES_MAX 128

static int push(char ***v, size_t *n, const char *id, const char *path)
{
	struct buf b = BUF_INIT;
	if (!path || path[0] != '/')
		return 0;
	buf_printf(&b, "%s %s", id, path);
	if (b.oom) {
		buf_free(&b);
		return -1;
	}
	return strv_push(v, n, buf_detach(&b));
}

/*
 * Judged first, so that the cap never leaves them out; with the places one
 * level further down that git, systemd --user and a login's PATH (.profile
 * adds ~/bin and ~/.local/bin) read from.
 */
static const char *const well_known_dots[] = {".bashrc", ".profile", ".bash_profile",
					      ".bash_login", ".ssh", ".config", ".local",
					      ".gitconfig", ".netrc", ".config/git",
					      ".config/systemd/user", ".local/bin", "bin", NULL};

static int is_well_known(const char *name)
{
	for (const char *const *w = well_known_dots; *w; w++)
		if (strcmp(name, *w) == 0)
			return 1;
	return 0;
}

static int push_dot(char ***v, size_t *n, const char *home, const char *name)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s/%s", strcmp(home, "/") == 0 ? "" : home, name);
	int r = b.oom ? -1 : push(v, n, "supervisor-dot", b.data);
	buf_free(&b);
	return r;
}

static int supervisor_home(const struct anchors_source *src, char ***v, size_t *n)
{
	struct account a;
	const char *name = src->supervisor_name;
	int lr = name && name[0] != '#' ? account_lookup(name, &a)
					: account_lookup_uid(src->supervisor_uid, &a);
	if (lr != ACCOUNT_FOUND)
		return 0;
	int r = push(v, n, "supervisor-home", a.home);
	size_t count = 0;
	/* Missing ones are fine: the helper skips them. */
	for (const char *const *w = well_known_dots; r == 0 && a.home[0] == '/' && *w; w++, count++)
		r = push_dot(v, n, a.home, *w);
	DIR *d = r == 0 && a.home[0] == '/' ? opendir(a.home) : NULL;
	struct dirent *de;
	while (d && r == 0 && (de = readdir(d))) {
		if (de->d_name[0] != '.' || strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 || is_well_known(de->d_name))
			continue;
		if (count >= DOT_ENTRIES_MAX) {
			/* More than are sent: said as a finding, not passed in silence. */
			r = push(v, n, "supervisor-dot-more", a.home);
			break;
		}
		r = push_dot(v, n, a.home, de->d_name);
		count++;
	}
	if (d)
		closedir(d);
	account_clear(&a);
	return r;
}

/* path, made absolute against the working directory (as open(2) reads it). */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return strdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return NULL;
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s/%s", cwd, path);
	return b.oom ? (buf_free(&b), NULL) : buf_detach(&b);
}

int anchors_known(const struct anchors_source *src, char ***v, size_t *n)
{
	int r = 0;
	char *conf = src->config ? realpath(src->config, NULL) : NULL;
	if (conf) {
		/* The directory first, so that it is judged as itself, not as a parent. */
		char *slash = strrchr(conf, '/');
		if (slash && slash != conf) {
			*slash = '\0';
			r |= push(v, n, "config-dir", conf);
			*slash = '/';
		}
		r |= push(v, n, "config", conf);
		/*
		 * And as given, when that differs: the helper resolves it link by
		 * link, so a symlink to it in a directory the target writes (which
		 * it repoints) is judged too, not only where it leads.
		 */
		char *given = absolute(src->config);
		if (!given)
			r = -1;
		else if (strcmp(given, conf) != 0)
			r |= push(v, n, "config", given);
		free(given);
		free(conf);
	}
	r |= push(v, n, "helper", src->helper);
	r |= push(v, n, "helper", src->session_helper);
	char *exe = realpath("/proc/self/exe", NULL);
	r |= push(v, n, "supervisor-program", exe);
	free(exe);
	r |= supervisor_home(src, v, n);
	return r < 0 ? -1 : 0;
}

int anchors_sudo_allowed(char *const *allowed, char ***v, size_t *n)
{
	int r = 0;
	for (; allowed && *allowed && r == 0; allowed++) {
		char *prog = sudo_allowed_program(*allowed);
		if (!prog)
			return -1;
		r = push(v, n, "sudo-allowed", prog);
		free(prog);
	}
	return r;
}

int anchors_root_path(const char *secure_path, char ***v, size_t *n)
{
	int r = 0;
	for (const char *p = secure_path; p && *p && r == 0;) {
		size_t len = strcspn(p, ":");
		char *dir = strndup(p, len);
		if (!dir)
			return -1;
		r = push(v, n, "secure-path", dir);
		free(dir);
		p += len + (p[len] ? 1 : 0);
	}
	return r;
}
