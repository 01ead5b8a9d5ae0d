/* SPDX-License-Identifier: ISC */
/* report.c - the preflight's findings, per project. */
#include "check/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/messages.h"

struct item {
	ruas_severity severity;
	const char *check; /* static */
	char *text, *fix, *user, *path; /* the last three NULL where none applies */
};

struct rproject {
	char *name;
	struct item *items;
	size_t nitems;
};

struct unjudged {
	char *what, *path;
};

struct ruas_report {
	struct rproject *projects;
	size_t n;
	int fatal;
	struct rproject host; /* findings about the host, not one project */
	struct unjudged *unjudged;
	size_t nunjudged;
};

ruas_report *report_new(const char *const *names, size_t n)
{
	ruas_report *r = calloc(1, sizeof *r);
	if (!r || !(r->projects = calloc(n + 1, sizeof *r->projects))) {
		free(r);
		return NULL;
	}
	r->n = n;
	for (size_t i = 0; i < n; i++)
		if (!(r->projects[i].name = strdup(names[i]))) {
			ruas_report_free(r);
			return NULL;
		}
	return r;
}

static void item_free(struct item *it)
{
	free(it->text);
	free(it->fix);
	free(it->user);
	free(it->path);
}

static int item_add(ruas_report *r, struct rproject *p, ruas_severity sev, const char *check,
		    const char *user, const char *path, struct words w)
{
	struct item n = {sev, check, w.text, w.fix, user ? strdup(user) : NULL,
			 path ? strdup(path) : NULL};
	struct item *it = n.text && (!user || n.user) && (!path || n.path)
				  ? realloc(p->items, (p->nitems + 1) * sizeof *it)
				  : NULL;
	if (!it) {
		item_free(&n);
		return -1;
	}
	p->items = it;
	it[p->nitems++] = n;
	if (sev == RUAS_SEVERITY_FATAL)
		r->fatal = 1;
	return 0;
}

int report_add(ruas_report *r, size_t project, ruas_severity sev, const char *check,
	       const char *user, const char *path, struct words w)
{
	return item_add(r, &r->projects[project], sev, check, user, path, w);
}

int report_host_add(ruas_report *r, ruas_severity sev, const char *check, const char *path,
		    struct words w)
{
	return item_add(r, &r->host, sev, check, NULL, path, w);
}

int report_unjudged(ruas_report *r, const char *what, const char *path)
{
	for (size_t i = 0; i < r->nunjudged; i++)
		if (strcmp(r->unjudged[i].path, path) == 0)
			return 0;
	struct unjudged *u = realloc(r->unjudged, (r->nunjudged + 1) * sizeof *u);
	if (!u)
		return -1;
	r->unjudged = u;
	u[r->nunjudged] = (struct unjudged){strdup(what), strdup(path)};
	if (!u[r->nunjudged].what || !u[r->nunjudged].path) {
		free(u[r->nunjudged].what);
		free(u[r->nunjudged].path);
		return -1;
	}
	r->nunjudged++;
	return 0;
}

static void items_free(struct rproject *p)
{
	for (size_t j = 0; j < p->nitems; j++)
		item_free(&p->items[j]);
	free(p->items);
	free(p->name);
}

void ruas_report_free(ruas_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		items_free(&r->projects[i]);
	items_free(&r->host);
	for (size_t i = 0; i < r->nunjudged; i++) {
		free(r->unjudged[i].what);
		free(r->unjudged[i].path);
	}
	free(r->unjudged);
	free(r->projects);
	free(r);
}

int ruas_report_has_fatal(const ruas_report *r) { return r->fatal; }
size_t ruas_report_project_count(const ruas_report *r) { return r->n; }

const char *ruas_report_project_name(const ruas_report *r, size_t p)
{
	return p < r->n ? r->projects[p].name : NULL;
}

size_t ruas_report_item_count(const ruas_report *r, size_t p)
{
	return p < r->n ? r->projects[p].nitems : 0;
}

