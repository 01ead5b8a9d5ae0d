/* SPDX-License-Identifier: ISC */
/*
 * anchor_check.c - check mode's trust anchors: the list to judge (the
 * table, root's PATH from login.defs and sudo's secure_path, the sudo
 * binary, this helper, the library's paths), judged by anchor_probe.c and
 * written as REPORT records (helper_report_write.h).
 */
#include "anchor_probe.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "scan.h"
#include "strv.h"
#include "helper_report_write.h"

struct list {
	struct anchor_item *items;
	size_t n;
	char **owned;
	size_t nowned;
	int oom;
};

static void add(struct list *l, const char *path, const struct anchor_def *d)
{
	struct anchor_item *it = realloc(l->items, (l->n + 1) * sizeof *it);
	if (!it || !d) {
		l->oom |= !it;
		if (it)
			l->items = it;
		return;
	}
	l->items = it;
	l->items[l->n++] = (struct anchor_item){path, d};
}

/* Adds a copy of path (the list keeps it). */
static void add_copy(struct list *l, const char *path, size_t len, const struct anchor_def *d)
{
	char *s = strndup(path, len);
	if (!s || strv_push(&l->owned, &l->nowned, s) < 0) {
		l->oom = 1;
		return;
	}
	add(l, s, d);
}

static void add_path_list(struct list *l, const char *list)
{
	const struct anchor_def *d = anchor_by_id("root-path");
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ":");
		if (n && p[0] == '/' && n < PATH_MAX)
			add_copy(l, p, n, d);
		p += n + (p[n] == ':');
	}
}

char *anchors_secure_path(const char *listing)
{
	const char *p = listing ? strstr(listing, "secure_path=") : NULL;
	if (!p)
		return NULL;
	p += strlen("secure_path=");
	struct buf b = BUF_INIT;
	if (*p == '"')
		p++;
	for (; *p && *p != ',' && *p != '\n' && *p != '\r' && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		buf_addc(&b, *p);
	}
	if (b.oom || !b.len) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/* ENV_SUPATH and ENV_PATH of /etc/login.defs: root's PATH at login. */
static void add_login_defs(struct list *l)
{
	FILE *f = fopen("/etc/login.defs", "re");
	char line[4096];
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *s = line;
		if (strncmp(s, "ENV_SUPATH", 10) == 0)
			s += 10;
		else if (strncmp(s, "ENV_PATH", 8) == 0)
			s += 8;
		else
			continue;
		if (*s != ' ' && *s != '\t')
			continue;
		s += strspn(s, " \t");
		if (strncmp(s, "PATH=", 5) == 0)
			s += 5;
		s[strcspn(s, " \t\r\n")] = '\0';
		add_path_list(l, s);
	}
	fclose(f);
}

struct printer {
	size_t printed;
	struct buf *report;
};

/* The first ANCHOR_REPORT_CAP findings, as records; anchors_probe() counts them all. */
static void print_finding(void *ctx, const struct anchor_finding *f)
{
	struct printer *pr = ctx;
	if (pr->printed >= ANCHOR_REPORT_CAP)
		return;
	pr->printed++;
	struct report_anchor a = {.path = f->path, .how = f->how, .rel = f->rel, .id = f->id,
				.mode = f->mode, .uid = (unsigned int)f->uid, .gid = (unsigned int)f->gid,
				.acl = f->acl, .anchor = f->anchor};
	report_put_anchor(pr->report, &a);
}

void check_anchors(struct buf *report, const struct payload *p, const char *sudo_listing)
{
	struct list l = {NULL, 0, NULL, 0, 0};
	for (size_t i = 0; i < anchor_table_len; i++)
		if (anchor_table[i].path)
			add(&l, anchor_table[i].path, &anchor_table[i]);
	add_login_defs(&l);
	char *sp = anchors_secure_path(sudo_listing);
	add_path_list(&l, sp);
	free(sp);
	if (p->sudo_path && *p->sudo_path)
		add(&l, p->sudo_path, anchor_by_id("sudo"));
	char *self = realpath("/proc/self/exe", NULL);
	if (self && strv_push(&l.owned, &l.nowned, self) == 0)
		add(&l, self, anchor_by_id("helper"));
	for (size_t i = 0; i < p->nanchors; i++) {
		/* "ID PATH", from the library: ids name entries whose path is NULL. */
		const char *sp2 = strchr(p->anchors[i], ' ');
		char id[ANCHOR_ID_MAX + 1];
		size_t n = sp2 ? (size_t)(sp2 - p->anchors[i]) : 0;
		if (!n || n > ANCHOR_ID_MAX)
			continue;
		memcpy(id, p->anchors[i], n);
		id[n] = '\0';
		const struct anchor_def *d = anchor_by_id(id);
		if (d && !d->path)
			add(&l, sp2 + 1, d);
	}
	/* The target's own crontab is named after it: the payload's name (no user database here). */
	struct printer pr = {0, report};
	size_t total = anchors_probe(l.items, l.n, p->user, p->judged_trees, p->njudged_trees,
				     print_finding, &pr);
	/*
	 * Out of memory, some were not judged: no summary then, and the library
	 * refuses a report without one.
	 */
	if (!l.oom)
		report_put_anchors(report, total);
	free(l.items);
	for (size_t i = 0; i < l.nowned; i++)
		free(l.owned[i]);
	free(l.owned);
}
