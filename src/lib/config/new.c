/* SPDX-License-Identifier: ISC */
/*
 * new.c - a configuration built in code: ruas_config_new() with its
 * globals, ruas_config_set_people() for its people block, if any, and
 * ruas_config_add_project() for each project. The structs the
 * embedder fills are sources of the schema like a file's groups
 * (source.c), so the same rules judge them; nothing here writes or parses
 * configuration text.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/count.h"
#include "account.h"
#include "buf.h"
#include "config/loader.h"
#include "error.h"
#include "names.h"
#include "quote.h"

#define NEW_NAME "(ruas_config_new)"

#define CREDENTIAL(key, type) {#key, type, offsetof(ruas_credential_spec, key), NULL}
static const struct src_field credential_fields[] = {
	CREDENTIAL(name, SRC_STRING),
	CREDENTIAL(from_env, SRC_STRING),
	CREDENTIAL(from_command, SRC_LIST),
	CREDENTIAL(from_file, SRC_STRING),
	CREDENTIAL(ttl, SRC_INT),
	{NULL, SRC_STRING, 0, NULL},
};
static const struct src_array global_credentials = {
	offsetof(ruas_config_globals, credential_count), sizeof(ruas_credential_spec),
	credential_fields};
static const struct src_array project_credentials = {
	offsetof(ruas_project_spec, credential_count), sizeof(ruas_credential_spec),
	credential_fields};

#define GIT_HOST(key) {#key, SRC_STRING, offsetof(ruas_git_host_spec, key), NULL}
static const struct src_field git_host_fields[] = {
	GIT_HOST(host),
	GIT_HOST(credential),
	GIT_HOST(username),
	GIT_HOST(protocol),
	{NULL, SRC_STRING, 0, NULL},
};
static const struct src_array global_git_hosts = {
	offsetof(ruas_config_globals, git_host_count), sizeof(ruas_git_host_spec), git_host_fields};
static const struct src_array project_git_hosts = {
	offsetof(ruas_project_spec, git_host_count), sizeof(ruas_git_host_spec), git_host_fields};

#define GLOBAL(key, type) {#key, type, offsetof(ruas_config_globals, key), NULL}
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
	GLOBAL(audit_facility, SRC_STRING),
	GLOBAL(audit_log, SRC_STRING),
	GLOBAL(audit_argv, SRC_STRING),
	GLOBAL(audit_argv_max, SRC_INT),
	GLOBAL(host_check_interval, SRC_INT),
	GLOBAL(open_files_max, SRC_INT),
	GLOBAL(file_size_max, SRC_SIZE),
	GLOBAL(core_dumps, SRC_BOOL),
	GLOBAL(wall_time_max, SRC_INT),
	GLOBAL(memory_max, SRC_SIZE),
	GLOBAL(memory_swap_max, SRC_SIZE),
	GLOBAL(tasks_max, SRC_INT),
	GLOBAL(cpu_max, SRC_DECIMAL),
	GLOBAL(cgroup_parent, SRC_STRING),
	GLOBAL(require_command, SRC_BOOL),
	{"credentials", SRC_GROUPS, offsetof(ruas_config_globals, credentials), &global_credentials},
	{"git_hosts", SRC_GROUPS, offsetof(ruas_config_globals, git_hosts), &global_git_hosts},
	GLOBAL(claude_api_key, SRC_STRING),
	{NULL, SRC_STRING, 0, NULL},
};

#define PROJECT(key, type) {#key, type, offsetof(ruas_project_spec, key), NULL}
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
	PROJECT(open_files_max, SRC_INT),
	PROJECT(file_size_max, SRC_SIZE),
	PROJECT(core_dumps, SRC_BOOL),
	PROJECT(wall_time_max, SRC_INT),
	PROJECT(memory_max, SRC_SIZE),
	PROJECT(memory_swap_max, SRC_SIZE),
	PROJECT(tasks_max, SRC_INT),
	PROJECT(cpu_max, SRC_DECIMAL),
	PROJECT(require_command, SRC_BOOL),
	{"credentials", SRC_GROUPS, offsetof(ruas_project_spec, credentials), &project_credentials},
	{"git_hosts", SRC_GROUPS, offsetof(ruas_project_spec, git_hosts), &project_git_hosts},
	PROJECT(claude_api_key, SRC_STRING),
	{NULL, SRC_STRING, 0, NULL},
};

#define PERSON(key) {#key, SRC_STRING, offsetof(ruas_person_spec, key), NULL}
static const struct src_field person_fields[] = {
	PERSON(id),
	PERSON(run_as_user),
	{NULL, SRC_STRING, 0, NULL},
};
static const struct src_array people_members = {
	offsetof(ruas_people_spec, member_count), sizeof(ruas_person_spec), person_fields};

#define PEOPLE(key) {#key, SRC_STRING, offsetof(ruas_people_spec, key), NULL}
static const struct src_field people_fields[] = {
	PEOPLE(worktrees),
	PEOPLE(credentials),
	PEOPLE(claude_projects),
	PEOPLE(enforce),
	{"members", SRC_GROUPS, offsetof(ruas_people_spec, members), &people_members},
	{NULL, SRC_STRING, 0, NULL},
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
				  1, RUAS_CONFIG_GLOBALS_VERSION))
		return RUAS_ERR_INVALID;
	if (!globals)
		globals = &none;
	/*
	 * Version 1 ends before the audit keys, version 2 before
	 * host_check_interval, version 3 before the limits, version 4 before
	 * the cgroup's, version 5 before require_command, version 6 before
	 * credentials, version 7 before claude_api_key: read only what it
	 * has, the rest absent.
	 */
	static const size_t ends[] = {offsetof(ruas_config_globals, audit_facility),
				      offsetof(ruas_config_globals, host_check_interval),
				      offsetof(ruas_config_globals, open_files_max),
				      offsetof(ruas_config_globals, memory_max),
				      offsetof(ruas_config_globals, require_command),
				      offsetof(ruas_config_globals, credentials),
				      offsetof(ruas_config_globals, claude_api_key)};
	ruas_config_globals now = RUAS_CONFIG_GLOBALS_INIT;
	if (globals->version < RUAS_CONFIG_GLOBALS_VERSION) {
		memcpy(&now, globals, ends[globals->version - 1]);
		now.version = RUAS_CONFIG_GLOBALS_VERSION;
		globals = &now;
	}
	ld.cfg = calloc(1, sizeof *ld.cfg);
	struct src s = {NULL, globals, globals_fields};
	int r = !ld.cfg || !(ld.cfg->path = strdup(globals->name ? globals->name : NEW_NAME)) ||
			!(ld.cfg->audit_undelivered = audit_count_new())
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
	if (error_options_version(err, "ruas_config_add_project", &spec->version, 1,
				  RUAS_PROJECT_SPEC_VERSION))
		return RUAS_ERR_INVALID;
	/*
	 * Version 1 ends before the limits, version 2 before the cgroup's,
	 * version 3 before require_command, version 4 before credentials,
	 * version 5 before claude_api_key: read only what it has, the rest
	 * absent.
	 */
	static const size_t ends[] = {offsetof(ruas_project_spec, open_files_max),
				      offsetof(ruas_project_spec, memory_max),
				      offsetof(ruas_project_spec, require_command),
				      offsetof(ruas_project_spec, credentials),
				      offsetof(ruas_project_spec, claude_api_key)};
	ruas_project_spec now = RUAS_PROJECT_SPEC_INIT;
	if (spec->version < RUAS_PROJECT_SPEC_VERSION) {
		memcpy(&now, spec, ends[spec->version - 1]);
		now.version = RUAS_PROJECT_SPEC_VERSION;
		spec = &now;
	}
	/*
	 * A run_as_user that is no account is refused here, where a bridge
	 * builds its projects, not only at preflight; a project or user name
	 * the schema would refuse anyway is left to its message.
	 */
	if (spec->name && project_name_is_valid(spec->name) && spec->run_as_user &&
	    !user_name_problem(spec->run_as_user)) {
		struct account acct;
		int lr = account_lookup(spec->run_as_user, &acct), lerr = errno;
		if (lr == ACCOUNT_FOUND) {
			account_clear(&acct);
		} else {
			struct buf name = BUF_INIT;
			quote_display_dq(&name, spec->name ? spec->name : "");
			int r = error_set(err, lr == ACCOUNT_MISSING ? RUAS_ERR_CONFIG : RUAS_ERR_SYSTEM,
					  NULL, 0, lr == ACCOUNT_MISSING ? 0 : lerr,
					  "project %s: run_as_user \"%s\" %s%s",
					  name.oom ? "(out of memory)" : name.data, spec->run_as_user,
					  lr == ACCOUNT_MISSING
						  ? "has no passwd entry (create it: ruas-setup useradd)"
						  : "cannot be looked up: the user database could not be "
						    "read: ",
					  lr == ACCOUNT_MISSING ? "" : strerror(lerr));
			buf_free(&name);
			return r;
		}
	}
	struct src s = {NULL, spec, project_fields};
	return schema_add_project(&ld, &s);
}

