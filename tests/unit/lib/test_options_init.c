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

#define GUARD 0xA5

/*
 * init(buf, version) into a buffer of guard bytes, checking that the
 * version field says `version`; *n: how many bytes from the start were
 * written (up to the last one that is not a guard byte).
 */
#define WRITTEN(T, init, version, n)                                                               \
	do {                                                                                       \
		unsigned char buf[sizeof(T) + 16];                                                 \
		memset(buf, GUARD, sizeof buf);                                                    \
		assert_int_equal(init((T *)(void *)buf, (version)), 0);                            \
		unsigned int v;                                                                    \
		memcpy(&v, buf, sizeof v);                                                         \
		assert_int_equal(v, (version));                                                    \
		*(n) = sizeof buf;                                                                 \
		while (*(n) > 0 && buf[*(n)-1] == GUARD)                                           \
			(*(n))--;                                                                  \
	} while (0)

/* The version's bytes are all that init writes: none at or past `end`. */
#define WRITES_BEFORE(T, init, version, end)                                                       \
	do {                                                                                       \
		size_t n_;                                                                         \
		WRITTEN(T, init, version, &n_);                                                    \
		assert_true(n_ <= (end));                                                          \
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
	/* The last written byte lies in the version's last field: never past its end.
   */
	WRITES_BEFORE(ruas_spawn_options, ruas_spawn_options_init, 1,
		      offsetof(ruas_spawn_options, stdin_fd));
	WRITES_BEFORE(ruas_spawn_options, ruas_spawn_options_init, 2,
		      offsetof(ruas_spawn_options, pty));
	WRITES_BEFORE(ruas_spawn_options, ruas_spawn_options_init, 3,
		      offsetof(ruas_spawn_options, pty_relay));
	WRITES_BEFORE(ruas_spawn_options, ruas_spawn_options_init, 4,
		      offsetof(ruas_spawn_options, audit));
	size_t n;
	WRITTEN(ruas_spawn_options, ruas_spawn_options_init, 2, &n);
	assert_true(n > offsetof(ruas_spawn_options, stderr_fd)); /* its -1s are there */
	WRITES_BEFORE(ruas_config_globals, ruas_config_globals_init, 1,
		      offsetof(ruas_config_globals, audit_facility));
	WRITES_BEFORE(ruas_config_globals, ruas_config_globals_init, 2,
		      offsetof(ruas_config_globals, host_check_interval));
	WRITES_BEFORE(ruas_preflight_options, ruas_preflight_options_init, 1,
		      offsetof(ruas_preflight_options, audit));
	WRITES_BEFORE(ruas_preflight_options, ruas_preflight_options_init, 2,
		      offsetof(ruas_preflight_options, fresh_host));
	WRITES_BEFORE(ruas_target_options, ruas_target_options_init, 1,
		      offsetof(ruas_target_options, sudo_allowed));
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

/* What the init gives is what the library takes: a spawn options of it passes the version check. */
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
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_current_versions_are_the_macros),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_older_versions_write_only_theirs),
		cmocka_unit_test(test_unknown_versions_refused),
		cmocka_unit_test(test_init_is_taken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
