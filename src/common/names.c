/* SPDX-License-Identifier: ISC */
/* names.c - name validation. Fail closed: anything unusual is refused. */
#include "names.h"

#include "env_rules.h"

#include <string.h>

const char *user_name_problem(const char *name)
{
	size_t n = strlen(name);
	if (n == 0)
		return "is empty";
	if (n > RUAS_USER_NAME_MAX)
		return "is longer than 32 bytes";
	if (!((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_'))
		return "must start with a lower-case letter or '_' "
		       "(names like ALL, #uid, %group, +netgroup or -x mean "
		       "something else to sudo)";
	for (size_t i = 1; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return "may contain only a-z, 0-9, '_' and '-' "
			       "(pattern ^[a-z_][a-z0-9_-]*$)";
	}
	return NULL;
}

static int is_alpha_(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

int env_name_is_identifier(const char *name)
{
	if (!is_alpha_(name[0]))
		return 0;
	for (const char *p = name + 1; *p; p++)
		if (!is_alpha_(*p) && !(*p >= '0' && *p <= '9'))
			return 0;
	return 1;
}

const char *env_name_refusal(const char *name)
{
	if (!env_name_is_identifier(name))
		return "is not a variable name (pattern ^[A-Za-z_][A-Za-z0-9_]*$)";
	const struct env_rule *r = env_rule_find(name);
	return r ? r->why : NULL;
}

int project_name_is_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 128)
		return 0;
	if (!((name[0] >= 'a' && name[0] <= 'z') ||
	      (name[0] >= 'A' && name[0] <= 'Z') ||
	      (name[0] >= '0' && name[0] <= '9')))
		return 0;
	for (size_t i = 1; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_.@+-", c)))
			return 0;
	}
	return 1;
}
