/* SPDX-License-Identifier: ISC */
/*
 * people.c - the people block of ruas.conf: who the people are (an id and
 * the account each runs as), where their worktrees and the shared
 * credentials live, and the lookups that deny and spawn make on it. A
 * block from a file and one built in code (ruas_config_set_people) pass
 * through the same code here, so they meet the same refusals.
 */
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config/loader.h"
#include "path.h"
#include "quote.h"

static const char *const people_keys[] = {"worktrees", "credentials",
					  "claude_projects", "enforce",
					  "members", NULL};
static const char *const member_keys[] = {"id", "run_as_user", NULL};

static int person_id_valid(const char *id)
{
	if (!((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= '0' && id[0] <= '9')) ||
	    strlen(id) > 64)
		return 0;
	for (const char *c = id; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
		      *c == '-'))
			return 0;
	return 1;
}

/*
 * Whether one of the first n members has id. Each of them has one, since
 * it passed; the check for NULL is for the analyzer, which cannot see that.
 */
static int id_taken(const struct ruas_people *pp, size_t n, const char *id)
{
	for (size_t j = 0; j < n; j++)
		if (pp->members[j].id && strcmp(pp->members[j].id, id) == 0)
			return 1;
	return 0;
}

/* Member i of pp, validated; the i before it are pp's already. */
static int person_add(struct loader *ld, const struct src *m, struct ruas_people *pp, size_t i)
{
	struct ruas_person *pe = &pp->members[i];
	struct src_val id, user;
	int r;

	pp->nmembers = i + 1;
	pe->line = src_line(m);
	if ((r = src_keys(ld, m, member_keys, "in a people member")) < 0 ||
	    (r = src_string(ld, m, "id", &id)) < 0 ||
	    (r = src_string(ld, m, "run_as_user", &user)) < 0)
		return r;
	if (!id.present || !user.present)
		return ld_fail_at(ld, pe->line, "people: a member needs id and run_as_user");
	if (!person_id_valid(id.str)) {
		struct buf q = BUF_INIT;
		quote_display_dq(&q, id.str);
		r = ld_fail_at(ld, pe->line,
			       "people: member id %s is invalid (pattern ^[a-z0-9][a-z0-9_-]*$)",
			       q.data ? q.data : "");
		buf_free(&q);
		return r;
	}
	if (id_taken(pp, i, id.str))
		return ld_fail_at(ld, pe->line, "people: duplicate member id \"%s\"", id.str);
	if ((r = ld_run_as_user(ld, user.line, user.str)) < 0)
		return r;
	if (ld_dup(ld, &pe->id, id.str) < 0 || ld_dup(ld, &pe->run_as_user, user.str) < 0)
		return RUAS_ERR_NOMEM;
	return 0;
}

/* The paths and enforce. */
static int people_settings(struct loader *ld, const struct src *s, struct ruas_people *pp)
{
	struct src_val enforce;
	int r;

	if ((r = ld_abs_path(ld, s, "people: ", "worktrees", 1, NULL, &pp->worktrees)) < 0 ||
	    (r = ld_abs_path(ld, s, "people: ", "credentials", 1, NULL, &pp->credentials)) < 0 ||
	    (r = ld_abs_path(ld, s, "people: ", "claude_projects", 0, NULL,
			     &pp->claude_projects)) < 0 ||
	    (r = src_string(ld, s, "enforce", &enforce)) < 0)
		return r;
	if (enforce.present && strcmp(enforce.str, "bwrap") != 0 &&
	    strcmp(enforce.str, "none") != 0)
		return ld_fail_at(ld, enforce.line,
				  "people: enforce must be \"none\" or \"bwrap\"");
	pp->enforce_bwrap = enforce.present && strcmp(enforce.str, "bwrap") == 0;
	return 0;
}

/* The members, in order. */
static int people_members(struct loader *ld, const struct src *s, struct ruas_people *pp)
{
	struct src_val ms;
	int r;

	if ((r = src_groups(ld, s, "members",
			    "people: members must be a list: members = ( { ... } );", &ms)) < 0)
		return r;
	if (!ms.present)
		return ld_fail_at(ld, src_line(s), "people: missing key \"members\"");
	if (!(pp->members = calloc(ms.n + 1, sizeof *pp->members)))
		return ld_oom(ld);
	for (size_t i = 0; i < ms.n; i++) {
		struct src m;
		if ((r = src_group_at(ld, &ms, i,
				      "people: each member must be a group { id = ...; "
				      "run_as_user = ...; }",
				      &m)) < 0 ||
		    (r = person_add(ld, &m, pp, i)) < 0)
			return r;
	}
	return 0;
}

int schema_people(struct loader *ld, const struct src *s)
{
	struct ruas_people *pp;
	int r;

	ld->project = NULL;
	if ((r = src_keys(ld, s, people_keys, "in people")) < 0)
		return r;
	if (!(pp = calloc(1, sizeof *pp)))
		return ld_oom(ld);
	if ((r = people_settings(ld, s, pp)) < 0 || (r = people_members(ld, s, pp)) < 0) {
		people_free(pp);
		return r;
	}
	ld->cfg->people = pp;
	return 0;
}

int load_people(struct loader *ld, config_t *lc)
{
	config_setting_t *g = config_setting_get_member(config_root_setting(lc), "people");
	if (!g)
		return 0;
	if (!config_setting_is_group(g))
		return ld_fail(ld, g, "people must be a group: people = { ... };");
	struct src gs = src_group(g);
	return schema_people(ld, &gs);
}

void people_free(struct ruas_people *pp)
{
	if (!pp)
		return;
	for (size_t i = 0; i < pp->nmembers; i++) {
		free(pp->members[i].id);
		free(pp->members[i].run_as_user);
	}
	free(pp->members);
	free(pp->worktrees);
	free(pp->credentials);
	free(pp->claude_projects);
	free(pp);
}

const struct ruas_person *people_find(const struct ruas_config *cfg, const char *id)
{
	for (size_t i = 0; cfg->people && i < cfg->people->nmembers; i++)
		if (strcmp(cfg->people->members[i].id, id) == 0)
			return &cfg->people->members[i];
	return NULL;
}

char *people_scope(const struct ruas_people *pp, const char *id)
{
	return path_join(pp->worktrees, id);
}
