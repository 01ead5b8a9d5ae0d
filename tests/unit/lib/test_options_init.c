/* SPDX-License-Identifier: ISC */
/*
 * test_options_init.c - ruas_<struct>_init() (issue 26, item 8): for the
 * current version each fills exactly what its _INIT macro gives; for an
 * older version it writes that version's fields and not one byte past
 * them (a caller built against an older header passes a shorter struct);
 * a version it does not know, or NULL, is RUAS_ERR_INVALID and writes
 * nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ruas.h"
#include "../support/private_state.h"

#define GUARD 0xA5

/*
 * init(buf, version) into a buffer of guard bytes writes exactly the
 * version's bytes, [0, end): each as in `want` (the defaults that version's
 * macro gave, its version field aside), and not one byte from end on.
 */
#define EXACT(T, init, ver, end, want)                                                             \
	do {                                                                                       \
		unsigned char buf[sizeof(T) + 16];                                                 \
		T expect_; /* by memcpy: padding too, which = may skip */                          \
		memcpy(&expect_, &(want), sizeof expect_);                                         \
		expect_.version = (ver);                                                           \
		memset(buf, GUARD, sizeof buf);                                                    \
		assert_int_equal(init((T *)(void *)buf, (ver)), 0);                                \
		assert_memory_equal(buf, &expect_, (end));                                         \
		for (size_t i_ = (end); i_ < sizeof buf; i_++)                                     \
			assert_int_equal(buf[i_], GUARD);                                          \
	} while (0)

/* The current version: byte for byte the macro (padding included: both copy a static). */
#define SAME_AS_MACRO(T, init, version, MACRO)                                                     \
	do {                                                                                       \
		static const T want = MACRO;                                                       \
		T got;                                                                             \
		memset(&got, GUARD, sizeof got);                                                   \
		assert_int_equal(init(&got, (version)), 0);                                        \
		assert_memory_equal(&got, &want, sizeof got);                                      \
	} while (0)

/* Unknown versions and NULL: refused, nothing written. */
#define REFUSES(T, init, newest)                                                                   \
	do {                                                                                       \
		T o;                                                                               \
		memset(&o, GUARD, sizeof o);                                                       \
		assert_int_equal(init(&o, 0), RUAS_ERR_INVALID);                                   \
		assert_int_equal(init(&o, (newest) + 1), RUAS_ERR_INVALID);                        \
		assert_int_equal(init(NULL, (newest)), RUAS_ERR_INVALID);                          \
		for (size_t i = 0; i < sizeof o; i++)                                              \
			assert_int_equal(((unsigned char *)&o)[i], GUARD);                         \
	} while (0)

static void test_current_versions_are_the_macros(void **state)
{
	(void)state;
	SAME_AS_MACRO(ruas_config_options, ruas_config_options_init, RUAS_CONFIG_OPTIONS_VERSION,
		      RUAS_CONFIG_OPTIONS_INIT);
	SAME_AS_MACRO(ruas_config_globals, ruas_config_globals_init, RUAS_CONFIG_GLOBALS_VERSION,
		      RUAS_CONFIG_GLOBALS_INIT);
	SAME_AS_MACRO(ruas_person_spec, ruas_person_spec_init, RUAS_PERSON_SPEC_VERSION,
		      RUAS_PERSON_SPEC_INIT);
	SAME_AS_MACRO(ruas_people_spec, ruas_people_spec_init, RUAS_PEOPLE_SPEC_VERSION,
		      RUAS_PEOPLE_SPEC_INIT);
	SAME_AS_MACRO(ruas_project_spec, ruas_project_spec_init, RUAS_PROJECT_SPEC_VERSION,
		      RUAS_PROJECT_SPEC_INIT);
	SAME_AS_MACRO(ruas_audit_sink, ruas_audit_sink_init, RUAS_AUDIT_SINK_VERSION,
		      RUAS_AUDIT_SINK_INIT);
	SAME_AS_MACRO(ruas_preflight_options, ruas_preflight_options_init,
		      RUAS_PREFLIGHT_OPTIONS_VERSION, RUAS_PREFLIGHT_OPTIONS_INIT);
	SAME_AS_MACRO(ruas_spawn_options, ruas_spawn_options_init, RUAS_SPAWN_OPTIONS_VERSION,
		      RUAS_SPAWN_OPTIONS_INIT);
	SAME_AS_MACRO(ruas_target_options, ruas_target_options_init, RUAS_TARGET_OPTIONS_VERSION,
		      RUAS_TARGET_OPTIONS_INIT);
}

