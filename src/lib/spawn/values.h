/* SPDX-License-Identifier: ISC */
/* values.h - the per-spawn values of ruas_spawn_options (set_env, work_dir), checked. */
#ifndef RUAS_SPAWN_VALUES_H
#define RUAS_SPAWN_VALUES_H

#include "config/config_int.h"
#include "ruas.h"

struct spawn_values {
	const char *const *set_env; /* the caller's: allowlisted names, each once; NULL: none */
	/*
	 * A per-spawn work_dir: absolute, spelled beneath the project's
	 * work_dir, without "." or empty components; NULL: the project's own.
	 */
	char *work_dir;
	char *real; /* legacy mode: the real path of the directory checked */
};

/*
 * Checks o's set_env and work_dir for project p of cfg, before anything
 * starts: 0 with *v filled (spawn_values_free() ends it either way), or a
 * ruas_code with *err naming the project, the value and why.
 */
int spawn_values_check(const struct ruas_config *cfg, const struct ruas_project *p,
		       const ruas_spawn_options *o, struct spawn_values *v, ruas_error **err);
void spawn_values_free(struct spawn_values *v);

/*
 * set_env, then every entry of env whose name set_env does not set: the
 * environment with set_env's values over env's. A malloc'd vector of the
 * callers' strings (free only the vector), or NULL when out of memory.
 */
const char **spawn_env_merge(const char *const *set_env, const char *const *env);

#endif
