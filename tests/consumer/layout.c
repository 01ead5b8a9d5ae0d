/* SPDX-License-Identifier: ISC */
/*
 * layout.c - every public struct's size and every field's offset, one per
 * line. tests/pkgconfig.sh builds it against today's headers and against
 * the header as it was before the split (tests/consumer/abi/ruas.h): the
 * two must print the same, or a program built against the old one would
 * pass the library structs it reads differently.
 */
#include <ruas.h>
#include <stddef.h>
#include <stdio.h>

#define SIZE(T) printf(#T " %zu\n", sizeof(T))
/*
 * A struct that grew since the split (a new version, fields at its end):
 * the size of the version the old header has, which is where the new
 * fields begin; the library reads that much of an old program's struct.
 */
#define SIZE_UPTO(T, version, grown, first_new)                                     \
	printf(#T " %zu\n", (version) > (grown) ? offsetof(T, first_new) : sizeof(T))
/* A version constant: the old header's, as long as today's is not below it. */
#define AT_LEAST(v, old) ((v) >= (old) ? (old) : (v))
#define AT(T, f) printf(#T "." #f " %zu\n", offsetof(T, f))

int main(void)
{
	SIZE(ruas_config_options);
	AT(ruas_config_options, supervisor_uid);
	AT(ruas_config_options, skip_owner_check);
#if RUAS_CONFIG_GLOBALS_VERSION > 3
	SIZE_UPTO(ruas_config_globals, RUAS_CONFIG_GLOBALS_VERSION, 3, open_files_max);
#else
	SIZE(ruas_config_globals);
#endif
	AT(ruas_config_globals, name);
	AT(ruas_config_globals, env_allowlist);
	AT(ruas_config_globals, sudo);
	AT(ruas_config_globals, helper);
	AT(ruas_config_globals, session_helper);
	AT(ruas_config_globals, scan_prune);
	AT(ruas_config_globals, scan_time_limit);
	AT(ruas_config_globals, backend);
	AT(ruas_config_globals, pam_service);
	AT(ruas_config_globals, terminate_grace);
	AT(ruas_config_globals, target_sudo_allowed);
	AT(ruas_config_globals, lifetime);
	AT(ruas_config_globals, audit_facility);
	AT(ruas_config_globals, audit_log);
	AT(ruas_config_globals, audit_argv);
	AT(ruas_config_globals, audit_argv_max);
	AT(ruas_config_globals, host_check_interval);
	SIZE(ruas_person_spec);
	AT(ruas_person_spec, id);
	AT(ruas_person_spec, run_as_user);
	SIZE(ruas_people_spec);
	AT(ruas_people_spec, worktrees);
	AT(ruas_people_spec, credentials);
	AT(ruas_people_spec, claude_projects);
	AT(ruas_people_spec, enforce);
	AT(ruas_people_spec, members);
	AT(ruas_people_spec, member_count);
#if RUAS_PROJECT_SPEC_VERSION > 1
	SIZE_UPTO(ruas_project_spec, RUAS_PROJECT_SPEC_VERSION, 1, open_files_max);
#else
	SIZE(ruas_project_spec);
#endif
	AT(ruas_project_spec, name);
	AT(ruas_project_spec, work_dir);
	AT(ruas_project_spec, command);
	AT(ruas_project_spec, run_as_user);
	AT(ruas_project_spec, env_allowlist);
	AT(ruas_project_spec, person);
	AT(ruas_project_spec, deny_settings_args);
	AT(ruas_project_spec, scan_prune);
	AT(ruas_project_spec, target_sudo_allowed);
	AT(ruas_project_spec, backend);
	AT(ruas_project_spec, pam_service);
	AT(ruas_project_spec, terminate_grace);
	AT(ruas_project_spec, lifetime);
	SIZE(ruas_audit_record);
	AT(ruas_audit_record, event);
	AT(ruas_audit_record, run);
	AT(ruas_audit_record, line);
	AT(ruas_audit_record, json);
	SIZE(ruas_audit_sink);
	AT(ruas_audit_sink, to);
	AT(ruas_audit_sink, callback);
	AT(ruas_audit_sink, payload);
	AT(ruas_audit_sink, fd);
	SIZE(ruas_preflight_options);
	AT(ruas_preflight_options, max_parallel);
	AT(ruas_preflight_options, audit);
	AT(ruas_preflight_options, fresh_host);
	AT(ruas_preflight_options, reuse_verdict);
#if RUAS_SPAWN_OPTIONS_VERSION > 5
	SIZE_UPTO(ruas_spawn_options, RUAS_SPAWN_OPTIONS_VERSION, 5, credential_callback);
#else
	SIZE(ruas_spawn_options);
#endif
	AT(ruas_spawn_options, env);
	AT(ruas_spawn_options, stdin_fd);
	AT(ruas_spawn_options, stdout_fd);
	AT(ruas_spawn_options, stderr_fd);
	AT(ruas_spawn_options, work_dir);
	AT(ruas_spawn_options, set_env);
	AT(ruas_spawn_options, pty);
	AT(ruas_spawn_options, pty_relay);
	AT(ruas_spawn_options, audit);
	SIZE(ruas_target_options);
	AT(ruas_target_options, supervisor);
	AT(ruas_target_options, sudo);
	AT(ruas_target_options, helper);
	AT(ruas_target_options, max_parallel);
	AT(ruas_target_options, sudo_allowed);
	/* The values a program compiled in: versions, codes, modes. */
	printf("versions %d %d %d %d %d %d %d %d %d\n", RUAS_CONFIG_OPTIONS_VERSION,
	       AT_LEAST(RUAS_CONFIG_GLOBALS_VERSION, 3), RUAS_PERSON_SPEC_VERSION,
	       RUAS_PEOPLE_SPEC_VERSION, AT_LEAST(RUAS_PROJECT_SPEC_VERSION, 1),
	       RUAS_AUDIT_SINK_VERSION, RUAS_PREFLIGHT_OPTIONS_VERSION,
	       AT_LEAST(RUAS_SPAWN_OPTIONS_VERSION, 5), RUAS_TARGET_OPTIONS_VERSION);
	printf("codes %d %d %d %d %d %d %d %d stages %d %d %d %d %d\n", RUAS_ERR_CONFIG,
	       RUAS_ERR_NOTFOUND, RUAS_ERR_SYSTEM, RUAS_ERR_INVALID, RUAS_ERR_NOMEM,
	       RUAS_ERR_TOOLONG, RUAS_ERR_ESCAPE, RUAS_ERR_START, RUAS_STAGE_SUDO,
	       RUAS_STAGE_WORK_DIR, RUAS_STAGE_EXEC, RUAS_STAGE_LOGIN, RUAS_STAGE_HELPER);
	printf("modes %d %d %d %d %d %d %d %d %d %d %d %d\n", RUAS_PTY_NONE, RUAS_PTY_AUTO,
	       RUAS_PTY_ALWAYS, RUAS_PTY_RELAY_LIBRARY, RUAS_PTY_RELAY_CALLER,
	       RUAS_CHILD_RUNNING, RUAS_CHILD_STOPPED, RUAS_CHILD_ENDING, RUAS_AUDIT_TO_SYSLOG,
	       RUAS_AUDIT_TO_NONE, RUAS_AUDIT_TO_CALLBACK, RUAS_AUDIT_TO_FD);
	return 0;
}
