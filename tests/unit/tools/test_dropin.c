/* SPDX-License-Identifier: ISC */
/*
 * test_dropin.c - ruas-setup delegate's text (tools/ruas-setup/dropin.c):
 * which unit names it takes (systemd's, ".service" added as systemctl
 * does) and which it refuses with why; systemctl's version line; the
 * drop-in's exact bytes before and since systemd's DelegateSubgroup=; the
 * cgroup_parent it points at.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "dropin.h"

static const struct {
	const char *given;
	const char *unit;  /* NULL: refused */
	const char *why;   /* the start of why */
} names[] = {
	{"cc-connect", "cc-connect.service", NULL},
	{"cc-connect.service", "cc-connect.service", NULL},
	{"bridge@alice.service", "bridge@alice.service", NULL},
	{"bridge@alice", "bridge@alice.service", NULL},
	{"my.app", "my.app.service", NULL},
	{"a:b_c\\x2dd", "a:b_c\\x2dd.service", NULL},
	{"", NULL, "is empty"},
	{"cc-connect.socket", NULL, "is not a service"},
	{"x.slice", NULL, "is not a service"},
	{"x.scope", NULL, "is not a service"},
	{"bridge@.service", NULL, "is a template"},
	{"bridge@", NULL, "is a template"},
	{"@x.service", NULL, "has no name"},
	{".service", NULL, "has no name"},
	{".hidden", NULL, "has no name"},
	{"a@b@c.service", NULL, "has more than one '@'"},
	{"../evil", NULL, "may contain only"},
	{"a/b.service", NULL, "may contain only"},
	{"a b", NULL, "may contain only"},
	{"a\nb", NULL, "may contain only"},
	{"x\"; ExecStart=/bin/sh", NULL, "may contain only"},
	{"ALL ALL=(ALL) ALL", NULL, "may contain only"},
};

static void test_unit_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char out[300] = "untouched";
		const char *why = dropin_unit(names[i].given, out, sizeof out);
		if (names[i].unit) {
			if (why)
				fail_msg("\"%s\" refused: %s", names[i].given, why);
			assert_string_equal(out, names[i].unit);
		} else if (!why || strncmp(why, names[i].why, strlen(names[i].why)) != 0) {
			fail_msg("\"%s\": want \"%s...\", got %s", names[i].given, names[i].why,
				 why ? why : "(taken)");
		}
	}
	char longname[300];
	memset(longname, 'a', 247);
	longname[247] = '\0'; /* 247 + ".service" is 255: the most systemd takes */
	char out[300];
	assert_null(dropin_unit(longname, out, sizeof out));
	longname[247] = 'a';
	longname[248] = '\0';
	assert_non_null(dropin_unit(longname, out, sizeof out));
}

static void test_systemd_version(void **state)
{
	(void)state;
	assert_int_equal(dropin_systemd_version("systemd 252 (252.39-1~deb12u2)\n+PAM +AUDIT\n"),
			 252);
	assert_int_equal(dropin_systemd_version("systemd 256 (256.7-2)\n"), 256);
	assert_int_equal(dropin_systemd_version("systemd 254"), 254);
	assert_int_equal(dropin_systemd_version("systemd 25x (25x)\n"), -1);
	assert_int_equal(dropin_systemd_version("systemd (252)\n"), -1);
	assert_int_equal(dropin_systemd_version("elogind 252\n"), -1);
	assert_int_equal(dropin_systemd_version(""), -1);
	assert_int_equal(dropin_systemd_version("systemd 99999999999999999999\n"), -1);
}

static void test_text(void **state)
{
	(void)state;
	char *t = dropin_text("cc-connect.service", 254);
	assert_non_null(t);
	assert_string_equal(t, "# cc-connect.service.d/ruas-delegate.conf, written by ruas-setup "
			       "delegate: a cgroup of the\n"
			       "# service's own to make a cgroup of each run's own in (ruas.conf(5)\n"
			       "# LIMITS), with the supervisor in a leaf of it.\n"
			       "[Service]\n"
			       "Delegate=cpu memory pids\n"
			       "DelegateSubgroup=supervisor\n");
	free(t);
	t = dropin_text("cc-connect.service", 252);
	assert_non_null(t);
	assert_string_equal(t, "# cc-connect.service.d/ruas-delegate.conf, written by ruas-setup "
			       "delegate: a cgroup of the\n"
			       "# service's own to make a cgroup of each run's own in (ruas.conf(5)\n"
			       "# LIMITS). systemd 252 has no DelegateSubgroup= (254 and later): the\n"
			       "# supervisor moves itself into the leaf \"supervisor\" of this "
			       "cgroup as\n"
			       "# it starts (ruas-setup(8), DELEGATE).\n"
			       "[Service]\n"
			       "Delegate=cpu memory pids\n");
	free(t);
}

static void test_next_steps(void **state)
{
	(void)state;
	char *t = dropin_next_steps("cc-connect.service", 256);
	assert_non_null(t);
	assert_string_equal(t, "ruas-setup: next: systemctl daemon-reload, then systemctl restart "
			       "cc-connect.service\n"
			       "ruas-setup: then in ruas.conf: cgroup_parent = "
			       "\"/sys/fs/cgroup/system.slice/cc-connect.service\"; (if the unit "
			       "has a Slice= of its own: /sys/fs/cgroup followed by what systemctl "
			       "show -p ControlGroup --value cc-connect.service says)\n");
	free(t);
	/* An instance's slice is not guessed: systemctl names its cgroup. */
	t = dropin_next_steps("my-bridge@al-ice.service", 252);
	assert_non_null(t);
	assert_non_null(strstr(t, "ruas-setup: then in ruas.conf: cgroup_parent = /sys/fs/cgroup "
				  "followed by what systemctl show -p ControlGroup --value "
				  "my-bridge@al-ice.service says\n"));
	assert_non_null(strstr(t, "ruas-setup: systemd 252 has no DelegateSubgroup=: until the "
				  "supervisor has moved itself into the leaf \"supervisor\" of its "
				  "service's cgroup (mkdir it, then write 0 to its cgroup.procs) no run "
				  "with limits can start, and ruas check says so\n"));
	free(t);
	/* systemd's own escape of names a cgroup file could have, and libconfig's of '\\'. */
	static const struct {
		const char *unit, *line;
	} lines[] = {
		{"cpu.service", "cgroup_parent = \"/sys/fs/cgroup/system.slice/_cpu.service\";"},
		{"memory.x.service", "cgroup_parent = \"/sys/fs/cgroup/system.slice/_memory.x.service\";"},
		{"cgroup.x.service", "cgroup_parent = \"/sys/fs/cgroup/system.slice/_cgroup.x.service\";"},
		{"_x.service", "cgroup_parent = \"/sys/fs/cgroup/system.slice/__x.service\";"},
		{"cpux.service", "cgroup_parent = \"/sys/fs/cgroup/system.slice/cpux.service\";"},
		{"io-x.service", "cgroup_parent = \"/sys/fs/cgroup/system.slice/io-x.service\";"},
		{"a\\x2db.service",
		 "cgroup_parent = \"/sys/fs/cgroup/system.slice/a\\\\x2db.service\";"},
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		t = dropin_next_steps(lines[i].unit, 256);
		assert_non_null(t);
		if (!strstr(t, lines[i].line))
			fail_msg("%s: want %s in:\n%s", lines[i].unit, lines[i].line, t);
		assert_null(strstr(t, "DelegateSubgroup"));
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit_names),
		cmocka_unit_test(test_systemd_version),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_next_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
