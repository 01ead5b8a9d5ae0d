/* account.c - getpwnam_r and friends, wrapped so callers never see buffers. */
#include "account.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static int fill(struct passwd *pw, struct account *a)
{
	a->name = strdup(pw->pw_name);
	a->home = strdup(pw->pw_dir ? pw->pw_dir : "");
	a->shell = strdup(pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh");
	a->uid = pw->pw_uid;
	a->gid = pw->pw_gid;
	if (!a->name || !a->home || !a->shell) {
		account_clear(a);
		return ACCOUNT_ERROR;
	}
	return ACCOUNT_FOUND;
}

static int lookup(const char *name, uid_t uid, struct account *a)
{
	struct passwd pw, *res = NULL;
	size_t size = 4096;
	memset(a, 0, sizeof *a);
	for (;;) {
		char *mem = malloc(size);
		if (!mem)
			return ACCOUNT_ERROR;
		int e = name ? getpwnam_r(name, &pw, mem, size, &res)
			     : getpwuid_r(uid, &pw, mem, size, &res);
		if (e == ERANGE && size < (1u << 20)) {
			free(mem);
			size *= 4;
			continue;
		}
		int r = ACCOUNT_MISSING;
		if (res)
			r = fill(res, a);
		else if (e != 0 && e != ENOENT && e != ESRCH && e != EBADF &&
			 e != EPERM)
			r = ACCOUNT_ERROR;
		free(mem);
		return r;
	}
}

int account_lookup(const char *name, struct account *a)
{
	return lookup(name, 0, a);
}

int account_lookup_uid(uid_t uid, struct account *a)
{
	return lookup(NULL, uid, a);
}

void account_clear(struct account *a)
{
	free(a->name);
	free(a->home);
	free(a->shell);
	memset(a, 0, sizeof *a);
}

int shell_refuses_login(const char *shell)
{
	const char *base = strrchr(shell, '/');
	base = base ? base + 1 : shell;
	return strcmp(base, "nologin") == 0 || strcmp(base, "false") == 0;
}

static const char *const root_groups[] = {"sudo", "wheel", "admin", "docker",
					  "lxd", "libvirt", "disk", "shadow",
					  NULL};

static int group_name(gid_t gid, struct buf *out)
{
	struct group gr, *res = NULL;
	size_t size = 4096;
	for (;;) {
		char *mem = malloc(size);
		if (!mem)
			return -1;
		int e = getgrgid_r(gid, &gr, mem, size, &res);
		if (e == ERANGE && size < (1u << 22)) {
			free(mem);
			size *= 4;
			continue;
		}
		if (res)
			buf_adds(out, res->gr_name);
		free(mem);
		return 0;
	}
}

int account_root_groups(const struct account *a, char **out)
{
	int n = 64;
	gid_t *gids = NULL;
	struct buf names = BUF_INIT;
	*out = NULL;
	for (;;) {
		gid_t *g = realloc(gids, (size_t)n * sizeof *g);
		if (!g) {
			free(gids);
			return -1;
		}
		gids = g;
		int want = n;
		if (getgrouplist(a->name, a->gid, gids, &want) >= 0) {
			n = want;
			break;
		}
		if (want <= n || want > 65536) {
			free(gids);
			return -1;
		}
		n = want;
	}
	for (int i = 0; i < n; i++) {
		struct buf name = BUF_INIT;
		if (group_name(gids[i], &name) < 0) {
			buf_free(&name);
			free(gids);
			buf_free(&names);
			return -1;
		}
		for (const char *const *rg = root_groups; name.data && *rg; rg++)
			if (strcmp(name.data, *rg) == 0)
				buf_printf(&names, "%s%s", names.len ? ", " : "", *rg);
		buf_free(&name);
	}
	free(gids);
	if (names.oom)
		return -1;
	*out = names.len ? buf_detach(&names) : NULL;
	buf_free(&names);
	return 0;
}