/* The defaults the designated initializers spell, field by field (not only "as the macro"). */
static void test_defaults(void **state)
{
	(void)state;
	ruas_spawn_options s;
	assert_int_equal(ruas_spawn_options_init(&s, RUAS_SPAWN_OPTIONS_VERSION), 0);
	assert_int_equal(s.stdin_fd, -1);
	assert_int_equal(s.stdout_fd, -1);
	assert_int_equal(s.stderr_fd, -1);
	assert_int_equal(s.pty, RUAS_PTY_AUTO);
	assert_int_equal(s.pty_relay, RUAS_PTY_RELAY_LIBRARY);
	assert_null(s.env);
	assert_null(s.audit);
	ruas_config_options c;
	assert_int_equal(ruas_config_options_init(&c, 1), 0);
	assert_true(c.supervisor_uid == (uid_t)-1);
	ruas_config_globals g;
	assert_int_equal(ruas_config_globals_init(&g, RUAS_CONFIG_GLOBALS_VERSION), 0);
	assert_int_equal(g.terminate_grace, RUAS_UNSET);
	assert_int_equal(g.host_check_interval, RUAS_UNSET);
	assert_int_equal(g.audit_argv_max, RUAS_UNSET);
	ruas_project_spec p;
	assert_int_equal(ruas_project_spec_init(&p, 1), 0);
	assert_int_equal(p.terminate_grace, RUAS_UNSET);
	ruas_audit_sink k;
	assert_int_equal(ruas_audit_sink_init(&k, 1), 0);
	assert_int_equal(k.fd, -1);
	assert_int_equal(k.to, RUAS_AUDIT_TO_SYSLOG);
}

/* Older versions: their fields only, with their defaults. */
static void test_older_versions_write_only_theirs(void **state)
{
	(void)state;
	static const ruas_spawn_options sp = RUAS_SPAWN_OPTIONS_INIT;
	ruas_spawn_options sp3;
	memcpy(&sp3, &sp, sizeof sp3); /* its padding as the static's, which = may not copy */
	sp3.pty = RUAS_PTY_NONE;       /* version 3's macro: no pty unless asked for */
	static const ruas_config_globals gl = RUAS_CONFIG_GLOBALS_INIT;
	static const ruas_preflight_options pf = RUAS_PREFLIGHT_OPTIONS_INIT;
	static const ruas_target_options tg = RUAS_TARGET_OPTIONS_INIT;
	EXACT(ruas_spawn_options, ruas_spawn_options_init, 1,
	      offsetof(ruas_spawn_options, stdin_fd), sp);
	EXACT(ruas_spawn_options, ruas_spawn_options_init, 2, offsetof(ruas_spawn_options, pty),
	      sp);
	EXACT(ruas_spawn_options, ruas_spawn_options_init, 3,
	      offsetof(ruas_spawn_options, pty_relay), sp3);
	EXACT(ruas_spawn_options, ruas_spawn_options_init, 4, offsetof(ruas_spawn_options, audit),
	      sp);
	EXACT(ruas_config_globals, ruas_config_globals_init, 1,
	      offsetof(ruas_config_globals, audit_facility), gl);
	EXACT(ruas_config_globals, ruas_config_globals_init, 2,
	      offsetof(ruas_config_globals, host_check_interval), gl);
	/* Version 7 ends before claude_api_key (8), the project spec's 5 likewise (6). */
	EXACT(ruas_config_globals, ruas_config_globals_init, 7,
	      offsetof(ruas_config_globals, claude_api_key), gl);
	static const ruas_project_spec ps = RUAS_PROJECT_SPEC_INIT;
	EXACT(ruas_project_spec, ruas_project_spec_init, 5,
	      offsetof(ruas_project_spec, claude_api_key), ps);
	EXACT(ruas_preflight_options, ruas_preflight_options_init, 1,
	      offsetof(ruas_preflight_options, audit), pf);
	EXACT(ruas_preflight_options, ruas_preflight_options_init, 2,
	      offsetof(ruas_preflight_options, fresh_host), pf);
	EXACT(ruas_target_options, ruas_target_options_init, 1,
	      offsetof(ruas_target_options, sudo_allowed), tg);
	/* Version 3 of the spawn options had no pty unless asked for. */
	ruas_spawn_options s;
	memset(&s, GUARD, sizeof s);
	assert_int_equal(ruas_spawn_options_init(&s, 3), 0);
	assert_int_equal(s.pty, RUAS_PTY_NONE);
	assert_int_equal(s.stdin_fd, -1);
	assert_int_equal(ruas_spawn_options_init(&s, 4), 0);
	assert_int_equal(s.pty, RUAS_PTY_AUTO);
	assert_int_equal(s.pty_relay, RUAS_PTY_RELAY_LIBRARY);
}

