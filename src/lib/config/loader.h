/*
 * loader.h - the state of one load of ruas.conf, and the helpers that the
 * schema (config.c), the people block (people.c) and the entry points
 * (file.c) share. Private to src/lib/config: the rest of libruas sees the
 * result through config_int.h and needs no libconfig.
 */
#ifndef RUAS_CONFIG_LOADER_H
#define RUAS_CONFIG_LOADER_H

#include <libconfig.h>
#include <string.h>

#include "config/config_int.h"
#include "ruas.h"

struct loader {
	const char *file;
	ruas_error **err;
	struct ruas_config *cfg;
	const char *project; /* the project being read, for messages */
};

/*
 * Sets *ld->err to "FILE[:LINE]: [project "NAME": ]MESSAGE", LINE being s's
 * (none for a NULL s); returns RUAS_ERR_CONFIG.
 */
int ld_fail(struct loader *ld, const config_setting_t *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "FILE: out of memory"; returns RUAS_ERR_NOMEM. */
int ld_oom(struct loader *ld);
/* Refuses a member of group not in allowed; `where` places it ("in a project"). */
int ld_check_keys(struct loader *ld, const config_setting_t *group,
		  const char *const *allowed, const char *where);
/* Optional string; *out stays NULL when absent. */
int ld_get_string(struct loader *ld, const config_setting_t *group,
		  const char *key, const char **out);
/* *dst = strdup(src), or ld_oom(). Inline, so that the analyzer sees *dst set. */
static inline int ld_dup(struct loader *ld, char **dst, const char *src)
{
	*dst = strdup(src);
	return *dst ? 0 : ld_oom(ld);
}
/*
 * An absolute path under `key` of group g, or dflt when absent (NULL: none,
 * unless required). `where` prefixes messages ("" or "people: ").
 */
int ld_abs_path(struct loader *ld, const config_setting_t *g, const char *where,
		const char *key, int required, const char *dflt, char **out);
/* Refuses a run_as_user that is invalid, root, uid 0 or the supervisor. */
int ld_run_as_user(struct loader *ld, const config_setting_t *s, const char *user);

/* The people block, before the projects that name its members (people.c). */
int load_people(struct loader *ld, config_t *lc);
/* Everything below the root of a parsed file: globals, people, projects (config.c). */
int load_schema(struct loader *ld, config_t *lc);

#endif
