/* SPDX-License-Identifier: ISC */
/*
 * test_pam_stack.c - PAM auth stacks that let the target in without a
 * password (src/lib/check/pam_stack.h), on PAM files in a directory of the
 * test's own: Debian's stock su and sudo pass; a sufficient pam_permit, a
 * pam_wheel trust of one of the user's groups, a pam_succeed_if whose
 * conditions hold for it (or that it cannot judge) are ways up, each named
 * by file and line, through @include and in optional (-auth) lines, and so
 * is a line that passes and jumps ([success=N]) over pam_unix and pam_deny
 * to where the stack succeeds; lines that do not end the stack, jumps that
 * land on pam_deny, comments and other users' conditions are not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/pam_stack.h"
#include "fixture.h"

static char dir[64];

static const char common_auth[] =
	"auth\t[success=1 default=ignore]\tpam_unix.so nullok\n"
	"auth\trequisite\t\t\tpam_deny.so\n"
	"auth\trequired\t\t\tpam_permit.so\n"
	"auth\toptional\t\t\tpam_cap.so \n";

static void put(const char *name, const char *text)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	write_file(path, text, 0644);
}

/* Debian's stock stacks, then su's with extra lines first. */
static void stacks(const char *su_extra, const char *sudo_extra)
{
	put("common-auth", common_auth);
	char su[1024], sudo[1024];
	snprintf(su, sizeof su, "%sauth       sufficient pam_rootok.so\n@include common-auth\n",
		 su_extra);
	snprintf(sudo, sizeof sudo, "#%%PAM-1.0\n%s@include common-auth\n", sudo_extra);
	put("su", su);
	put("sudo", sudo);
}

/* t1, uid 1501, in its own group and in gid 0's. */
static const gid_t in_root[] = {1501, 0};
static const struct pam_user t1 = {"t1", 1501, 1501, in_root, 2};
static const gid_t own[] = {1501};
static const struct pam_user plain = {"t1", 1501, 1501, own, 1};

static size_t ways(const struct pam_user *u, struct pam_ways *w)
{
	assert_int_equal(pam_ways_up(dir, u, w), 0);
	return w->n;
}

static void test_stock_debian_passes(void **state)
{
	(void)state;
	struct pam_ways w;
	stacks("", "");
	assert_int_equal(ways(&t1, &w), 0);
	pam_ways_free(&w);
	/* Commented out, or not ending the stack: nothing. */
	stacks("# auth sufficient pam_permit.so\nauth required pam_permit.so\n"
	       "auth [success=1 default=ignore] pam_permit.so\n",
	       "auth optional pam_permit.so\n");
	assert_int_equal(ways(&t1, &w), 0);
	pam_ways_free(&w);
}

struct way_case {
	const char *su_extra, *sudo_extra;
	const struct pam_user *u;
	size_t want;
	const char *service, *file, *why; /* of the first way */
	int line;
};

