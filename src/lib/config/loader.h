/* SPDX-License-Identifier: ISC */
/*
 * loader.h - the state of one load of configuration, and the helpers that
 * the schema (config.c, project.c), the people block (people.c), the
 * sources of values (source.c) and the entry points (file.c, new.c) share.
 * Private to src/lib/config: the rest of libruas sees the result through
 * config_int.h and needs no libconfig.
 *
 * Values come from a source (struct src): a group of a parsed file, or a
 * struct that the embedder filled in code (ruas_config_globals,
 * ruas_project_spec, ruas_people_spec). Only a file can hold a value of the wrong type or an
 * unknown key, so only source.c knows the difference; every other rule is
 * written once, in the schema, for both.
 */
#ifndef RUAS_CONFIG_LOADER_H
#define RUAS_CONFIG_LOADER_H

#include <libconfig.h>
#include <string.h>

#include "config/config_int.h"
#include "ruas.h"

struct loader {
	const char *file; /* NULL: values from code, so messages name no file or line */
	ruas_error **err;
	struct ruas_config *cfg;
	const char *project; /* the project being read, for messages */
};

/* ------------------------------------------------------------ messages */

/*
 * Sets *ld->err to "FILE[:LINE]: [project "NAME": ]MESSAGE", LINE being s's
 * (none for a NULL s), or without a file "[project "NAME": ]MESSAGE";
 * returns RUAS_ERR_CONFIG.
 */
