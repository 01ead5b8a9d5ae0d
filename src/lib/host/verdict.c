/* SPDX-License-Identifier: ISC */
/* verdict.c - host_verdict_add() (verdict.h). */
#include "host/verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check/report_names.h"

static const struct {
	const char *root, *id;
} ids[] = {
	{"/etc", "tree-etc"},   {"/usr", "tree-usr"},		{"/boot", "tree-boot"},
	{"/opt", "tree-opt"},   {"/var/lib/dpkg", "tree-dpkg"}, {"/var/spool/cron", "tree-cron"},
};

const char *host_root_id(const char *root)
{
	for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
		if (strcmp(ids[i].root, root) == 0)
			return ids[i].id;
	return "tree-ld"; /* every other root is a directory ld.so.conf names */
}

static int listed(const struct helper_report *hr, size_t upto, const char *path)
{
	for (size_t i = 0; i < upto; i++)
		if (hr->anchors[i].path && strcmp(hr->anchors[i].path, path) == 0)
			return 1;
	return 0;
}

/* A crontab named after the target is its own (as the table's ANCHOR_SKIP_SELF). */
static int own_crontab(const char *root, const char *path, const char *user)
{
	size_t n = strlen(root);
	const char *base = strrchr(path, '/');
	return strcmp(root, "/var/spool/cron") == 0 && strncmp(path, root, n) == 0 &&
	       path[n] == '/' && base && strcmp(base + 1, user) == 0;
}

static int add_hit(struct helper_report *hr, const char *path, char how, int rel,
		   const char *id, const struct host_entry *e, const char *anchor)
{
	hr->anchors_total++;
	if (hr->nanchors >= ANCHOR_REPORT_CAP)
		return 0;
	struct anchor_hit *v = realloc(hr->anchors, (hr->nanchors + 1) * sizeof *v);
	if (!v)
		return -1;
	hr->anchors = v;
	struct anchor_hit *a = &v[hr->nanchors];
	memset(a, 0, sizeof *a);
	a->how = how;
	a->rel = rel;
	snprintf(a->id, sizeof a->id, "%s", id);
	a->uid = e ? (unsigned int)e->uid : REPORT_UID_UNKNOWN;
	a->gid = e ? (unsigned int)e->gid : REPORT_UID_UNKNOWN;
	a->mode = e ? e->mode & 07777 : 0;
	a->acl = e && e->nacl;
	a->path = strdup(path);
	a->anchor = strdup(anchor);
	if (!a->path || !a->anchor) {
		free(a->path);
		free(a->anchor);
		return -1;
	}
	hr->nanchors++;
	return 0;
}

/* Is the entry's own name (a link's, for what one leads to) the target's? */
static int named_after(const struct host_entry *e, const char *user)
{
	const char *p = e->rel == AREL_LINK && e->anchor ? e->anchor : e->path;
	const char *base = strrchr(p, '/');
	return base && strcmp(base + 1, user) == 0;
}

/* Can the user enter every directory above e that t, and also (or NULL), keep? */
static int reachable(const struct host_trees *t, const struct host_trees *also,
		     const struct host_entry *e, uid_t uid, const gid_t *groups, size_t ngroups)
{
	return host_entry_reachable(t, e, uid, groups, ngroups) &&
	       (!also || host_entry_reachable(also, e, uid, groups, ngroups));
}

/*
 * How an entry of the table's trees hits this user: as any entry, or, for
 * one the walk did not judge, 't' (late: for everyone), 'c' (the cap) or
 * 'u' (an error) for a user that can get in. 0: it does not.
 */
static char table_how(const struct host_entry *e, uid_t uid, const gid_t *groups,
		      size_t ngroups)
{
	if (e->flags & HOST_ENTRY_LATE)
		return 't';
	if (e->flags & (HOST_ENTRY_CAPPED | HOST_ENTRY_UNJUDGED)) {
		if (uid != e->uid &&
		    !host_may(e->uid, e->gid, e->mode, e->acl, e->nacl, uid, groups, ngroups, 1))
			return 0;
		return (e->flags & HOST_ENTRY_CAPPED) ? 'c' : 'u';
	}
	char how = host_entry_judge(e, uid, groups, ngroups);
	if (how == 'x')
		how = 'h'; /* may enter what the supervisor could not list */
	return how;
}

/* An entry of the table's trees (table.h): named as the helper names what it walks. */
static int add_table_hit(const struct host_trees *t, const struct host_trees *also,
			 const struct host_entry *e, const char *user, uid_t uid,
			 const gid_t *groups, size_t ngroups, struct helper_report *hr)
{
	char how = table_how(e, uid, groups, ngroups);
	/* What was not judged is no one's own: only a judged entry can be the target's crontab. */
	int judged = how != 't' && how != 'c' && how != 'u';
	if (!how || (how != 't' && !reachable(t, also, e, uid, groups, ngroups)) ||
	    (judged && (e->flags & HOST_ENTRY_SKIP_SELF) && named_after(e, user)) ||
	    listed(hr, hr->nanchors, e->path))
		return 0;
	return add_hit(hr, e->path, how, e->rel, e->id, e, e->anchor);
}

int host_verdict_unjudged(struct helper_report *hr, const char *path, const char *id,
			  const char *why)
{
	return add_hit(hr, path, 'u', AREL_SELF, id, NULL, why);
}

int host_verdict_add(const struct host_trees *t, const struct host_trees *also,
		     const char *user, uid_t uid, const gid_t *groups, size_t ngroups,
		     unsigned int seconds, struct helper_report *hr)
{
	size_t helper_listed = hr->nanchors;
	int r = 0;
	for (size_t i = 0; i < t->n && r == 0; i++) {
		const struct host_entry *e = &t->e[i];
		if (e->id) {
			r = add_table_hit(t, also, e, user, uid, groups, ngroups, hr);
			continue;
		}
		const char *root = e->root < t->nroots ? t->roots[e->root] : "/";
		char how = host_entry_judge(e, uid, groups, ngroups);
		if (!how || own_crontab(root, e->path, user) || listed(hr, helper_listed, e->path) ||
		    !reachable(t, also, e, uid, groups, ngroups))
			continue;
		int rel = (e->flags & HOST_ENTRY_ABOVE) ? AREL_PARENT
			  : strcmp(e->path, root) == 0	 ? AREL_SELF
							 : AREL_INSIDE;
		r = add_hit(hr, e->path, (char)(how == 'x' ? 'h' : how), rel, host_root_id(root), e,
			    root);
	}
	if (r == 0 && t->incomplete) {
		/* Not judged is not passed: the roots, and the time it had. */
		struct buf b = BUF_INIT;
		for (size_t i = 0; i < t->nroots; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", t->roots[i]);
		char secs[32];
		snprintf(secs, sizeof secs, "%u", seconds);
		r = b.oom ? -1 : add_hit(hr, b.data ? b.data : "", 't', AREL_SELF, "tree-etc", NULL, secs);
		buf_free(&b);
	}
	if (r == 0 && hr->nanchors > helper_listed)
		r = report_names_fill(hr);
	return r;
}
