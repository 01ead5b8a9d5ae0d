/*
 * people.c - the people block of ruas.conf: who the people are (an id and
 * the account each runs as), where their worktrees and the shared
 * credentials live, and the lookups that deny and spawn make on it.
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

int load_people(struct loader *ld, config_t *lc)
{
	config_setting_t *g = config_setting_get_member(config_root_setting(lc), "people");
	int r;
	if (!g)
		return 0;
	if (!config_setting_is_group(g))
		return ld_fail(ld, g, "people must be a group: people = { ... };");
	if ((r = ld_check_keys(ld, g, people_keys, "in people")) < 0)
		return r;
	struct ruas_people *pp = calloc(1, sizeof *pp);
	if (!pp)
		return ld_oom(ld);
	ld->cfg->people = pp;
	struct src gs = src_group(g);
	if ((r = ld_abs_path(ld, &gs, "people: ", "worktrees", 1, NULL, &pp->worktrees)) < 0 ||
	    (r = ld_abs_path(ld, &gs, "people: ", "credentials", 1, NULL, &pp->credentials)) < 0 ||
	    (r = ld_abs_path(ld, &gs, "people: ", "claude_projects", 0, NULL,
			     &pp->claude_projects)) < 0)
		return r;
	const char *enforce;
	if ((r = ld_get_string(ld, g, "enforce", &enforce)) < 0)
		return r;
	if (enforce && strcmp(enforce, "bwrap") != 0 && strcmp(enforce, "none") != 0)
		return ld_fail(ld, config_setting_get_member(g, "enforce"),
			       "people: enforce must be \"none\" or \"bwrap\"");
	pp->enforce_bwrap = enforce && strcmp(enforce, "bwrap") == 0;
	config_setting_t *ms = config_setting_get_member(g, "members");
	if (!ms)
		return ld_fail(ld, g, "people: missing key \"members\"");
	if (config_setting_type(ms) != CONFIG_TYPE_LIST)
		return ld_fail(ld, ms, "people: members must be a list: members = ( { ... } );");
	int n = config_setting_length(ms);
	if (!(pp->members = calloc((size_t)n + 1, sizeof *pp->members)))
		return ld_oom(ld);
	for (int i = 0; i < n; i++) {
		config_setting_t *m = config_setting_get_elem(ms, (unsigned)i);
		struct ruas_person *pe = &pp->members[i];
		const char *id, *user;
		pp->nmembers = (size_t)i + 1;
		pe->line = (int)config_setting_source_line(m);
		if (!config_setting_is_group(m))
			return ld_fail(ld, m, "people: each member must be a group { id = ...; run_as_user = ...; }");
		if ((r = ld_check_keys(ld, m, member_keys, "in a people member")) < 0 ||
		    (r = ld_get_string(ld, m, "id", &id)) < 0 ||
		    (r = ld_get_string(ld, m, "run_as_user", &user)) < 0)
			return r;
		if (!id || !user)
			return ld_fail(ld, m, "people: a member needs id and run_as_user");
		if (!person_id_valid(id)) {
			struct buf q = BUF_INIT;
			quote_display_dq(&q, id);
			r = ld_fail(ld, m, "people: member id %s is invalid (pattern ^[a-z0-9][a-z0-9_-]*$)",
				    q.data ? q.data : "");
			buf_free(&q);
			return r;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(pp->members[j].id, id) == 0)
				return ld_fail(ld, m, "people: duplicate member id \"%s\"", id);
		if ((r = ld_run_as_user(ld, ld_line(config_setting_get_member(m, "run_as_user")), user)) < 0)
			return r;
		if (ld_dup(ld, &pe->id, id) < 0 || ld_dup(ld, &pe->run_as_user, user) < 0)
			return RUAS_ERR_NOMEM;
	}
	return 0;
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
