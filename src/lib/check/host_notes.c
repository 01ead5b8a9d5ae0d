/* SPDX-License-Identifier: ISC */
/* host_notes.c - see host_notes.h. */
#include "check/host_notes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "check/messages_int.h"
#include "check/report.h"

/* Does the comma-separated list opts (n bytes) keep cmdlines hidden? hidepid=0/off does not. */
static int opts_hide(const char *opts, size_t n)
{
	static const char *const hiding[] = {"1", "2", "4", "noaccess", "invisible", "ptraceable",
					     NULL};
	int hides = 0;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && opts[k] != ',')
			k++;
		if (k - i > 8 && memcmp(opts + i, "hidepid=", 8) == 0) {
			hides = 0; /* the last one given is the one in force */
			for (const char *const *h = hiding; *h; h++)
				hides |= strlen(*h) == k - i - 8 && memcmp(opts + i + 8, *h, k - i - 8) == 0;
		}
		i = k + 1;
	}
	return hides;
}

int proc_hides_cmdlines(const char *mountinfo)
{
	int verdict = -1;
	for (const char *line = mountinfo; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		/* "ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS...] - TYPE SOURCE SUPER" */
		const char *f = line, *end = line + len;
		for (int i = 0; i < 4 && f < end; i++) {
			f = memchr(f, ' ', (size_t)(end - f));
			f = f ? f + 1 : end;
		}
		const char *sep = NULL;
		for (const char *p = f; p + 3 <= end; p++)
			if (memcmp(p, " - ", 3) == 0) {
				sep = p + 3;
				break;
			}
		if (f + 6 <= end && memcmp(f, "/proc ", 6) == 0 && sep && end - sep > 5 &&
		    memcmp(sep, "proc ", 5) == 0) {
			const char *super = memchr(sep + 5, ' ', (size_t)(end - sep - 5));
			/* A later line is mounted over an earlier one: the last one counts. */
			verdict = super ? opts_hide(super + 1, (size_t)(end - super - 1)) : 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	return verdict;
}

static struct words msg_proc_cmdlines(void)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: /proc is mounted without hidepid: every local user can read "
		     "every agent's command line (/proc/PID/cmdline), a prompt passed as an "
		     "argument included, for as long as the agent runs.\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "pass prompts on the agent's stdin; or mount /proc with hidepid=invisible "
		     "(now: mount -o remount,hidepid=invisible /proc; for good, in /etc/fstab: "
		     "proc /proc proc defaults,hidepid=invisible 0 0).\n");
	return msg_words(&b, fx, b.len);
}

int report_proc_cmdlines(ruas_report *rep, const char *fs_root)
{
	struct buf path = BUF_INIT;
	buf_adds(&path, fs_root ? fs_root : "");
	buf_adds(&path, "/proc/self/mountinfo");
	int fd = path.oom ? -1 : open(path.data, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	buf_free(&path);
	if (fd < 0)
		return 0;
	struct buf mi = BUF_INIT;
	char chunk[8192];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			buf_add(&mi, chunk, (size_t)n);
	close(fd);
	buf_addc(&mi, '\0');
	int r = 0;
	if (!mi.oom && n == 0 && proc_hides_cmdlines(mi.data) == 0)
		r = report_host_add(rep, RUAS_SEVERITY_WARNING, "proc", "/proc",
					    msg_proc_cmdlines());
	buf_free(&mi);
	return mi.oom ? -1 : r;
}

/* What is read for ways up, and what it holds. */
struct read_spec {
	const char *path;
	const char *what;
	int depth; /* -1: a file; 0: a directory of files; 1: of directories of files */
};

static const struct read_spec specs[] = {
	{"/etc/shadow", "empty passwords (root's, which su takes; and those of runas users of sudo "
			"rules under Defaults targetpw)", -1},
	{"/etc/doas.conf", "doas's rules", -1},
	{"/etc/polkit-1/rules.d", "polkit's rules", 0},
	{"/run/polkit-1/rules.d", "polkit's rules", 0},
	{"/usr/local/share/polkit-1/rules.d", "polkit's rules", 0},
	{"/usr/share/polkit-1/rules.d", "polkit's rules", 0},
	{"/etc/polkit-1/localauthority", "polkit's local authority", 1},
	{"/var/lib/polkit-1/localauthority", "polkit's local authority", 1},
	/* Every file there: the stacks judged and whatever they include (system-auth, a site's). */
	{"/etc/pam.d", "PAM's stacks", 0},
	{NULL, NULL, 0},
};

/*
 * path (beneath fs_root) noted when it exists and cannot be read or listed;
 * a directory's files too, and with depth 1 its directories' (bounded: no
 * deeper). -1 on OOM.
 */
static int note(ruas_report *rep, const char *fs_root, const char *path, /* NOLINT(misc-no-recursion) */ const char *what,
		int depth)
{
	struct buf real = BUF_INIT;
	buf_adds(&real, fs_root ? fs_root : "");
	buf_adds(&real, path);
	if (real.oom)
		return -1;
	int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (depth >= 0 ? O_DIRECTORY : 0);
	int fd = open(real.data, flags);
	int e = errno;
	buf_free(&real);
	if (fd < 0)
		return e == EACCES || e == EPERM ? report_unjudged(rep, what, path) : 0;
	if (depth < 0) {
		close(fd);
		return 0;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	int r = 0;
	struct dirent *de;
	while (r == 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		struct buf sub = BUF_INIT;
		buf_printf(&sub, "%s/%s", path, de->d_name);
		struct stat st;
		if (sub.oom) {
			r = -1;
		} else if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			   (S_ISDIR(st.st_mode) ? depth > 0 : S_ISREG(st.st_mode))) {
			r = note(rep, fs_root, sub.data, what, S_ISDIR(st.st_mode) ? depth - 1 : -1);
		}
		buf_free(&sub);
	}
	closedir(d);
	return r;
}

int report_not_judged(ruas_report *rep, const char *fs_root)
{
	int r = 0;
	for (const struct read_spec *s = specs; r == 0 && s->path; s++)
		r = note(rep, fs_root, s->path, s->what, s->depth);
	return r;
}
