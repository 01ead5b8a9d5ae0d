/* SPDX-License-Identifier: ISC */
/*
 * test_command_lookup.c - a project's command looked up as execvp(3) would
 * (src/helper/exec/command_lookup.c, issue 28): the first PATH element with
 * a regular file this process may execute; one that is there but may not
 * be executed, or is a directory, is passed over and named when nothing
 * else is found; a command with '/' is that path; names are taken as they
 * are (spaces, quotes, $).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command_lookup.h"

static char top[64];

static void make_file(const char *dir, const char *name, mode_t mode)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s/%s", top, dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	assert_int_equal(close(fd), 0);
	assert_int_equal(chmod(p, mode), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof top, "/tmp/ruas-cmdlookup.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	const char *dirs[] = {"a", "b", "c", NULL};
	for (size_t i = 0; dirs[i]; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", top, dirs[i]);
		if (mkdir(p, 0755) < 0)
			return -1;
	}
	make_file("b", "tool", 0755);
	make_file("a", "plain", 0644);
	make_file("c", "plain", 0755);
	make_file("a", "only-plain", 0644);
	make_file("b", "my tool \"x\" $HOME", 0755);
	char p[512];
	snprintf(p, sizeof p, "%s/a/adir", top);
	return mkdir(p, 0755);
}

static int teardown(void **state)
{
	(void)state;
	const char *names[] = {"b/tool", "a/plain", "c/plain", "a/only-plain", "b/my tool \"x\" $HOME",
			       NULL};
	for (size_t i = 0; names[i]; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", top, names[i]);
		unlink(p);
	}
	const char *dirs[] = {"a/adir", "a", "b", "c", "", NULL};
	for (size_t i = 0; dirs[i]; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", top, dirs[i]);
		rmdir(p);
	}
	return 0;
}

static char *path_of(const char *tail)
{
	static char p[1024];
	snprintf(p, sizeof p, "%s/a:%s/b:%s/c%s", top, top, top, tail);
	return p;
}

static void test_found_in_a_later_element(void **state)
{
	(void)state;
	struct cmd_lookup c;
	char want[512];
	command_lookup("tool", path_of(""), &c);
	assert_int_equal(c.state, CMD_FOUND);
	snprintf(want, sizeof want, "%s/b/tool", top);
	assert_string_equal(c.path, want);
	assert_string_equal(c.searched, path_of(""));
}

static void test_not_executable_passed_over(void **state)
{
	(void)state;
	struct cmd_lookup c;
	char want[512];
	/* Root too: execution needs an x bit, which 0644 has none of. */
	command_lookup("plain", path_of(""), &c);
	assert_int_equal(c.state, CMD_FOUND);
	snprintf(want, sizeof want, "%s/c/plain", top);
	assert_string_equal(c.path, want);
	command_lookup("only-plain", path_of(""), &c);
	assert_int_equal(c.state, CMD_NOT_EXEC);
	snprintf(want, sizeof want, "%s/a/only-plain", top);
	assert_string_equal(c.path, want);
}

static void test_directory_is_not_a_program(void **state)
{
	(void)state;
	struct cmd_lookup c;
	command_lookup("adir", path_of(""), &c);
	assert_int_equal(c.state, CMD_NOT_EXEC);
}

static void test_missing_and_relative_elements(void **state)
{
	(void)state;
	struct cmd_lookup c;
	command_lookup("ruas-no-such-command", path_of(""), &c);
	assert_int_equal(c.state, CMD_MISSING);
	assert_string_equal(c.path, "");
	/* "", "." and "b" depend on where the agent starts: not searched. */
	char cwd[512];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(top), 0);
	command_lookup("tool", "::.:b:./b", &c);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(c.state, CMD_MISSING);
}

static void test_slash_is_a_path(void **state)
{
	(void)state;
	struct cmd_lookup c;
	char p[512];
	snprintf(p, sizeof p, "%s/b/tool", top);
	command_lookup(p, "/nonexistent", &c);
	assert_int_equal(c.state, CMD_FOUND);
	assert_string_equal(c.path, p);
	assert_string_equal(c.searched, "");
	snprintf(p, sizeof p, "%s/b/nope", top);
	command_lookup(p, "/nonexistent", &c);
	assert_int_equal(c.state, CMD_MISSING);
	assert_string_equal(c.path, p);
	snprintf(p, sizeof p, "%s/b/tool/x", top);
	command_lookup(p, NULL, &c);
	assert_int_equal(c.state, CMD_MISSING); /* ENOTDIR */
	snprintf(p, sizeof p, "%s/a", top);
	command_lookup(p, NULL, &c);
	assert_int_equal(c.state, CMD_NOT_EXEC);
}

static void test_names_taken_as_they_are(void **state)
{
	(void)state;
	struct cmd_lookup c;
	command_lookup("my tool \"x\" $HOME", path_of(""), &c);
	assert_int_equal(c.state, CMD_FOUND);
	command_lookup("my tool \"x\" /root", path_of(""), &c);
	assert_int_equal(c.state, CMD_MISSING);
	command_lookup("*", path_of(""), &c);
	assert_int_equal(c.state, CMD_MISSING);
}

static void test_no_path_searches_the_default(void **state)
{
	(void)state;
	struct cmd_lookup c;
	char def[256];
	assert_true(confstr(_CS_PATH, def, sizeof def) > 0);
	command_lookup("sh", NULL, &c);
	assert_string_equal(c.searched, def);
	assert_int_equal(c.state, CMD_FOUND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_in_a_later_element),
		cmocka_unit_test(test_not_executable_passed_over),
		cmocka_unit_test(test_directory_is_not_a_program),
		cmocka_unit_test(test_missing_and_relative_elements),
		cmocka_unit_test(test_slash_is_a_path),
		cmocka_unit_test(test_names_taken_as_they_are),
		cmocka_unit_test(test_no_path_searches_the_default),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
