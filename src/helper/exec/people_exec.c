/* SPDX-License-Identifier: ISC */
/* people_exec.c - see people_exec.h. */
#include "people_exec.h"
#include "sealed_memfd.h"
#include "tmp_cover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * One level: mkdirat, or an existing directory that is ours and private.
 * *squatted (when not NULL) is set when the name is taken by what this user
 * may not use: a symlink, not a directory, or another user's directory.
 */
static int private_dir(int parent, const char *name, const char *shown, int *squatted)
{
	struct stat st;
	if (squatted)
		*squatted = 0;
	if (mkdirat(parent, name, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "ruas-exec: cannot create %s: %s\n", shown, strerror(errno));
		return -1;
	}
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (squatted && (errno == ELOOP || errno == ENOTDIR)) {
			*squatted = 1;
			return -1;
		}
		fprintf(stderr, "ruas-exec: refusing %s as a private temp directory: %s "
				"(a symlink or not a directory; remove it)\n",
			shown, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != getuid()) {
		if (squatted) {
			*squatted = 1;
			close(fd);
			return -1;
		}
		fprintf(stderr, "ruas-exec: refusing %s as a private temp directory: it "
				"belongs to uid %u, not to this user (remove it)\n",
			shown, (unsigned)st.st_uid);
		close(fd);
		return -1;
	}
	if ((st.st_mode & 07777) != 0700 && fchmod(fd, 0700) < 0) {
		fprintf(stderr, "ruas-exec: cannot make %s private: %s\n", shown, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * When /tmp/ruas-UID is squatted: a parent of this run's own, made with a
 * name nobody can guess before it exists (mkdir fails on an existing name,
 * so it is ours, 0700, from the start). Its descriptor with *out its path,
 * or -1.
 */
static int fresh_parent(int tmp, const char *base, struct buf *out)
{
	static const char hex[] = "0123456789abcdef";
	for (int tries = 0; tries < 16; tries++) {
		unsigned char r[8];
		char name[96];
		size_t n = (size_t)snprintf(name, sizeof name, "%s.", base);
		if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
			break;
		for (size_t i = 0; i < sizeof r && n + 2 < sizeof name; i++) {
			name[n++] = hex[r[i] >> 4];
			name[n++] = hex[r[i] & 15];
		}
		name[n] = '\0';
		if (mkdirat(tmp, name, 0700) < 0) {
			if (errno == EEXIST)
				continue;
			break;
		}
		out->len = 0;
		buf_printf(out, "/tmp/%s", name);
		return private_dir(tmp, name, out->data ? out->data : name, NULL);
	}
	fprintf(stderr, "ruas-exec: cannot make a private temp directory in /tmp: %s\n",
		strerror(errno ? errno : EEXIST));
	return -1;
}

int private_tmp(const char *person, struct buf *out)
{
	char base[64];
	int squatted;
	snprintf(base, sizeof base, "ruas-%u", (unsigned)getuid());
	int tmp = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0) {
		perror("ruas-exec: /tmp");
		return -1;
	}
	buf_printf(out, "/tmp/%s", base);
	int d1 = private_dir(tmp, base, out->data ? out->data : base, &squatted);
	if (d1 < 0 && squatted) {
		/* Never the squatter's, never a refusal for good: a parent of this run's own. */
		fprintf(stderr, "ruas-exec: warning: /tmp/%s is not this user's private directory "
				"(a symlink, not a directory, or another user's): someone made it "
				"first; this run uses a fresh one. Fix, as root: rm -rf /tmp/%s\n",
			base, base);
		d1 = fresh_parent(tmp, base, out);
	}
	close(tmp);
	if (d1 < 0)
		return -1;
	buf_printf(out, "/%s", person);
	int d2 = private_dir(d1, person, out->data ? out->data : person, NULL);
	close(d1);
	if (d2 < 0)
		return -1;
	close(d2);
	return out->oom ? -1 : 0;
}

const char *bwrap_path(void)
{
	static const char *const where[] = {"/usr/bin/bwrap", "/bin/bwrap",
					    "/usr/local/bin/bwrap", NULL};
	for (const char *const *w = where; *w; w++)
		if (access(*w, X_OK) == 0)
			return *w;
	return NULL;
}

static void option(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s) + 1);
}

int bwrap_options(char **deny, size_t ndeny, const char *tmp_all, const char *tmp)
{
	struct buf b = BUF_INIT;
	option(&b, "--dev-bind");
	option(&b, "/");
	option(&b, "/");
	for (size_t i = 0; i < ndeny; i++) {
		struct stat st;
		if (lstat(deny[i], &st) < 0)
			continue; /* nothing there to hide (yet) */
		if (S_ISDIR(st.st_mode)) {
			option(&b, "--tmpfs");
		} else {
			option(&b, "--ro-bind");
			option(&b, "/dev/null");
		}
		option(&b, deny[i]);
	}
	if (tmp_all && tmp) {
		option(&b, "--tmpfs");
		option(&b, tmp_all);
		option(&b, "--bind");
		option(&b, tmp);
		option(&b, tmp);
	}
	option(&b, "--die-with-parent");
	option(&b, "--new-session");
	int fd = b.oom ? (errno = ENOMEM, -1) : sealed_memfd("ruas-bwrap-args", b.data, b.len);
	buf_free(&b);
	return fd;
}

char **bwrap_argv(char **argv)
{
	size_t argc = 0;
	while (argv[argc])
		argc++;
	char **v = calloc(argc + 6, sizeof *v);
	size_t n = 0;
	if (!v)
		return NULL;
	const char *bw = bwrap_path();
	v[n++] = (char *)(bw ? bw : "bwrap");
	v[n++] = "--args";
	v[n++] = BWRAP_ARGS_FD_TEXT;
	v[n++] = "--";
	for (size_t i = 0; i < argc; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	return v;
}

/*
 * In the namespace this helper made (sudo): the person's private TMPDIR,
 * /tmp/PARENT/PERSON as private_tmp() made it, alone under PARENT
 * (tmp_cover.h). 0, or -1 after a complaint: the agent must not run where
 * the other people of its user would see its files.
 */
int private_tmp_cover(const char *tmp)
{
	char parent[256], why[256];
	const char *rest = strncmp(tmp, "/tmp/", 5) == 0 ? tmp + 5 : NULL;
	const char *slash = rest ? strchr(rest, '/') : NULL;
	int r = -1;
	if (slash && (size_t)(slash - rest) < sizeof parent) {
		snprintf(parent, sizeof parent, "%.*s", (int)(slash - rest), rest);
		/* A fresh parent (ruas-UID.RANDOM: ruas-UID was squatted) shows to the uid's other runs. */
		r = tmp_cover(parent, slash + 1, getuid(), getgid(), strchr(parent, '.') != NULL, why,
			      sizeof why);
		if (r > 0)
			snprintf(why, sizeof why, "it is no longer a directory of this user");
	} else {
		snprintf(why, sizeof why, "not a path this helper makes");
	}
	if (r != 0)
		fprintf(stderr, "ruas-exec: cannot keep the private TMPDIR %s from the other "
				"people of this user: %s\n",
			tmp, why);
	return r == 0 ? 0 : -1;
}
