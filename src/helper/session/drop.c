/* SPDX-License-Identifier: ISC */
/* drop.c - see drop.h. */
#include "drop.h"

#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "strv.h"

int drop_to(const struct passwd *pw)
{
	uid_t r, e, s;
	gid_t rg, eg, sg;
	/* The supplementary groups are the caller's: initgroups, then PAM's. */
	if (setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0) {
		perror("ruas-session: dropping to the target user");
		return -1;
	}
	if (getresuid(&r, &e, &s) < 0 || getresgid(&rg, &eg, &sg) < 0 ||
	    r != pw->pw_uid || e != pw->pw_uid || s != pw->pw_uid ||
	    rg != pw->pw_gid || eg != pw->pw_gid || sg != pw->pw_gid) {
		fputs("ruas-session: the drop to the target user was partial; aborting\n", stderr);
		return -1;
	}
	if (pw->pw_uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		fputs("ruas-session: root could be regained after the drop; aborting\n", stderr);
		return -1;
	}
	return 0;
}

/* ENV_PATH from /etc/login.defs ("PATH=..." or a bare path), as login and su use. */
static void env_path(struct buf *out)
{
	FILE *f = fopen("/etc/login.defs", "re");
	char line[1024];
	while (f && fgets(line, sizeof line, f)) {
		char *p = line + strspn(line, " \t");
		if (strncmp(p, "ENV_PATH", 8) != 0 || !strchr(" \t", p[8]))
			continue;
		p += 8 + strspn(p + 8, " \t");
		p[strcspn(p, "\r\n")] = '\0';
		if (strncmp(p, "PATH=", 5) == 0)
			p += 5;
		if (*p) {
			buf_adds(out, p);
			fclose(f);
			return;
		}
	}
	if (f)
		fclose(f);
	buf_adds(out, "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games");
}

static int push(char ***v, size_t *n, const char *name, const char *value)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s=%s", name, value);
	return strv_push(v, n, buf_detach(&b));
}

char **login_env(const struct passwd *pw, char **pam_env)
{
	char **v = NULL;
	size_t n = 0;
	struct buf path = BUF_INIT;
	env_path(&path);
	const char *shell = pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh";
	int bad = push(&v, &n, "HOME", pw->pw_dir) || push(&v, &n, "SHELL", shell) ||
		  push(&v, &n, "USER", pw->pw_name) || push(&v, &n, "LOGNAME", pw->pw_name) ||
		  push(&v, &n, "PATH", path.data ? path.data : "/usr/bin:/bin");
	buf_free(&path);
	for (char **e = pam_env; !bad && e && *e; e++) {
		char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		/* PAM's value replaces ours of the same name. */
		size_t len = (size_t)(eq - *e);
		size_t i = 0;
		while (i < n && !(strncmp(v[i], *e, len) == 0 && v[i][len] == '='))
			i++;
		char *copy = strdup(*e);
		if (!copy) {
			bad = 1;
			break;
		}
		if (i < n) {
			free(v[i]);
			v[i] = copy;
		} else {
			if (strv_push(&v, &n, copy) < 0) {
				bad = 1;
				break;
			}
		}
	}
	if (bad) {
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return NULL;
	}
	return v;
}
