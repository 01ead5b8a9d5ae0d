/* SPDX-License-Identifier: ISC */
/* names.h - what counts as a safe user name, variable name or project name. */
#ifndef RUAS_NAMES_H
#define RUAS_NAMES_H

#define RUAS_USER_NAME_MAX 32

/*
 * A plain user name: ^[a-z_][a-z0-9_-]*$, at most 32 bytes. Such a name
 * cannot be read by sudoers as anything else (no ALL, alias, #uid, %group,
 * +netgroup, separators or whitespace). NULL when fine, else the reason.
 */
const char *user_name_problem(const char *name);

/* ^[A-Za-z_][A-Za-z0-9_]*$ */
int env_name_is_identifier(const char *name);
/*
 * Variables that would subvert the target's login environment, its shell,
 * its loader or its tools if the supervisor could set them (the table in
 * env_rules.c). NULL when the name may cross, else why not.
 */
const char *env_name_refusal(const char *name);

/* ^[A-Za-z0-9][A-Za-z0-9_.@+-]*$, at most 128 bytes. */
int project_name_is_valid(const char *name);

#endif