/* What the spec's shape or cfg's state refuses before any value is judged. */
static int people_refusal(const ruas_config *cfg, const ruas_people_spec *spec, ruas_error **err)
{
	static const char fn[] = "ruas_config_set_people";

	if (error_options_version(err, fn, &spec->version, RUAS_PEOPLE_SPEC_VERSION,
				  RUAS_PEOPLE_SPEC_VERSION))
		return RUAS_ERR_INVALID;
	if (!spec->members && spec->member_count > 0)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "%s: members is NULL but member_count is %zu", fn,
				 spec->member_count);
	for (size_t i = 0; spec->members && i < spec->member_count; i++) {
		char where[64];
		snprintf(where, sizeof where, "%s: members[%zu]", fn, i);
		if (error_options_version(err, where, &spec->members[i].version,
					  RUAS_PERSON_SPEC_VERSION, RUAS_PERSON_SPEC_VERSION))
			return RUAS_ERR_INVALID;
	}
	if (cfg->people)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "%s: %s already has a people block, and a configuration has "
				 "only one", fn, cfg->path);
	if (cfg->nprojects > 0)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "%s: %s already has projects; set the people block before "
				 "adding any, since a person must exist before a project names it",
				 fn, cfg->path);
	return 0;
}

int ruas_config_set_people(ruas_config *cfg, const ruas_people_spec *spec, ruas_error **err)
{
	struct loader ld = {NULL, err, cfg, NULL};

	if (!cfg || !spec)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_config_set_people: %s is NULL", cfg ? "spec" : "cfg");
	int r = people_refusal(cfg, spec, err);
	if (r < 0)
		return r;
	struct src s = {NULL, spec, people_fields};
	return schema_people(&ld, &s);
}
