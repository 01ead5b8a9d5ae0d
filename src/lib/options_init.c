/* SPDX-License-Identifier: ISC */
/*
 * options_init.c - ruas_<struct>_init(): an options struct of a given
 * version filled with its defaults, the same as its _INIT macro, for
 * callers that cannot use a macro (Go's cgo, Python's ctypes) or that name
 * the version they were written for. Only the bytes that version's struct
 * has are written: a caller built against an older header passes a
 * shorter struct.
 */
#include <stddef.h>
#include <string.h>

#include "ruas.h"

/* The defaults of `version`, whose struct ends at ends[version - 1], into opts. */
static int fill(void *opts, unsigned int version, const void *defaults, const size_t *ends,
		unsigned int newest)
{
	if (!opts || version < 1 || version > newest)
		return RUAS_ERR_INVALID;
	memcpy(opts, defaults, ends[version - 1]);
	memcpy(opts, &version, sizeof version); /* every struct starts with its version */
	return 0;
}

int ruas_config_options_init(ruas_config_options *opts, unsigned int version)
{
	static const ruas_config_options d = RUAS_CONFIG_OPTIONS_INIT;
	static const size_t ends[] = {sizeof d};
	return fill(opts, version, &d, ends, RUAS_CONFIG_OPTIONS_VERSION);
}

int ruas_config_globals_init(ruas_config_globals *globals, unsigned int version)
{
	static const ruas_config_globals d = RUAS_CONFIG_GLOBALS_INIT;
	static const size_t ends[] = {offsetof(ruas_config_globals, audit_facility),
				      offsetof(ruas_config_globals, host_check_interval),
				      offsetof(ruas_config_globals, open_files_max),
				      offsetof(ruas_config_globals, memory_max),
				      offsetof(ruas_config_globals, require_command),
				      offsetof(ruas_config_globals, credentials),
				      offsetof(ruas_config_globals, claude_api_key), sizeof d};
	return fill(globals, version, &d, ends, RUAS_CONFIG_GLOBALS_VERSION);
}

int ruas_person_spec_init(ruas_person_spec *spec, unsigned int version)
{
	static const ruas_person_spec d = RUAS_PERSON_SPEC_INIT;
	static const size_t ends[] = {sizeof d};
	return fill(spec, version, &d, ends, RUAS_PERSON_SPEC_VERSION);
}

int ruas_people_spec_init(ruas_people_spec *spec, unsigned int version)
{
	static const ruas_people_spec d = RUAS_PEOPLE_SPEC_INIT;
	static const size_t ends[] = {sizeof d};
	return fill(spec, version, &d, ends, RUAS_PEOPLE_SPEC_VERSION);
}

int ruas_project_spec_init(ruas_project_spec *spec, unsigned int version)
{
	static const ruas_project_spec d = RUAS_PROJECT_SPEC_INIT;
	static const size_t ends[] = {offsetof(ruas_project_spec, open_files_max),
				      offsetof(ruas_project_spec, memory_max),
				      offsetof(ruas_project_spec, require_command),
				      offsetof(ruas_project_spec, credentials),
				      offsetof(ruas_project_spec, claude_api_key), sizeof d};
	return fill(spec, version, &d, ends, RUAS_PROJECT_SPEC_VERSION);
}

int ruas_audit_sink_init(ruas_audit_sink *sink, unsigned int version)
{
	static const ruas_audit_sink d = RUAS_AUDIT_SINK_INIT;
	static const size_t ends[] = {sizeof d};
	return fill(sink, version, &d, ends, RUAS_AUDIT_SINK_VERSION);
}

int ruas_preflight_options_init(ruas_preflight_options *opts, unsigned int version)
{
	static const ruas_preflight_options d = RUAS_PREFLIGHT_OPTIONS_INIT;
	static const size_t ends[] = {offsetof(ruas_preflight_options, audit),
				      offsetof(ruas_preflight_options, fresh_host), sizeof d};
	return fill(opts, version, &d, ends, RUAS_PREFLIGHT_OPTIONS_VERSION);
}

int ruas_spawn_options_init(ruas_spawn_options *opts, unsigned int version)
{
	static const ruas_spawn_options d = RUAS_SPAWN_OPTIONS_INIT;
	/* Before version 4 there was no pty unless asked for (and 3 ends before pty_relay). */
	static const ruas_spawn_options d3 = {
		.version = 3,
		.stdin_fd = -1,
		.stdout_fd = -1,
		.stderr_fd = -1,
		.pty = RUAS_PTY_NONE,
		.pty_relay = RUAS_PTY_RELAY_CALLER,
	};
	static const size_t ends[] = {offsetof(ruas_spawn_options, stdin_fd),
				      offsetof(ruas_spawn_options, pty),
				      offsetof(ruas_spawn_options, pty_relay),
				      offsetof(ruas_spawn_options, audit),
				      offsetof(ruas_spawn_options, credential_callback), sizeof d};
	return fill(opts, version, version == 3 ? &d3 : &d, ends, RUAS_SPAWN_OPTIONS_VERSION);
}

int ruas_target_options_init(ruas_target_options *opts, unsigned int version)
{
	static const ruas_target_options d = RUAS_TARGET_OPTIONS_INIT;
	static const size_t ends[] = {offsetof(ruas_target_options, sudo_allowed), sizeof d};
	return fill(opts, version, &d, ends, RUAS_TARGET_OPTIONS_VERSION);
}
