/* SPDX-License-Identifier: ISC */
/*
 * test_child_null.c - every handle function of ruas_child given NULL
 * (issue 26): RUAS_ERR_INVALID with an error naming the function, never a
 * crash (each call runs in a child process, so that a crash is a failure of
 * the test, not of the run); ruas_child_free(NULL) does nothing; and a
 * signal number the kernel does not know is RUAS_ERR_INVALID, checked
 * before the handle is used.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ruas.h"
#include "../support/private_state.h"

enum { CALL_OK = 0, CALL_WRONG = 1 };

/* The call's result as an exit status of a child: CALL_OK, CALL_WRONG, or its signal. */
typedef int (*call_fn)(void);

static void in_child(const char *name, call_fn fn)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn());
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		fail_msg("%s(NULL) crashed: signal %d", name, WTERMSIG(st));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != CALL_OK)
		fail_msg("%s(NULL): not RUAS_ERR_INVALID with an error naming it", name);
}

/* rc and err are RUAS_ERR_INVALID, err's message naming fn; err is freed. */
static int invalid(int rc, ruas_error *err, const char *fn)
{
	int ok = rc == RUAS_ERR_INVALID && err && ruas_error_code(err) == RUAS_ERR_INVALID &&
		 strstr(ruas_error_message(err), fn) != NULL;
	ruas_error_free(err);
	return ok ? CALL_OK : CALL_WRONG;
}

static int call_wait(void)
{
	ruas_error *err = NULL;
	int code = 7;
	int rc = ruas_child_wait(NULL, &code, &err);
	return invalid(rc, err, "ruas_child_wait");
}

static int call_try_wait(void)
{
	ruas_error *err = NULL;
	int rc = ruas_child_try_wait(NULL, NULL, &err);
	return invalid(rc, err, "ruas_child_try_wait");
}

static int call_terminate(void)
{
	ruas_error *err = NULL;
	int rc = ruas_child_terminate(NULL, &err);
	return invalid(rc, err, "ruas_child_terminate");
}

static int call_signal(void)
{
	ruas_error *err = NULL;
	int rc = ruas_child_signal(NULL, SIGKILL, &err);
	return invalid(rc, err, "ruas_child_signal");
}

static int call_signal_no_err(void)
{
	return ruas_child_signal(NULL, SIGTERM, NULL) == RUAS_ERR_INVALID ? CALL_OK : CALL_WRONG;
}

static int call_getters(void)
{
	int stop = 5;
	return ruas_child_pid(NULL) == RUAS_ERR_INVALID &&
			       ruas_child_agent_pid(NULL) == RUAS_ERR_INVALID &&
			       ruas_child_run_id(NULL) == NULL &&
			       ruas_child_pidfd(NULL) == RUAS_ERR_INVALID &&
			       ruas_child_term_signal(NULL) == RUAS_ERR_INVALID &&
			       ruas_child_pty_fd(NULL) == RUAS_ERR_INVALID &&
			       ruas_child_state_fd(NULL) == RUAS_ERR_INVALID &&
			       ruas_child_state(NULL, &stop) == RUAS_ERR_INVALID && stop == 5
		       ? CALL_OK
		       : CALL_WRONG;
}

static int call_free(void)
{
	ruas_child_free(NULL);
	return CALL_OK;
}

static void test_null_handles(void **state)
{
	(void)state;
	in_child("ruas_child_wait", call_wait);
	in_child("ruas_child_try_wait", call_try_wait);
	in_child("ruas_child_terminate", call_terminate);
	in_child("ruas_child_signal", call_signal);
	in_child("ruas_child_signal (no err)", call_signal_no_err);
	in_child("the getters", call_getters);
	in_child("ruas_child_free", call_free);
}

/*
 * A spawn that never happened gives no handle: ruas_spawn(NULL, ...) and
 * with a NULL configuration are refused as well (the control).
 */
static int call_spawn(void)
{
	ruas_error *err = NULL;
	ruas_child *c = NULL;
	const char *args[] = {NULL};
	int rc = ruas_spawn(&c, NULL, "p", args, NULL, &err);
	return invalid(rc, err, "cfg") == CALL_OK && c == NULL ? CALL_OK : CALL_WRONG;
}

static void test_spawn_null_config(void **state)
{
	(void)state;
	in_child("ruas_spawn", call_spawn);
}

int main(void)
{
	private_state();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_handles),
		cmocka_unit_test(test_spawn_null_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
