/* SPDX-License-Identifier: ISC */
/* deny.h - what each person's agent must not see. */
#ifndef RUAS_DENY_H
#define RUAS_DENY_H

#include <stddef.h>

#include "config/config_int.h"

struct deny_list {
	char **paths; /* NULL-terminated, absolute */
	size_t n;
	char **warnings; /* NULL-terminated, one line each */
	size_t nwarn;
};

/* Claude Code's project directory name: every byte not [A-Za-z0-9] becomes '-'. */
char *claude_slug(const char *path);

/*
 * Person `id`'s list, computed now from the real filesystem: the credentials
 * root, every other person's scope, and each directory in claude_projects
 * that belongs to another person. A directory belongs to the person whose
 * scope's slug it equals or extends at a '-' boundary; when several
 * people's slugs fit (ids "bob" and "bob-x": is "-wt-bob-x-r" bob's "x-r" or
 * bob-x's "r"?) it is ambiguous, denied to everyone, and warned about.
 * 0, or a ruas_code with *err set.
 */
int deny_list_compute(const struct ruas_config *cfg, const char *id,
		      struct deny_list *out, ruas_error **err);
void deny_list_free(struct deny_list *d);

/*
 * Claude Code settings JSON: permissions.deny Read/Edit rules and
 * sandbox.filesystem.denyRead; with api_key (a credential name, not NULL)
 * also apiKeyHelper "ruas-credential API_KEY", which the agent's Claude Code
 * runs for its API key (found through the target's PATH). NULL when out of
 * memory.
 */
char *deny_claude_settings(const struct deny_list *d, const char *api_key);

#endif