static void test_unknown_versions_refused(void **state)
{
	(void)state;
	REFUSES(ruas_config_options, ruas_config_options_init, RUAS_CONFIG_OPTIONS_VERSION);
	REFUSES(ruas_config_globals, ruas_config_globals_init, RUAS_CONFIG_GLOBALS_VERSION);
	REFUSES(ruas_person_spec, ruas_person_spec_init, RUAS_PERSON_SPEC_VERSION);
	REFUSES(ruas_people_spec, ruas_people_spec_init, RUAS_PEOPLE_SPEC_VERSION);
	REFUSES(ruas_project_spec, ruas_project_spec_init, RUAS_PROJECT_SPEC_VERSION);
	REFUSES(ruas_audit_sink, ruas_audit_sink_init, RUAS_AUDIT_SINK_VERSION);
	REFUSES(ruas_preflight_options, ruas_preflight_options_init,
		RUAS_PREFLIGHT_OPTIONS_VERSION);
	REFUSES(ruas_spawn_options, ruas_spawn_options_init, RUAS_SPAWN_OPTIONS_VERSION);
	REFUSES(ruas_target_options, ruas_target_options_init, RUAS_TARGET_OPTIONS_VERSION);
}

/* What the inits give is what the library takes: a configuration and a project built from them. */
static void test_init_is_taken(void **state)
{
	(void)state;
	ruas_config *cfg = NULL;
	ruas_config_options co;
	assert_int_equal(ruas_config_options_init(&co, RUAS_CONFIG_OPTIONS_VERSION), 0);
	ruas_config_globals g;
	assert_int_equal(ruas_config_globals_init(&g, 1), 0);
	assert_int_equal(ruas_config_new(&cfg, &g, &co, NULL), 0);
	ruas_project_spec p;
	assert_int_equal(ruas_project_spec_init(&p, 1), 0);
	const char *cmd[] = {"/bin/true", NULL};
	p.name = "p";
	p.work_dir = "/";
	p.command = cmd;
	assert_int_equal(ruas_config_add_project(cfg, &p, NULL), 0);
	assert_int_equal(ruas_config_project_count(cfg), 1);
	ruas_config_free(cfg);
}

int main(void)
{
	private_state();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_current_versions_are_the_macros),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_older_versions_write_only_theirs),
		cmocka_unit_test(test_unknown_versions_refused),
		cmocka_unit_test(test_init_is_taken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
