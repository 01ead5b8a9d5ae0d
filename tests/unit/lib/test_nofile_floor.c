/* SPDX-License-Identifier: ISC */
/*
 * test_nofile_floor.c - below RUNNER_NOFILE_MIN descriptors the checks are
 * not run (issue 26, item 10: at such limits sudo said a user was unknown
 * and the check said it did not exist): ruas_preflight(), ruas_audit() and
 * ruas_check_targets() fail with RUAS_ERR_SYSTEM, EMFILE and a message
 * naming RLIMIT_NOFILE and its value; a preflight with no user to check
 * (or a kept verdict) is not refused for it. Each call runs in a child,
 * whose limit is lowered.
 * Not under valgrind (novalgrind_unit_tests), which keeps descriptors of
 * its own below any limit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check/runner.h"
#include "ruas.h"
#include "../support/private_state.h"

enum { CALL_PREFLIGHT, CALL_AUDIT, CALL_TARGETS, CALL_LEGACY };

/* The call's error at limit n: 0 when it is the floor's, 1 when refused otherwise, 2 not refused. */
static int call_at(int which, rlim_t n)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 3;
	rl.rlim_cur = n;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 3;
	/* A user to check (never reached: the floor comes first), or none (legacy). */
	static const char user[] = "projects = ( { name = \"p\"; run_as_user = \"nobody\"; "
				   "work_dir = \"/\"; command = [\"/bin/true\"]; } );\n";
	static const char legacy[] = "projects = ( { name = \"legacy\"; work_dir = \"/\"; "
				     "command = [\"/bin/true\"]; } );\n";
	const char *text = which == CALL_LEGACY ? legacy : user;
	ruas_config *cfg = NULL;
	if (ruas_config_load_buffer(&cfg, text, strlen(text), "floor.conf", NULL, NULL) != 0)
		return 3;
	ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
	sink.to = RUAS_AUDIT_TO_NONE;
	ruas_preflight_options po = RUAS_PREFLIGHT_OPTIONS_INIT;
	po.audit = &sink;
	const char *const targets[] = {"nobody", NULL};
	ruas_report *rep = NULL;
	ruas_error *err = NULL;
	int r = which == CALL_AUDIT	? ruas_audit(&rep, cfg, &po, &err)
		: which == CALL_TARGETS ? ruas_check_targets(&rep, targets, NULL, &err)
					: ruas_preflight(&rep, cfg, &po, &err);
	char want[64];
	snprintf(want, sizeof want, "RLIMIT_NOFILE is %llu,", (unsigned long long)n);
	int floor = r == RUAS_ERR_SYSTEM && ruas_error_errno(err) == EMFILE &&
		    strstr(ruas_error_message(err), want) != NULL;
	ruas_report_free(rep);
	ruas_error_free(err);
	ruas_config_free(cfg);
	return floor ? 0 : r < 0 ? 1 : 2;
}

static int in_child(int which, rlim_t n)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(call_at(which, n));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_below_the_floor_is_refused_naming_the_limit(void **state)
{
	(void)state;
	for (int which = CALL_PREFLIGHT; which <= CALL_TARGETS; which++) {
		int r = in_child(which, 12);
		if (r != 0)
			fail_msg("call %d at RLIMIT_NOFILE 12: not the floor's refusal (%d)", which, r);
	}
}

/* What needs no sudo is not floored: projects without a user, below the floor too. */
static void test_no_user_to_check_is_not_refused(void **state)
{
	(void)state;
	assert_int_not_equal(in_child(CALL_LEGACY, 12), 0);
	assert_int_not_equal(in_child(CALL_LEGACY, RUNNER_NOFILE_MIN), 0);
}

int main(void)
{
	private_state();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_below_the_floor_is_refused_naming_the_limit),
		cmocka_unit_test(test_no_user_to_check_is_not_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
