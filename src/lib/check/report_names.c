/* SPDX-License-Identifier: ISC */
/* report_names.c - see report_names.h. */
#include "check/report_names.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few distinct owners a report names, each looked up once. */
#define CACHE 16
struct cache {
	struct {
		unsigned int id;
		int group;
		char *name;
	} e[CACHE];
	size_t n;
};

static char *lookup(unsigned int id, int group)
{
	char mem[16384], num[16];
	if (id == REPORT_UID_UNKNOWN)
		return strdup("?");
	if (group) {
		struct group gr, *res = NULL;
		if (getgrgid_r((gid_t)id, &gr, mem, sizeof mem, &res) == 0 && res)
			return strdup(res->gr_name);
	} else {
		struct passwd pw, *res = NULL;
		if (getpwuid_r((uid_t)id, &pw, mem, sizeof mem, &res) == 0 && res)
			return strdup(res->pw_name);
	}
	snprintf(num, sizeof num, "%u", id);
	return strdup(num);
}

static char *name_of(struct cache *c, unsigned int id, int group)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].id == id && c->e[i].group == group)
			return strdup(c->e[i].name);
	char *name = lookup(id, group);
	if (name && c->n < CACHE) {
		char *kept = strdup(name);
		if (kept) {
			c->e[c->n].id = id;
			c->e[c->n].group = group;
			c->e[c->n++].name = kept;
		}
	}
	return name;
}

static int fill(struct cache *c, char **field, unsigned int id, int group)
{
	free(*field);
	*field = name_of(c, id, group);
	return *field ? 0 : -1;
}

int report_names_fill(struct helper_report *r)
{
	struct cache c = {.n = 0};
	int bad = 0;
	for (size_t i = 0; r->dirs && i < r->ndirs; i++) {
		struct dir_result *d = &r->dirs[i];
		if (d->state == DIR_DENIED)
			bad |= fill(&c, &d->owner, d->uid, 0);
		for (size_t k = 0; k < d->nitems; k++)
			bad |= fill(&c, &d->items[k].owner, d->items[k].uid, 0);
	}
	for (size_t i = 0; r->anchors && i < r->nanchors; i++) {
		bad |= fill(&c, &r->anchors[i].owner, r->anchors[i].uid, 0);
		bad |= fill(&c, &r->anchors[i].group, r->anchors[i].gid, 1);
	}
	for (size_t i = 0; i < c.n; i++)
		free(c.e[i].name);
	return bad ? -1 : 0;
}
