/* SPDX-License-Identifier: ISC */
/* account.c - getpwnam_r and friends, wrapped so callers never see buffers. */
#include "account.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


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

static int out_of_descriptors(int e)
{
	return e == EMFILE || e == ENFILE;
}

/*
 * EMFILE or ENFILE when no descriptor can be opened now, else 0: a "not
 * found" from a database whose files could not be opened (glibc's nss
 * files may then say nothing of why) is no answer.
 */
static int descriptors_exhausted(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return out_of_descriptors(errno) ? errno : 0;
}

static int lookup_once(const char *name, uid_t uid, struct account *a)
{
	struct passwd pw, *res = NULL;
	size_t size = 4096;
	memset(a, 0, sizeof *a);
	for (;;) {
		char *mem = malloc(size);
		if (!mem)
			return ACCOUNT_ERROR;
		errno = 0;
		int e = name ? getpwnam_r(name, &pw, mem, size, &res)
			     : getpwuid_r(uid, &pw, mem, size, &res);
		int seen = errno;
		if (e == ERANGE && size < (1u << 20)) {
			free(mem);
			size *= 4;
			continue;
		}
		int r = ACCOUNT_MISSING;
		if (res) {
			r = fill(res, a);
			e = ENOMEM; /* fill()'s only failure */
		} else if (out_of_descriptors(seen) && !out_of_descriptors(e)) {
			/*
			 * A source that could not be opened (nss files, out of
			 * descriptors) can let the next one say "not found": the
			 * user is then not known to be missing.
			 */
			e = seen;
		} else if (!out_of_descriptors(e)) {
			int x = descriptors_exhausted();
			e = x ? x : e;
		}
		if (!res && (out_of_descriptors(e) || (e != 0 && e != ENOENT && e != ESRCH &&
						      e != EBADF && e != EPERM)))
			r = ACCOUNT_ERROR;
		free(mem);
		errno = r == ACCOUNT_ERROR ? e : 0;
		return r;
	}
}

/*
 * A "not found" is asked twice: other threads may have freed descriptors
 * between a source's failure and the probe that would have seen it, and a
 * second answer that finds the user shows the first was no answer.
 */
static int lookup(const char *name, uid_t uid, struct account *a)
{
	int r = lookup_once(name, uid, a);
	return r == ACCOUNT_MISSING ? lookup_once(name, uid, a) : r;
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

/*
 * Group `name` (or gid, when name is NULL) into *gr, whose strings point
 * into *mem (the caller's to free), the buffer grown as long as the
 * database says ERANGE: 1 found, 0 no such group ("not found" comes in
 * several spellings), -1 the database failed or out of memory.
 */
static int group_get(const char *name, gid_t gid, struct group *gr, char **mem)
{
	struct group *res = NULL;
	size_t size = 4096;
	*mem = NULL;
	for (;;) {
		char *buf = malloc(size);
		if (!buf)
			return -1;
		int e = name ? getgrnam_r(name, gr, buf, size, &res)
			     : getgrgid_r(gid, gr, buf, size, &res);
		if (e == ERANGE && size < (1u << 22)) {
			free(buf);
			size *= 4;
			continue;
		}
		if (!res) {
			free(buf);
			if (e != 0 && e != ENOENT && e != ESRCH && e != EBADF && e != EPERM) {
				errno = e;
				return -1;
			}
			return 0;
		}
		*mem = buf;
		return 1;
	}
}

/*
 * The name of group gid (NULL when it has none) and whether `user` is
 * listed among its members. -1 on OOM or when the group database fails.
 */
static int group_info(gid_t gid, const char *user, char **name, int *listed)
{
	struct group gr;
	char *mem;
	*name = NULL;
	*listed = 0;
	int r = group_get(NULL, gid, &gr, &mem);
	if (r <= 0)
		return r;
	for (char **m = gr.gr_mem; m && *m; m++)
		if (strcmp(*m, user) == 0)
			*listed = 1;
	*name = strdup(gr.gr_name);
	free(mem);
	return *name ? 0 : -1;
}

void group_hits_clear(struct group_hits *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i].name);
	free(h->v);
	h->v = NULL;
	h->n = 0;
}