int ld_fail(struct loader *ld, const config_setting_t *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same at a line (0: none). */
int ld_fail_at(struct loader *ld, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "[FILE: ]out of memory"; returns RUAS_ERR_NOMEM. */
int ld_oom(struct loader *ld);
/* s's line in the file, 0 for NULL. */
static inline int ld_line(const config_setting_t *s)
{
	return s ? (int)config_setting_source_line(s) : 0;
}
/* *dst = strdup(src), or ld_oom(). Inline, so that the analyzer sees *dst set. */
static inline int ld_dup(struct loader *ld, char **dst, const char *src)
{
	*dst = strdup(src);
	return *dst ? 0 : ld_oom(ld);
}

/* ------------------------------------------------------------- sources */

/* SRC_GROUPS: a file's list of groups, ( { ... }, ... ); in code an array of structs. */
/*
 * SRC_BOOL: a file's true/false, an int (RUAS_UNSET, 0 or 1) in code.
 * SRC_SIZE: a file's whole number (64-bit too) or string ("64M"), a string
 * in code; the schema reads the string (ld_size()).
 * SRC_DECIMAL: a file's number (whole or not) or string ("0.5"), a string
 * in code.
 */
enum src_type { SRC_STRING, SRC_LIST, SRC_INT, SRC_GROUPS, SRC_BOOL, SRC_SIZE, SRC_DECIMAL };

struct src_array;

/* A key of a struct filled in code, and where its field is. */
struct src_field {
	const char *key;
	enum src_type type;
	size_t offset;
	const struct src_array *array; /* SRC_GROUPS only */
};

/* An array of structs (a pointer at the field's offset) and its length. */
struct src_array {
	size_t count_offset; /* of the size_t that holds the length */
	size_t elem_size;
	const struct src_field *fields; /* each element's */
};

struct src {
	const config_setting_t *group; /* a file's group; NULL: st */
	const void *st;
	const struct src_field *fields; /* st's, ending with a NULL key */
};

static inline struct src src_group(const config_setting_t *group)
{
	struct src s = {group, NULL, NULL};
	return s;
}

/* One value: present or not, its line (0 without a file), and what it holds. */
struct src_val {
	int present;
	int line;
	const char *str;                 /* SRC_STRING */
	int num;                         /* SRC_INT, SRC_BOOL */
	long long num64;                 /* SRC_SIZE, SRC_DECIMAL given as a whole number */
	double dbl;                      /* SRC_DECIMAL given as a number with a point */
	int is_float;                    /* ... which it was */
	size_t n;                        /* SRC_LIST: how many elements */
	const config_setting_t *setting; /* SRC_LIST, SRC_GROUPS from a file */
	const char *const *strv;         /* SRC_LIST from code */
	const void *elems;               /* SRC_GROUPS from code */
	const struct src_array *array;   /* SRC_GROUPS from code */
};

/* The line of the group itself (for "missing key" and the like), 0 from code. */
int src_line(const struct src *s);
/* Whether key is given at all, whatever its type; *line is its line. */
int src_has(const struct src *s, const char *key, int *line);
/* Refuses a member of a file's group that is not in allowed; nothing from code. */
int src_keys(struct loader *ld, const struct src *s, const char *const *allowed,
	     const char *where);
/* An optional string: 0 with v->present, or a refusal of its type. */
int src_string(struct loader *ld, const struct src *s, const char *key, struct src_val *v);
/* An optional list of strings; its elements through src_elem(). */
int src_list(struct loader *ld, const struct src *s, const char *key, struct src_val *v);
/* Element i of list v: 0 with *str and *line, or a refusal of its type. */
int src_elem(struct loader *ld, const struct src_val *v, const char *key, size_t i,
	     const char **str, int *line);
/* An optional whole number; a file's value of another type is refused with type_msg. */
int src_int(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	    struct src_val *v);

/* An optional true or false; a file's value of another type is refused with type_msg. */
int src_bool(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	     struct src_val *v);
/* An optional size: a number (num64) or a string (str); another type: type_msg. */
int src_size(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	     struct src_val *v);
/* An optional decimal: a whole number (num64), one with a point (dbl) or a string (str). */
int src_decimal(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
		struct src_val *v);

/*
 * An optional list of groups; a file's value of another type is refused
 * with type_msg. Its elements through src_group_at().
 */
int src_groups(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	       struct src_val *v);
/* Element i of groups v as a source of its own; a file's element that is no group: type_msg. */
int src_group_at(struct loader *ld, const struct src_val *v, size_t i, const char *type_msg,
		 struct src *out);

/* A file's group: refuses a member not in allowed; `where` places it ("in a project"). */
int ld_check_keys(struct loader *ld, const config_setting_t *group,
		  const char *const *allowed, const char *where);
/* A file's group: an optional string; *out stays NULL when absent. */
int ld_get_string(struct loader *ld, const config_setting_t *group,
		  const char *key, const char **out);

/* -------------------------------------------------------------- values */

/*
 * A list of strings under key, when given: appends each to *vec
 * (NULL-terminated), skipping duplicates when `dedup`; `check` returns NULL
 * or a refusal. *given says whether the key was there (may be NULL).
 */
int ld_get_list(struct loader *ld, const struct src *s, const char *key, char ***vec,
		size_t *n, int dedup, const char *(*check)(const char *), int *given);
/* Appends a copy of each of src to *vec, which is then never NULL. */
int ld_copy_strv(struct loader *ld, const char *const *src, char ***vec, size_t *n);
/* scan_prune: a plain file name. */
const char *ld_prune_problem(const char *v);
/*
 * An absolute path under `key`, or dflt when absent (NULL: none, unless
 * required). `where` prefixes messages ("" or "people: ").
 */
int ld_abs_path(struct loader *ld, const struct src *s, const char *where, const char *key,
		int required, const char *dflt, char **out);
/* Refuses a run_as_user that is invalid, root, uid 0 or the supervisor. */
int ld_run_as_user(struct loader *ld, int line, const char *user);
/* backend, pam_service, terminate_grace: *out keeps its value when absent. */
int ld_backend(struct loader *ld, const struct src *s, enum backend *out);
int ld_service(struct loader *ld, const struct src *s, const char **out);
int ld_grace(struct loader *ld, const struct src *s, unsigned int *out);
int ld_lifetime(struct loader *ld, const struct src *s, enum lifetime *out);
/* The limits' keys (limits.c): each kept in *out when absent. */
int ld_limits(struct loader *ld, const struct src *s, struct run_limits *out);
/* require_command (require_command.c): *out kept when absent. */
int ld_require_command(struct loader *ld, const struct src *s, int *out);
/*
 * credentials (credentials.c): the list under the key into *out (left
 * empty when absent; freed by the caller either way); and a project's
 * effective list, the global ones less those its own replace, then its own.
 */
int ld_credentials(struct loader *ld, const struct src *s, struct cred_list *out);
int ld_credentials_merge(struct loader *ld, const struct cred_list *global,
			 const struct cred_list *own, struct cred_list *out);
/* git_hosts (git_hosts.c): as credentials, a project's own replacing the global of the same host. */
int ld_git_hosts(struct loader *ld, const struct src *s, struct git_host_list *out);
int ld_git_hosts_merge(struct loader *ld, const struct git_host_list *global,
		       const struct git_host_list *own, struct git_host_list *out);
/*
 * claude_api_key (credentials.c): a credential name into *out and its line
 * into *line, both kept when absent; and whether a project's effective one
 * is among its effective credentials (a configuration error naming it if not).
 */
int ld_claude_api_key(struct loader *ld, const struct src *s, char **out, int *line);
int ld_claude_api_key_check(struct loader *ld, const struct ruas_project *p, int line);
/* ^[a-z0-9][a-z0-9_.-]*$, at most CRED_NAME_MAX: 1 or 0. */
int cred_name_valid(const char *s);
/*
 * A string under key that must be one of words (NULL-terminated): *index
 * its position; *index kept when absent; refusal, the message, when it is
 * none of them.
 */
int ld_word(struct loader *ld, const struct src *s, const char *key, const char *const *words,
	    const char *refusal, int *index);

/* -------------------------------------------------------------- schema */

/* The supervisor (opts->supervisor_uid, or geteuid()) and its name, into ld->cfg. */
int ld_set_supervisor(struct loader *ld, const ruas_config_options *opts);
/* audit_facility, audit_log, audit_argv, audit_argv_max, into ld->cfg->audit (audit_keys.c). */
int schema_audit(struct loader *ld, const struct src *s);
/* The top-level keys but projects and people, into ld->cfg (config.c). */
int schema_globals(struct loader *ld, const struct src *s);
/*
 * One project, validated and appended to ld->cfg, or refused with ld->cfg
 * unchanged (project.c). Every project, from a file or from code, passes here.
 */
int schema_add_project(struct loader *ld, const struct src *s);
/*
 * The people block, validated and set as ld->cfg->people, or refused with
 * ld->cfg unchanged (people.c). From a file or from code
 * (ruas_config_set_people), every people block passes here.
 */
int schema_people(struct loader *ld, const struct src *s);
/* A file's people block, if it has one, before the projects that name its members. */
int load_people(struct loader *ld, config_t *lc);
/* Frees a people block and what it holds (people.c). */
void people_free(struct ruas_people *pp);
/* Everything below the root of a parsed file: globals, people, projects (file.c). */
int load_schema(struct loader *ld, config_t *lc);
/* Frees a project and what it holds (accessors.c). */
void project_free(struct ruas_project *p);

#endif
