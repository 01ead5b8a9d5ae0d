/*
 * new.c - a configuration built in code: ruas_config_new() with its
 * globals, ruas_config_add_project() for each project. The structs the
 * embedder fills are sources of the schema like a file's groups
 * (source.c), so the same rules judge them; nothing here writes or parses
 * configuration text.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config/loader.h"
#include "error.h"

#define NEW_NAME "(ruas_config_new)"

#define GLOBAL(key, type) {#key, type, offsetof(ruas_config_globals, key)}
static const struct src_field globals_fields[] = {
	GLOBAL(env_allowlist, SRC_LIST),
	GLOBAL(sudo, SRC_STRING),
	GLOBAL(helper, SRC_STRING),
	GLOBAL(session_helper, SRC_STRING),
	GLOBAL(scan_prune, SRC_LIST),
	GLOBAL(scan_time_limit, SRC_INT),
	GLOBAL(backend, SRC_STRING),
	GLOBAL(pam_service, SRC_STRING),
	GLOBAL(terminate_grace, SRC_INT),
	GLOBAL(target_sudo_allowed, SRC_LIST),
	GLOBAL(lifetime, SRC_STRING),
	{NULL, SRC_STRING, 0},
};

#define PROJECT(key, type) {#key, type, offsetof(ruas_project_spec, key)}
static const struct src_field project_fields[] = {
	PROJECT(name, SRC_STRING),
	PROJECT(work_dir, SRC_STRING),
	PROJECT(command, SRC_LIST),
	PROJECT(run_as_user, SRC_STRING),
	PROJECT(env_allowlist, SRC_LIST),
	PROJECT(person, SRC_STRING),
	PROJECT(deny_settings_args, SRC_LIST),
	PROJECT(scan_prune, SRC_LIST),
	PROJECT(target_sudo_allowed, SRC_LIST),
	PROJECT(backend, SRC_STRING),
	PROJECT(pam_service, SRC_STRING),
	PROJECT(terminate_grace, SRC_INT),
	PROJECT(lifetime, SRC_STRING),
	{NULL, SRC_STRING, 0},
};

int ruas_config_new(ruas_config **out, const ruas_config_globals *globals,
		    const ruas_config_options *opts, ruas_error **err)
{
	static const ruas_config_globals none = RUAS_CONFIG_GLOBALS_INIT;
	struct loader ld = {NULL, err, NULL, NULL};

	if (!out)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0, "ruas_config_new: out is NULL");
	*out = NULL;
	if (error_options_version(err, "ruas_config_new", opts ? &opts->version : NULL,
				  RUAS_CONFIG_OPTIONS_VERSION, RUAS_CONFIG_OPTIONS_VERSION) ||
	    error_options_version(err, "ruas_config_new", globals ? &globals->version : NULL,
				  RUAS_CONFIG_GLOBALS_VERSION, RUAS_CONFIG_GLOBALS_VERSION))
		return RUAS_ERR_INVALID;
	if (!globals)
		globals = &none;
	ld.cfg = calloc(1, sizeof *ld.cfg);
	struct src s = {NULL, globals, globals_fields};
	int r = !ld.cfg || !(ld.cfg->path = strdup(globals->name ? globals->name : NEW_NAME))
			? ld_oom(&ld)
			: ld_set_supervisor(&ld, opts);
	if (r == 0)
		r = schema_globals(&ld, &s);
	if (r < 0) {
		ruas_config_free(ld.cfg);
		return r;
	}
	*out = ld.cfg;
	return 0;
}

int ruas_config_add_project(ruas_config *cfg, const ruas_project_spec *spec, ruas_error **err)
{
	struct loader ld = {NULL, err, cfg, NULL};

	if (!cfg || !spec)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_config_add_project: %s is NULL", cfg ? "spec" : "cfg");
	if (error_options_version(err, "ruas_config_add_project", &spec->version,
				  RUAS_PROJECT_SPEC_VERSION, RUAS_PROJECT_SPEC_VERSION))
		return RUAS_ERR_INVALID;
	struct src s = {NULL, spec, project_fields};
	return schema_add_project(&ld, &s);
}