static void test_ways_up(void **state)
{
	(void)state;
	static const struct way_case cases[] = {
		{"auth sufficient pam_permit.so\n", "", &plain, 1, "su", "/su",
		 "pam_permit lets anyone in", 1},
		{"", "-auth sufficient /lib/x86_64-linux-gnu/security/pam_permit.so\n", &plain, 1,
		 "sudo", "/sudo", "pam_permit lets anyone in", 2},
		{"auth sufficient pam_wheel.so trust group=root\n", "", &t1, 1, "su", "/su",
		 "pam_wheel's trust lets the members of group \"root\" in", 1},
		{"auth sufficient pam_wheel.so trust group=root\n", "", &plain, 0, NULL, NULL, NULL,
		 0},
		{"auth sufficient pam_wheel.so group=root\n", "", &t1, 0, NULL, NULL, NULL, 0},
		{"auth [success=done default=ignore] pam_succeed_if.so quiet use_uid user = t1\n", "",
		 &plain, 1, "su", "/su", "pam_succeed_if's conditions hold", 1},
		{"auth sufficient pam_succeed_if.so user = bob\n", "", &plain, 0, NULL, NULL, NULL, 0},
		{"auth sufficient pam_succeed_if.so user in alice:t1:bob\n", "", &plain, 1, "su",
		 "/su", "pam_succeed_if", 1},
		{"auth sufficient pam_succeed_if.so user ingroup root\n", "", &t1, 1, "su", "/su",
		 "pam_succeed_if", 1},
		{"auth sufficient pam_succeed_if.so user ingroup root\n", "", &plain, 0, NULL, NULL,
		 NULL, 0},
		{"auth sufficient pam_succeed_if.so uid >= 1000 quiet\n", "", &plain, 1, "su", "/su",
		 "pam_succeed_if", 1},
		{"auth sufficient pam_succeed_if.so uid < 1000\n", "", &plain, 0, NULL, NULL, NULL, 0},
		{"auth sufficient pam_succeed_if.so uid >= 1000 and user = bob\n", "", &plain, 0, NULL,
		 NULL, NULL, 0},
		/* What it cannot judge for the user holds: fail closed. */
		{"auth sufficient pam_succeed_if.so tty = /dev/pts/1\n", "", &plain, 1, "su", "/su",
		 "pam_succeed_if", 1},
		/*
		 * Jumps: over pam_unix and pam_deny onto common-auth's pam_permit (in
		 * sudo: 2 lines; in su, pam_rootok is one more), counted through
		 * @include as Linux-PAM counts them.
		 */
		{"", "auth [success=2 default=ignore] pam_succeed_if.so user = t1\n", &plain, 1,
		 "sudo", "/sudo", "its jump over the lines after it", 2},
		{"auth [success=3 default=ignore] pam_succeed_if.so user = t1\n", "", &plain, 1, "su",
		 "/su", "pam_succeed_if's conditions hold for the user, and its jump", 1},
		{"auth [success=2 default=ignore] pam_succeed_if.so user = t1\n", "", &plain, 0, NULL,
		 NULL, NULL, 0}, /* lands on pam_deny */
		{"", "auth [success=2 default=ignore] pam_succeed_if.so user = bob\n", &plain, 0, NULL,
		 NULL, NULL, 0},
		{"", "auth [success=2 default=ignore] pam_wheel.so trust group=root\n", &t1, 1, "sudo",
		 "/sudo", "pam_wheel's trust", 2},
		{"", "auth requisite pam_deny.so\nauth [success=2 default=ignore] pam_permit.so\n",
		 &plain, 0, NULL, NULL, NULL, 0}, /* a failure before it stands */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct pam_ways w;
		stacks(cases[i].su_extra, cases[i].sudo_extra);
		size_t n = ways(cases[i].u, &w);
		if (n != cases[i].want)
			fail_msg("case %zu: %zu ways, want %zu", i, n, cases[i].want);
		if (n) {
			char file[128];
			snprintf(file, sizeof file, "%s%s", dir, cases[i].file);
			assert_string_equal(w.v[0].service, cases[i].service);
			assert_string_equal(w.v[0].file, file);
			assert_int_equal(w.v[0].line, cases[i].line);
			if (!strstr(w.v[0].why, cases[i].why))
				fail_msg("case %zu: why \"%s\" lacks \"%s\"", i, w.v[0].why,
					 cases[i].why);
		}
		pam_ways_free(&w);
	}
}

/* login and runuser (runuser-l) are judged too: Debian's as shipped pass; a pam_permit does not. */
static void test_login_runuser(void **state)
{
	(void)state;
	static const char runuser[] = "#%PAM-1.0\nauth\t\tsufficient\tpam_rootok.so\n"
				      "session\t\trequired\tpam_unix.so\n";
	static const char login[] = "auth       optional   pam_faildelay.so  delay=3000000\n"
				    "auth       requisite  pam_nologin.so\n@include common-auth\n"
				    "auth       optional   pam_group.so\n";
	struct pam_ways w;
	char path[128];
	stacks("", "");
	put("runuser", runuser);
	put("runuser-l", "#%PAM-1.0\nauth\t\tinclude\t\trunuser\n");
	put("login", login);
	assert_int_equal(ways(&plain, &w), 0);
	pam_ways_free(&w);
	put("login", "auth sufficient pam_permit.so\n@include common-auth\n");
	put("runuser-l", "auth sufficient pam_succeed_if.so user = t1\n");
	assert_int_equal(ways(&plain, &w), 2);
	assert_string_equal(w.v[0].service, "login");
	assert_int_equal(w.v[0].line, 1);
	assert_string_equal(w.v[1].service, "runuser-l");
	pam_ways_free(&w);
	const char *const made[] = {"runuser", "runuser-l", "login"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, made[i]);
		assert_int_equal(unlink(path), 0);
	}
}

/* Through @include: the included file and its line; each service that includes it. */
static void test_include(void **state)
{
	(void)state;
	struct pam_ways w;
	stacks("", "");
	put("common-auth", "# a site's change\nauth sufficient pam_permit.so\n");
	assert_int_equal(ways(&plain, &w), 2);
	char file[128];
	snprintf(file, sizeof file, "%s/common-auth", dir);
	assert_string_equal(w.v[0].service, "su");
	assert_string_equal(w.v[0].file, file);
	assert_int_equal(w.v[0].line, 2);
	assert_string_equal(w.v[0].text, "auth sufficient pam_permit.so");
	assert_string_equal(w.v[1].service, "sudo");
	pam_ways_free(&w);
	/* An include that includes itself ends. */
	put("common-auth", "@include common-auth\n");
	assert_int_equal(ways(&plain, &w), 0);
	pam_ways_free(&w);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/ruas-pamstack.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stock_debian_passes),
		cmocka_unit_test(test_ways_up),
		cmocka_unit_test(test_login_runuser),
		cmocka_unit_test(test_include),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	static const char *const files[] = {"su", "sudo", "common-auth"};
	for (size_t i = 0; i < 3; i++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		(void)unlink(path);
	}
	(void)rmdir(dir);
	return failed;
}
