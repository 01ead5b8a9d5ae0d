/* SPDX-License-Identifier: ISC */
/*
 * test_exec_limits.c - the agent's exec limits, checked before anything
 * starts (src/lib/spawn/exec_limits.h): one string of MAX_ARG_STRLEN - 1
 * bytes fits and one byte more is RUAS_ERR_TOOLONG naming the argument or
 * the variable; the whole fits up to EXEC_TOTAL_MAX (less the login
 * environment's reserve) and not a byte over; and the limit is the
 * kernel's: with the usual 8 MiB stack an exec as large as the check
 * allows succeeds, and one with a string over it fails with E2BIG.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config_int.h"
#include "spawn/exec_limits.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

static struct ruas_project project = {.name = (char *)"agent"};

static char *filled(size_t n)
{
	char *s = malloc(n + 1);
	assert_non_null(s);
	memset(s, 'x', n);
	s[n] = '\0';
	return s;
}

static int check(char *const *argv, size_t argc, char *const *names, char *const *values,
		 size_t n, int login, ruas_error **err)
{
	*err = NULL;
	return exec_limits_check(&project, argv, argc, names, values, n, login, err);
}

/* errp, not the error: it is read after the call in the same statement has filled it. */
static void assert_too_long(int r, ruas_error **errp, const char *needle)
{
	ruas_error *err = *errp;
	assert_int_equal(r, RUAS_ERR_TOOLONG);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_TOOLONG);
	assert_int_equal(ruas_error_errno(err), E2BIG);
	const char *m = ruas_error_message(err);
	if (!strstr(m, "project \"agent\"") || !strstr(m, needle))
		fail_msg("message \"%s\" lacks the project or \"%s\"", m, needle);
	ruas_error_free(err);
}

static void test_one_string(void **state)
{
	(void)state;
	ruas_error *err;
	char *fits = filled(EXEC_STRING_MAX - 1), *over = filled(EXEC_STRING_MAX);
	char *argv[] = {(char *)"claude", fits};
	assert_int_equal(check(argv, 2, NULL, NULL, 0, 1, &err), 0);
	assert_null(err);
	argv[1] = over;
	assert_too_long(check(argv, 2, NULL, NULL, 0, 1, &err), &err,
			"argument 1 of the command is 131072 bytes, more than the 131071");
	/* A variable: its NAME=value is the string. */
	char *names[] = {(char *)"SESSION_TOKEN"}, *values[] = {fits};
	fits[EXEC_STRING_MAX - 1 - strlen("SESSION_TOKEN=")] = '\0';
	argv[1] = (char *)"--print";
	assert_int_equal(check(argv, 2, names, values, 1, 1, &err), 0);
	size_t at = strlen(fits);
	fits[at] = 'x';
	fits[at + 1] = '\0';
	assert_too_long(check(argv, 2, names, values, 1, 1, &err), &err,
			"variable SESSION_TOKEN is 131072 bytes");
	/* An environment vector (legacy mode): the name before its '='. */
	char *env[] = {over};
	memcpy(over, "BIG=", 4);
	assert_too_long(check(argv, 2, env, NULL, 1, 0, &err), &err, "variable BIG is");
	free(fits);
	free(over);
}

static void test_total(void **state)
{
	(void)state;
	ruas_error *err;
	/* Strings of 100000 bytes: each costs its bytes, its NUL and its pointer. */
	enum { LEN = 100000 };
	size_t each = LEN + 1 + sizeof(char *), base = 2 * sizeof(char *);
	size_t n = (EXEC_TOTAL_MAX - EXEC_LOGIN_ENV_RESERVE - base) / each;
	char **argv = calloc(n + 1, sizeof *argv);
	assert_non_null(argv);
	for (size_t i = 0; i <= n; i++)
		argv[i] = filled(LEN);
	/* The most that fits beside a login environment: n of them, then one short one to the byte. */
	size_t left = EXEC_TOTAL_MAX - EXEC_LOGIN_ENV_RESERVE - base - n * each;
	char *last = filled(left - 1 - sizeof(char *));
	char *saved = argv[n];
	argv[n] = last;
	assert_int_equal(check(argv, n + 1, NULL, NULL, 0, 1, &err), 0);
	char *one_more = filled(left - sizeof(char *));
	argv[n] = one_more;
	assert_too_long(check(argv, n + 1, NULL, NULL, 0, 1, &err), &err,
			"more than the 2031616 an exec takes beside the target's login environment");
	/* Without a login environment (legacy mode) the reserve is not held back. */
	assert_int_equal(check(argv, n + 1, NULL, NULL, 0, 0, &err), 0);
	argv[n] = saved;
	for (size_t i = 0; i <= n; i++)
		free(argv[i]);
	free(argv);
	free(last);
	free(one_more);
}

/* The kernel agrees: as much as the check lets through runs; one string over it does not. */
static void test_the_kernel_agrees(void **state)
{
	(void)state;
	/* valgrind cannot follow an execve that fails: the plain run (make check) tests this. */
	if (RUNNING_ON_VALGRIND) {
		fprintf(stderr, "under valgrind: the exec itself is left to the plain run\n");
		return;
	}
	enum { LEN = 100000 };
	size_t each = LEN + 1 + sizeof(char *);
	size_t n = (EXEC_TOTAL_MAX - EXEC_LOGIN_ENV_RESERVE) / each - 1;
	for (int over = 0; over <= 1; over++) {
		char **argv = calloc(n + 3, sizeof *argv);
		assert_non_null(argv);
		argv[0] = (char *)"/bin/true";
		for (size_t i = 1; i <= n; i++)
			argv[i] = filled(over && i == 1 ? EXEC_STRING_MAX : LEN);
		ruas_error *err;
		int r = check(argv, n + 1, NULL, NULL, 0, 1, &err);
		ruas_error_free(err);
		assert_int_equal(r, over ? RUAS_ERR_TOOLONG : 0);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			/* The usual stack limit, whatever this test was started with. */
			struct rlimit rl = {4 * (rlim_t)EXEC_TOTAL_MAX, 4 * (rlim_t)EXEC_TOTAL_MAX};
			if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
			    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= 4 * (rlim_t)EXEC_TOTAL_MAX))
				rl.rlim_cur = 4 * (rlim_t)EXEC_TOTAL_MAX;
			if (setrlimit(RLIMIT_STACK, &rl) < 0 || rl.rlim_cur != 4 * (rlim_t)EXEC_TOTAL_MAX)
				_exit(9);
			char *none[] = {NULL};
			execve(argv[0], argv, none);
			_exit(errno == E2BIG ? 7 : 8);
		}
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), over ? 7 : 0);
		for (size_t i = 1; i <= n; i++)
			free(argv[i]);
		free(argv);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_string),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_the_kernel_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