static int user_gids(const struct account *a, gid_t **out, int *count);

int account_gids(const struct account *a, gid_t **out, int *count)
{
	return user_gids(a, out, count);
}

static int user_gids(const struct account *a, gid_t **out, int *count)
{
	int n = 64;
	gid_t *gids = NULL;
	for (;;) {
		gid_t *g = realloc(gids, (size_t)n * sizeof *g);
		if (!g) {
			free(gids);
			return -1;
		}
		gids = g;
		int want = n;
		if (getgrouplist(a->name, a->gid, gids, &want) >= 0) {
			*out = gids;
			*count = want;
			return 0;
		}
		if (want <= n || want > 65536) {
			free(gids);
			return -1;
		}
		n = want;
	}
}

/*
 * Group `name`: 1 found (*gid, and its member list in *members, which
 * points into *mem, the caller's to free), 0 no such group, -1 the
 * database failed or out of memory.
 */
static int group_by_name(const char *name, gid_t *gid, char **mem, char ***members)
{
	struct group gr;
	*members = NULL;
	int r = group_get(name, 0, &gr, mem);
	if (r > 0) {
		*gid = gr.gr_gid;
		*members = gr.gr_mem;
	}
	return r;
}

void group_risk_gids_clear(struct group_risk_gids *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->mem[i]);
	free(g->root_mem);
	memset(g, 0, sizeof *g);
}

/* gid 0's group, judged by number rather than by a name of the table. */
static int root_group_load(struct group_risk_gids *g)
{
	struct group gr;
	int r = group_get(NULL, 0, &gr, &g->root_mem);
	if (r > 0) {
		g->root_name = gr.gr_name;
		g->root_members = gr.gr_mem;
	}
	return r;
}

int group_risk_gids_load(struct group_risk_gids *g)
{
	const char *name, *w;
	ruas_severity s;
	memset(g, 0, sizeof *g);
	for (size_t i = 0; ruas_group_risk_at(i, &name, &s, &w) == 0; i++) {
		if (i >= GROUP_RISK_NAMES_MAX) {
			group_risk_gids_clear(g);
			return -1;
		}
		g->n = i + 1;
		int r = group_by_name(name, &g->gid[i], &g->mem[i], &g->members[i]);
		if (r < 0) {
			group_risk_gids_clear(g);
			return -1;
		}
		g->found[i] = (unsigned char)r;
	}
	if (root_group_load(g) < 0) {
		group_risk_gids_clear(g);
		return -1;
	}
	return 0;
}

/*
 * The worst table entry whose name resolves to gid: a group of another
 * name that shares disk's gid is disk (getgrgid() names only the first).
 */
static void alias_risk(gid_t gid, const struct group_risk_gids *known, ruas_severity *sev,
		       const char **why)
{
	const char *name, *w;
	ruas_severity s;
	for (size_t i = 0; i < known->n && ruas_group_risk_at(i, &name, &s, &w) == 0; i++) {
		if (known->found[i] && known->gid[i] == gid && s > *sev) {
			*sev = s;
			*why = w;
		}
	}
}

static int add_hit(struct group_hits *out, const struct group_hit *h)
{
	struct group_hit *v = realloc(out->v, (out->n + 1) * sizeof *v);
	if (!v)
		return -1;
	out->v = v;
	v[out->n++] = *h;
	return 0;
}

/* Judges gid (named `name`, owned by the caller) and adds a hit when it is a risk. */
static int judge_gid(gid_t gid, char *name, int primary, int member, int session,
		     const struct group_risk_gids *known, struct group_hits *out)
{
	const char *why;
	ruas_severity sev = ruas_group_risk(name, (unsigned long)gid, &why);
	alias_risk(gid, known, &sev, &why);
	if (sev == RUAS_SEVERITY_NONE) {
		free(name);
		return 0;
	}
	struct group_hit h = {name, (unsigned long)gid, primary, member, sev, why, session};
	if (add_hit(out, &h) < 0) {
		free(name);
		return -1;
	}
	return 0;
}

static int listed_in(char **members, const char *user)
{
	for (char **m = members; m && *m; m++)
		if (strcmp(*m, user) == 0)
			return 1;
	return 0;
}

