/* SPDX-License-Identifier: ISC */
/*
 * test_doas_conf.c - doas.conf rules as ways up (src/lib/check/doas_conf.h):
 * a permit nopass that matches the user (by name, number or group) and
 * lets it act as someone else is found, by line, through quotes,
 * continuations, options and comments; one that asks a password, runs as
 * the user itself, or that a later rule denies or makes ask is not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/doas_conf.h"
#include "check/messages.h"

static char path[] = "/tmp/ruas-test-doas-XXXXXX";

static size_t ways(const char *conf, int in_daemon, int skip_root, struct pam_ways *w)
{
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fputs(conf, f);
	fclose(f);
	struct group gr, *g = NULL;
	char mem[16384];
	assert_int_equal(getgrnam_r("daemon", &gr, mem, sizeof mem, &g), 0);
	assert_non_null(g);
	gid_t gids[2] = {40001, g->gr_gid};
	struct pam_user u = {"t1", 40001, 40001, gids, in_daemon ? 2 : 1};
	w->v = NULL;
	w->n = 0;
	assert_int_equal(doas_ways_up(path, &u, skip_root, w), 0);
	return w->n;
}

static void test_rules(void **state)
{
	(void)state;
	static const struct {
		const char *conf;
		int in_daemon, skip_root;
		size_t want;
		int line;
		const char *why;
	} cases[] = {
		{"permit nopass t1 as bob\n", 0, 0, 1, 1, "any command as bob without a password"},
		{"permit t1 as bob\n", 0, 0, 0, 0, NULL},
		{"permit persist t1 as bob\n", 0, 0, 0, 0, NULL},
		{"permit nopass t1 as t1\n", 0, 0, 0, 0, NULL},
		{"permit nopass :daemon as bob\n", 1, 0, 1, 1, "as bob"},
		{"permit nopass :daemon as bob\n", 0, 0, 0, 0, NULL},
		{"permit nopass 40001 as bob\n", 0, 0, 1, 1, "as bob"},
		{"permit nopass t1\ndeny t1\n", 0, 0, 0, 0, NULL},
		{"permit nopass t1 as bob\npermit t1 as bob\n", 0, 0, 0, 0, NULL},
		{"permit nopass t1 as bob\ndeny t1 as carol\n", 0, 0, 1, 1, "as bob"},
		{"permit nopass t1 as bob cmd /usr/bin/vi\n", 0, 0, 1, 1,
		 "run /usr/bin/vi as bob without a password"},
		{"# permit nopass t1 as bob\n\npermit nopass \\\n  t1 as bob # bob's\n", 0, 0, 1, 3,
		 "as bob"},
		{"permit nopass \"t1\" as \"bob\"\n", 0, 0, 1, 1, "as bob"},
		{"permit nopass setenv { FOO BAR=1 } keepenv t1 as bob\n", 0, 0, 1, 1, "as bob"},
		{"permit nopass t1\n", 0, 0, 1, 1, "any command as any user, root too"},
		{"permit nopass t1\n", 0, 1, 0, 0, NULL}, /* the probe already said root */
		{"permit nopass t1 as bob\n", 0, 1, 1, 1, "as bob"},
		{"permit nopass t2 as bob\n", 0, 0, 0, 0, NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct pam_ways w;
		size_t n = ways(cases[i].conf, cases[i].in_daemon, cases[i].skip_root, &w);
		if (n != cases[i].want)
			fail_msg("case %zu: %zu ways, want %zu: %s", i, n, cases[i].want, cases[i].conf);
		if (n) {
			assert_string_equal(w.v[0].service, "doas");
			assert_string_equal(w.v[0].file, path);
			if (w.v[0].line != cases[i].line)
				fail_msg("case %zu: line %d, want %d", i, w.v[0].line, cases[i].line);
			if (!strstr(w.v[0].why, cases[i].why))
				fail_msg("case %zu: why \"%s\" lacks \"%s\"", i, w.v[0].why, cases[i].why);
		}
		pam_ways_free(&w);
	}
}

static void test_text(void **state)
{
	(void)state;
	char *t = text_of(msg_doas_rule("p", "t1", "/etc/doas.conf", 2, "permit nopass t1 as bob",
				"it permits the user to run any command as bob without a password "
				"(nopass)"));
	assert_string_equal(t, "ERROR: project \"p\": target user \"t1\" can run commands as another "
			       "user with doas without a password (/etc/doas.conf line 2: \"permit "
			       "nopass t1 as bob\"): it permits the user to run any command as bob "
			       "without a password (nopass).\nFix: remove that rule, or drop its nopass "
			       "(doas.conf(5)), as root. Then restart ruas.\n");
	free(t);
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_text),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	(void)unlink(path);
	return failed;
}