static const struct item *item_at(const ruas_report *r, size_t p, size_t i)
{
	if (!r || p >= r->n || i >= r->projects[p].nitems)
		return NULL;
	return &r->projects[p].items[i];
}

ruas_severity ruas_report_item_severity(const ruas_report *r, size_t p, size_t i)
{
	const struct item *it = item_at(r, p, i);
	return it ? it->severity : (ruas_severity)0;
}

enum field { F_CHECK, F_TEXT, F_USER, F_PATH, F_FIX };

/* A string of item it (NULL: none, or no item). */
static const char *field(const struct item *it, enum field f)
{
	if (!it)
		return NULL;
	switch (f) {
	case F_CHECK:
		return it->check;
	case F_TEXT:
		return it->text;
	case F_USER:
		return it->user;
	case F_PATH:
		return it->path;
	default:
		return it->fix;
	}
}

const char *ruas_report_item_check(const ruas_report *r, size_t p, size_t i)
{
	return field(item_at(r, p, i), F_CHECK);
}

const char *ruas_report_item_text(const ruas_report *r, size_t p, size_t i)
{
	return field(item_at(r, p, i), F_TEXT);
}

const char *ruas_report_item_user(const ruas_report *r, size_t p, size_t i)
{
	return field(item_at(r, p, i), F_USER);
}

const char *ruas_report_item_path(const ruas_report *r, size_t p, size_t i)
{
	return field(item_at(r, p, i), F_PATH);
}

const char *ruas_report_item_fix(const ruas_report *r, size_t p, size_t i)
{
	return field(item_at(r, p, i), F_FIX);
}

size_t ruas_report_host_count(const ruas_report *r)
{
	return r ? r->host.nitems : 0;
}

static const struct item *host_at(const ruas_report *r, size_t i)
{
	return r && i < r->host.nitems ? &r->host.items[i] : NULL;
}

ruas_severity ruas_report_host_severity(const ruas_report *r, size_t i)
{
	const struct item *it = host_at(r, i);
	return it ? it->severity : RUAS_SEVERITY_NONE;
}

const char *ruas_report_host_check(const ruas_report *r, size_t i)
{
	return field(host_at(r, i), F_CHECK);
}

const char *ruas_report_host_text(const ruas_report *r, size_t i)
{
	return field(host_at(r, i), F_TEXT);
}

const char *ruas_report_host_path(const ruas_report *r, size_t i)
{
	return field(host_at(r, i), F_PATH);
}

const char *ruas_report_host_fix(const ruas_report *r, size_t i)
{
	return field(host_at(r, i), F_FIX);
}

size_t ruas_report_unjudged_count(const ruas_report *r)
{
	return r ? r->nunjudged : 0;
}

const char *ruas_report_unjudged_what(const ruas_report *r, size_t i)
{
	return r && i < r->nunjudged ? r->unjudged[i].what : NULL;
}

const char *ruas_report_unjudged_path(const ruas_report *r, size_t i)
{
	return r && i < r->nunjudged ? r->unjudged[i].path : NULL;
}

int report_groups(ruas_report *r, size_t project, const char *project_name,
		  const char *user, const struct group_hits *g, int failed)
{
	int rc = 0, fatal = 0, warn = 0;
	if (failed)
		return report_add(r, project, RUAS_SEVERITY_FATAL, "groups", user, NULL,
				  msg_internal_errno(project_name, user,
						     "its groups could not be read from the "
						     "group database",
						     failed == EMFILE || failed == ENFILE ? failed : 0));
	for (size_t i = 0; i < g->n; i++) {
		fatal |= g->v[i].severity == RUAS_SEVERITY_FATAL;
		warn |= g->v[i].severity == RUAS_SEVERITY_WARNING;
	}
	if (fatal)
		rc |= report_add(r, project, RUAS_SEVERITY_FATAL, "groups", user, NULL,
				 msg_group_fatal(project_name, user, g->v, g->n));
	if (warn)
		rc |= report_add(r, project, RUAS_SEVERITY_WARNING, "groups", user, NULL,
				 msg_group_warning(project_name, user, g->v, g->n));
	return rc;
}