static int hit_for(const struct group_hits *out, unsigned long gid)
{
	for (size_t k = 0; k < out->n; k++)
		if (out->v[k].gid == gid)
			return 1;
	return 0;
}

/* known, or the table looked up now into *local (cleared by the caller). */
static const struct group_risk_gids *table_gids(const struct group_risk_gids *known,
						struct group_risk_gids *local)
{
	memset(local, 0, sizeof *local);
	if (known)
		return known;
	return group_risk_gids_load(local) == 0 ? local : NULL;
}

int account_session_group_risks(const struct account *a, const unsigned long *gids, size_t n,
				const struct group_risk_gids *known, struct group_hits *out)
{
	struct group_risk_gids local;
	const struct group_risk_gids *t = table_gids(known, &local);
	gid_t *db;
	int ndb;
	if (!t || user_gids(a, &db, &ndb) < 0) {
		group_risk_gids_clear(&local);
		return -1;
	}
	int r = 0;
	for (size_t i = 0; r == 0 && i < n; i++) {
		/* In the database's list, or found through the group's own: judged. */
		int in_db = hit_for(out, gids[i]);
		for (int k = 0; k < ndb; k++)
			in_db |= (unsigned long)db[k] == gids[i];
		if (in_db)
			continue;
		char *name;
		int listed;
		r = group_info((gid_t)gids[i], a->name, &name, &listed);
		if (r == 0)
			r = judge_gid((gid_t)gids[i], name, 0, 0, 1, t, out);
	}
	free(db);
	group_risk_gids_clear(&local);
	return r;
}

/*
 * The table's groups whose own member list names the user but which its
 * group list (getgrouplist) lacked: a database may answer a list in part
 * (nsswitch.conf's initgroups line, a directory that timed out, a module
 * not safe on several threads), and a group that gives root must not hide
 * behind that.
 */
static int listed_elsewhere(const struct account *a, const gid_t *gids, int n,
			    const struct group_risk_gids *t, struct group_hits *out)
{
	const char *name;
	for (size_t i = 0; i < t->n && ruas_group_risk_at(i, &name, NULL, NULL) == 0; i++) {
		int in_list = 0;
		for (int k = 0; k < n; k++)
			in_list |= gids[k] == t->gid[i];
		if (!t->found[i] || in_list || hit_for(out, t->gid[i]) ||
		    !listed_in(t->members[i], a->name))
			continue;
		char *copy = strdup(name);
		if (!copy || judge_gid(t->gid[i], copy, 0, 1, 0, t, out) < 0)
			return -1;
	}
	int in_list = 0;
	for (int k = 0; k < n; k++)
		in_list |= gids[k] == 0;
	if (t->root_name && !in_list && !hit_for(out, 0) && listed_in(t->root_members, a->name)) {
		char *copy = strdup(t->root_name);
		if (!copy || judge_gid(0, copy, 0, 1, 0, t, out) < 0)
			return -1;
	}
	return 0;
}

int account_group_risks(const struct account *a, const struct group_risk_gids *known,
			struct group_hits *out)
{
	struct group_risk_gids local;
	const struct group_risk_gids *t = table_gids(known, &local);
	gid_t *gids;
	int n;
	out->v = NULL;
	out->n = 0;
	if (!t || user_gids(a, &gids, &n) < 0) {
		group_risk_gids_clear(&local);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *name;
		int listed;
		if (hit_for(out, gids[i])) /* a list with a group twice: one hit */
			continue;
		if (group_info(gids[i], a->name, &name, &listed) < 0)
			goto fail;
		int primary = gids[i] == a->gid;
		/* getgrouplist() found a non-primary group through its member list. */
		if (judge_gid(gids[i], name, primary, !primary || listed, 0, t, out) < 0)
			goto fail;
	}
	if (listed_elsewhere(a, gids, n, t, out) < 0)
		goto fail;
	free(gids);
	group_risk_gids_clear(&local);
	return 0;
fail:
	free(gids);
	group_risk_gids_clear(&local);
	group_hits_clear(out);
	return -1;
}
