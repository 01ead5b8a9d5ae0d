/* SPDX-License-Identifier: ISC */
/*
 * env_rules.h - the variables that may never cross from the supervisor to an
 * agent, as data (src/common/env_rules.c; docs/run-as-user.md lists the same).
 */
#ifndef RUAS_ENV_RULES_H
#define RUAS_ENV_RULES_H

#include <stddef.h>

struct env_rule {
	const char *name; /* a variable, or with `prefix` the start of a family */
	int prefix;
	/* Follows the quoted name in a message: "\"GIT_SSH\" <why>". */
	const char *why;
};

/* The whole table, for tests and documentation checks; *n entries. */
const struct env_rule *env_rules(size_t *n);
/* The rule that covers `name`, or NULL when none does. */
const struct env_rule *env_rule_find(const char *name);

#endif
