/* SPDX-License-Identifier: ISC */
/*
 * test_pam_sequence.c - the PAM login sequence of src/helper/session/pam_login.c with a
 * fake struct pam_ops: no root, no libpam at run time.
 *
 * The fake records every call that changes PAM state (start, set_item,
 * acct_mgmt, setcred, open_session, close_session, getenvlist, end) with
 * its one interesting argument: the item type for set_item, the flags for
 * the others, the status for end. strerror is not part of the sequence; it
 * is counted, and it must only be asked while the handle is alive. Any step
 * can be told to fail with a chosen PAM error. Each test asserts the exact
 * sequence, and for failures exactly the cleanup that is needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pam_login.h"

#define SERVICE "ruas"
#define USER "alice"
#define RUSER "root"
#define TTY "/dev/pts/3"

/* ------------------------------------------------------------ the fake */

enum fn { F_START, F_SET_ITEM, F_ACCT, F_SETCRED, F_OPEN, F_CLOSE, F_GETENV, F_END };
static const char *const fn_names[] = {"start", "set_item", "acct_mgmt", "setcred",
				       "open_session", "close_session", "getenvlist", "end"};

struct call {
	enum fn fn;
	int arg; /* item type, flags, or pam_end's status; 0 for start and getenvlist */
};

#define ANY_ARG (-1)
#define MAX_CALLS 32

/* The dummy handle: any non-NULL pointer that no one dereferences. */
static char dummy_handle_storage;
/* What the conversation's response pointer holds before the call. */
static struct pam_response resp_sentinel;
#define DUMMY_HANDLE ((pam_handle_t *)(void *)&dummy_handle_storage)

static struct fake {
	struct call calls[MAX_CALLS];
	size_t n;
	int overflow;
	/* failure injection */
	int fail_on;        /* 1 when fail_fn is set */
	enum fn fail_fn;
	int fail_arg;       /* ANY_ARG or the item type / flags that must match */
	int fail_status;
	int start_keeps_handle; /* a failing start still hands back the handle */
	/* what start was given */
	char service[64], user[64];
	const struct pam_conv *conv;
	/* what set_item was given */
	char ruser[64], tty[64];
	/* misuse */
	int bad_handle;     /* calls with a handle that is not the dummy */
	int after_end;      /* calls after end released the handle */
	int ended;
	/* strerror */
	int strerror_calls, strerror_last;
	enum { SE_NORMAL, SE_NULL, SE_LONG } strerror_mode;
	/* getenvlist: a NULL-terminated list to copy into malloc'd memory */
	const char *const *env;
} fake;

static int fake_reset(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof fake);
	return 0;
}

static void fake_clear_log(void)
{
	fake.n = 0;
}

static void fake_fail(enum fn fn, int arg, int status)
{
	fake.fail_on = 1;
	fake.fail_fn = fn;
	fake.fail_arg = arg;
	fake.fail_status = status;
}

/* Records the call; returns the injected status or PAM_SUCCESS. */
static int record(enum fn fn, const pam_handle_t *h, int arg)
{
	if (fn != F_START) {
		if (h != DUMMY_HANDLE)
			fake.bad_handle++;
		if (fake.ended)
			fake.after_end++;
	}
	if (fake.n < MAX_CALLS)
		fake.calls[fake.n++] = (struct call){fn, arg};
	else
		fake.overflow = 1;
	if (fake.fail_on && fake.fail_fn == fn &&
	    (fake.fail_arg == ANY_ARG || fake.fail_arg == arg))
		return fake.fail_status;
	return PAM_SUCCESS;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "(null)");
}

static int fake_start(const char *service, const char *user,
		      const struct pam_conv *conv, pam_handle_t **h)
{
	copy_str(fake.service, sizeof fake.service, service);
	copy_str(fake.user, sizeof fake.user, user);
	fake.conv = conv;
	fake.ended = 0;
	int r = record(F_START, NULL, 0);
	*h = r == PAM_SUCCESS || fake.start_keeps_handle ? DUMMY_HANDLE : NULL;
	return r;
}

static int fake_set_item(pam_handle_t *h, int type, const void *item)
{
	if (type == PAM_RUSER)
		copy_str(fake.ruser, sizeof fake.ruser, item);
	else if (type == PAM_TTY)
		copy_str(fake.tty, sizeof fake.tty, item);
	return record(F_SET_ITEM, h, type);
}

static int fake_acct_mgmt(pam_handle_t *h, int flags)
{
	return record(F_ACCT, h, flags);
}

static int fake_setcred(pam_handle_t *h, int flags)
{
	return record(F_SETCRED, h, flags);
}

static int fake_open_session(pam_handle_t *h, int flags)
{
	return record(F_OPEN, h, flags);
}

static int fake_close_session(pam_handle_t *h, int flags)
{
	return record(F_CLOSE, h, flags);
}

static char **fake_getenvlist(pam_handle_t *h)
{
	record(F_GETENV, h, 0);
	if (!fake.env)
		return NULL;
	size_t n = 0;
	while (fake.env[n])
		n++;
	char **list = calloc(n + 1, sizeof *list);
	assert_non_null(list);
	for (size_t i = 0; i < n; i++) {
		list[i] = strdup(fake.env[i]);
		assert_non_null(list[i]);
	}
	return list;
}

static const char *fake_text(int errnum)
{
	static char buf[64];
	snprintf(buf, sizeof buf, "fake strerror %d", errnum);
	return buf;
}

/* cppcheck-suppress constParameter ; the signature of pam_ops.strerror */
static const char *fake_strerror(pam_handle_t *h, int errnum)
{
	static char long_text[1000];
	if (h != DUMMY_HANDLE)
		fake.bad_handle++;
	if (fake.ended)
		fake.after_end++;
	fake.strerror_calls++;
	fake.strerror_last = errnum;
	switch (fake.strerror_mode) {
	case SE_NULL:
		return NULL;
	case SE_LONG:
		memset(long_text, 'x', sizeof long_text - 1);
		long_text[sizeof long_text - 1] = '\0';
		return long_text;
	case SE_NORMAL:
		break;
	}
	return fake_text(errnum);
}

static int fake_end(pam_handle_t *h, int status)
{
	int r = record(F_END, h, status);
	fake.ended = 1;
	return r;
}

static const struct pam_ops fake_ops = {
	fake_start, fake_set_item, fake_acct_mgmt, fake_setcred, fake_open_session,
	fake_close_session, fake_getenvlist, fake_strerror, fake_end};

/* ------------------------------------------------------------ checks */

static void print_calls(const char *title, const struct call *c, size_t n)
{
	fprintf(stderr, "%s (%zu):", title, n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %s(%d)", fn_names[c[i].fn], c[i].arg);
	fputc('\n', stderr);
}

static void check_calls(const struct call *want, size_t n)
{
	assert_false(fake.overflow);
	int same = fake.n == n;
	for (size_t i = 0; same && i < n; i++)
		same = fake.calls[i].fn == want[i].fn && fake.calls[i].arg == want[i].arg;
	if (!same) {
		print_calls("expected", want, n);
		print_calls("got     ", fake.calls, fake.n);
		fail_msg("the PAM call sequence differs");
	}
	assert_int_equal(fake.bad_handle, 0);
	assert_int_equal(fake.after_end, 0);
}

#define C(f, a) {(f), (a)}
#define EXPECT_CALLS(...)                                                   \
	do {                                                                \
		static const struct call want_[] = {__VA_ARGS__};           \
		check_calls(want_, sizeof want_ / sizeof want_[0]);         \
	} while (0)

static void expect_no_calls(void)
{
	check_calls(NULL, 0);
}

/* A failed begin: -1, the step, "word: <strerror text>", everything undone. */
static void check_failure(const struct pam_login *l, enum pam_step step,
			  const char *word, int status)
{
	assert_int_equal(l->failed, step);
	assert_int_equal(l->last, status);
	assert_non_null(strstr(l->reason, word));
	assert_non_null(strstr(l->reason, fake_text(status)));
	char want[256];
	snprintf(want, sizeof want, "%s: %s", word, fake_text(status));
	assert_string_equal(l->reason, want);
	assert_int_equal(fake.strerror_calls, 1);
	assert_int_equal(fake.strerror_last, status);
	assert_null(l->h);
	assert_int_equal(l->cred, 0);
	assert_int_equal(l->session, 0);
	assert_int_equal(fake.ended, 1);
}

/* ------------------------------------------------------------ success */

static void test_success_full_sequence(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), 0);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0), C(F_SETCRED, PAM_ESTABLISH_CRED), C(F_OPEN, 0));
	assert_string_equal(fake.service, SERVICE);
	assert_string_equal(fake.user, USER);
	assert_string_equal(fake.ruser, RUSER);
	assert_string_equal(fake.tty, TTY);
	assert_non_null(fake.conv);
	assert_non_null(fake.conv->conv);
	assert_ptr_equal(l.ops, &fake_ops);
	assert_ptr_equal(l.h, DUMMY_HANDLE);
	assert_int_equal(l.failed, STEP_NONE);
	assert_int_equal(l.last, PAM_SUCCESS);
	assert_int_equal(l.cred, 1);
	assert_int_equal(l.session, 1);
	assert_string_equal(l.reason, "");
	assert_int_equal(fake.strerror_calls, 0);
	assert_int_equal(fake.ended, 0);

	fake_clear_log();
	pam_login_end(&l);
	EXPECT_CALLS(C(F_CLOSE, 0), C(F_SETCRED, PAM_DELETE_CRED), C(F_END, PAM_SUCCESS));
	assert_null(l.h);
	assert_int_equal(l.cred, 0);
	assert_int_equal(l.session, 0);
}

static void test_success_without_tty(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, NULL, 1), 0);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_ACCT, 0),
		     C(F_SETCRED, PAM_ESTABLISH_CRED), C(F_OPEN, 0));
	assert_string_equal(fake.tty, "");
	fake_clear_log();
	pam_login_end(&l);
	EXPECT_CALLS(C(F_CLOSE, 0), C(F_SETCRED, PAM_DELETE_CRED), C(F_END, PAM_SUCCESS));
}

static void test_success_without_ruser_or_tty(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, NULL, NULL, 1), 0);
	EXPECT_CALLS(C(F_START, 0), C(F_ACCT, 0), C(F_SETCRED, PAM_ESTABLISH_CRED),
		     C(F_OPEN, 0));
	fake_clear_log();
	pam_login_end(&l);
	EXPECT_CALLS(C(F_CLOSE, 0), C(F_SETCRED, PAM_DELETE_CRED), C(F_END, PAM_SUCCESS));
}

/* begin starts from a clean record whatever the caller's struct held. */
static void test_begin_clears_the_record(void **state)
{
	(void)state;
	struct pam_login l;
	memset(&l, 0xa5, sizeof l);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 0), 0);
	assert_int_equal(l.failed, STEP_NONE);
	assert_string_equal(l.reason, "");
	assert_int_equal(l.cred, 0);
	assert_int_equal(l.session, 0);
	pam_login_end(&l);
}

static void test_end_is_idempotent(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), 0);
	pam_login_end(&l);
	assert_int_equal(fake.n, 9); /* 6 of begin, 3 of end */
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
	pam_login_end(&l);
	expect_no_calls();
}

/* A failing pam_close_session still deletes the credentials; pam_end gets its status. */
static void test_end_passes_close_session_error(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), 0);
	fake_fail(F_CLOSE, ANY_ARG, PAM_SESSION_ERR);
	fake_clear_log();
	pam_login_end(&l);
	EXPECT_CALLS(C(F_CLOSE, 0), C(F_SETCRED, PAM_DELETE_CRED), C(F_END, PAM_SESSION_ERR));
	assert_int_equal(l.last, PAM_SESSION_ERR);
	assert_null(l.h);
}

/* ------------------------------------------------------------ check mode */

static void test_check_mode_stops_after_acct(void **state)
{
	(void)state;
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 0), 0);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0));
	assert_ptr_equal(l.h, DUMMY_HANDLE);
	assert_int_equal(l.failed, STEP_NONE);
	assert_int_equal(l.cred, 0);
	assert_int_equal(l.session, 0);

	fake_clear_log();
	pam_login_end(&l);
	EXPECT_CALLS(C(F_END, PAM_SUCCESS));
	assert_null(l.h);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

static void test_check_mode_acct_fails(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_ACCT, ANY_ARG, PAM_ACCT_EXPIRED);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 0), -1);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0), C(F_END, PAM_ACCT_EXPIRED));
	check_failure(&l, STEP_ACCT, "account", PAM_ACCT_EXPIRED);
}

/* ------------------------------------------------------------ failures */

static void test_acct_expired(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_ACCT, ANY_ARG, PAM_ACCT_EXPIRED);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	/* No setcred at all (neither ESTABLISH nor DELETE), no session calls. */
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0), C(F_END, PAM_ACCT_EXPIRED));
	check_failure(&l, STEP_ACCT, "account", PAM_ACCT_EXPIRED);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

static void test_setcred_fails(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_SETCRED, PAM_ESTABLISH_CRED, PAM_CRED_ERR);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	/* Credentials were not established: nothing to delete, no session. */
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0), C(F_SETCRED, PAM_ESTABLISH_CRED), C(F_END, PAM_CRED_ERR));
	check_failure(&l, STEP_SETCRED, "credentials", PAM_CRED_ERR);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

static void test_open_session_fails(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_OPEN, ANY_ARG, PAM_SESSION_ERR);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	/* The credentials are deleted; the session never opened, so no close. */
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0), C(F_SETCRED, PAM_ESTABLISH_CRED), C(F_OPEN, 0),
		     C(F_SETCRED, PAM_DELETE_CRED), C(F_END, PAM_SESSION_ERR));
	check_failure(&l, STEP_SESSION, "session", PAM_SESSION_ERR);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

/*
 * pam_start failing: there is no handle to ask pam_strerror with, so the
 * reason names pam_start, the service and the numeric status instead.
 */
static void check_start_reason(const struct pam_login *l, int status)
{
	char code[32];
	snprintf(code, sizeof code, "(%d)", status);
	assert_int_equal(l->failed, STEP_START);
	assert_int_equal(l->last, status);
	assert_non_null(strstr(l->reason, "pam_start"));
	assert_non_null(strstr(l->reason, SERVICE));
	assert_non_null(strstr(l->reason, code));
	assert_null(l->h);
	assert_int_equal(l->cred, 0);
	assert_int_equal(l->session, 0);
	assert_int_equal(fake.strerror_calls, 0);
}

static void test_start_fails_without_handle(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_START, ANY_ARG, PAM_SYSTEM_ERR);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	EXPECT_CALLS(C(F_START, 0)); /* no pam_end on a NULL handle */
	check_start_reason(&l, PAM_SYSTEM_ERR);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

/* A pam_start that fails but still hands back a handle: that handle is ended. */
static void test_start_fails_with_handle(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_START, ANY_ARG, PAM_BUF_ERR);
	fake.start_keeps_handle = 1;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	EXPECT_CALLS(C(F_START, 0), C(F_END, PAM_BUF_ERR));
	check_start_reason(&l, PAM_BUF_ERR);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

static void test_set_item_ruser_fails(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_SET_ITEM, PAM_RUSER, PAM_BAD_ITEM);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_END, PAM_BAD_ITEM));
	check_failure(&l, STEP_START, "setting PAM items", PAM_BAD_ITEM);
	fake_clear_log();
	pam_login_end(&l);
	expect_no_calls();
}

static void test_set_item_tty_fails(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_SET_ITEM, PAM_TTY, PAM_BUF_ERR);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 0), -1);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_END, PAM_BUF_ERR));
	check_failure(&l, STEP_START, "setting PAM items", PAM_BUF_ERR);
}

static void test_strerror_null_and_long(void **state)
{
	(void)state;
	struct pam_login l;
	fake_fail(F_ACCT, ANY_ARG, PAM_PERM_DENIED);
	fake.strerror_mode = SE_NULL;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	assert_int_equal(l.failed, STEP_ACCT);
	assert_string_equal(l.reason, "account: ?");

	fake_reset(NULL);
	fake_fail(F_OPEN, ANY_ARG, PAM_SESSION_ERR);
	fake.strerror_mode = SE_LONG;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	assert_int_equal(l.failed, STEP_SESSION);
	assert_int_equal(strlen(l.reason), sizeof l.reason - 1);
	assert_memory_equal(l.reason, "session: xxx", 12);
	EXPECT_CALLS(C(F_START, 0), C(F_SET_ITEM, PAM_RUSER), C(F_SET_ITEM, PAM_TTY),
		     C(F_ACCT, 0), C(F_SETCRED, PAM_ESTABLISH_CRED), C(F_OPEN, 0),
		     C(F_SETCRED, PAM_DELETE_CRED), C(F_END, PAM_SESSION_ERR));
}

/* ------------------------------------------------------------ environment */

static void test_env_through_getenvlist(void **state)
{
	(void)state;
	static const char *const env[] = {"MAIL=/var/mail/alice", "XDG_RUNTIME_DIR=/run/user/1501",
					  NULL};
	struct pam_login l;
	fake.env = env;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), 0);
	fake_clear_log();
	char **got = pam_login_env(&l);
	EXPECT_CALLS(C(F_GETENV, 0));
	assert_non_null(got);
	assert_string_equal(got[0], env[0]);
	assert_string_equal(got[1], env[1]);
	assert_null(got[2]);
	/* LSan reports the list or its strings if this does not free them all. */
	pam_login_free_env(got);

	fake.env = NULL;
	fake_clear_log();
	assert_null(pam_login_env(&l));
	EXPECT_CALLS(C(F_GETENV, 0));
	pam_login_free_env(NULL);

	pam_login_end(&l);
	/* No handle any more: no call, no list. */
	fake.env = env;
	fake_clear_log();
	assert_null(pam_login_env(&l));
	expect_no_calls();
}

static void test_env_after_failed_begin(void **state)
{
	(void)state;
	static const char *const env[] = {"A=1", NULL};
	struct pam_login l;
	fake.env = env;
	fake_fail(F_ACCT, ANY_ARG, PAM_ACCT_EXPIRED);
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 1), -1);
	fake_clear_log();
	assert_null(pam_login_env(&l));
	expect_no_calls();
}

/* ------------------------------------------------------------ conversation */

/* Calls the conversation that begin handed to pam_start, capturing stderr. */
static int converse(const struct pam_message *msgs, int n, struct pam_response **resp,
		    char *err, size_t errsize)
{
	const struct pam_message *ptrs[8];
	assert_true(n <= 8);
	for (int i = 0; i < n; i++)
		ptrs[i] = &msgs[i];
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	*resp = &resp_sentinel; /* the conversation must overwrite it */
	int r = fake.conv->conv(n, ptrs, resp, fake.conv->appdata_ptr);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	size_t len = fread(err, 1, errsize - 1, tmp);
	err[len] = '\0';
	fclose(tmp);
	return r;
}

static void free_responses(struct pam_response *resp, int n)
{
	if (!resp || resp == &resp_sentinel)
		return;
	for (int i = 0; i < n; i++)
		free(resp[i].resp);
	free(resp);
}

static void begin_for_conv(void)
{
	struct pam_login l;
	assert_int_equal(pam_login_begin(&l, &fake_ops, SERVICE, USER, RUSER, TTY, 0), 0);
	pam_login_end(&l);
	assert_non_null(fake.conv);
	assert_non_null(fake.conv->conv);
}

/* Nothing can answer a prompt: the conversation fails and hands back nothing. */
static void test_conv_refuses_prompts(void **state)
{
	(void)state;
	begin_for_conv();
	static const struct pam_message echo_off = {PAM_PROMPT_ECHO_OFF, "Password: "};
	static const struct pam_message echo_on = {PAM_PROMPT_ECHO_ON, "Login: "};
	static const struct pam_message mixed[] = {{PAM_TEXT_INFO, "about to ask"},
						   {PAM_PROMPT_ECHO_OFF, "Password: "}};
	struct pam_response *resp;
	char err[256];

	assert_int_equal(converse(&echo_off, 1, &resp, err, sizeof err), PAM_CONV_ERR);
	assert_null(resp);
	assert_null(strstr(err, "Password"));
	assert_int_equal(converse(&echo_on, 1, &resp, err, sizeof err), PAM_CONV_ERR);
	assert_null(resp);
	assert_int_equal(converse(mixed, 2, &resp, err, sizeof err), PAM_CONV_ERR);
	assert_null(resp);
}

/* Messages for the user go to stderr, one a line, as runuser shows them. */
static void test_conv_shows_messages_on_stderr(void **state)
{
	(void)state;
	begin_for_conv();
	static const struct pam_message msgs[] = {{PAM_TEXT_INFO, "You have new mail."},
						  {PAM_ERROR_MSG, "Your password expires soon."}};
	struct pam_response *resp;
	char err[256];
	int r = converse(msgs, 2, &resp, err, sizeof err);
	if (r == PAM_SUCCESS)
		free_responses(resp, 2);
	assert_string_equal(err, "You have new mail.\nYour password expires soon.\n");
}

/*
 * A conversation of messages only has asked nothing, so it must succeed:
 * pam_info()/pam_error() return the conversation's status and modules such
 * as pam_mail pass it on, so PAM_CONV_ERR here fails their step (see
 * test_pam_wrapper.c, test_info_message_does_not_fail_session). runuser's
 * misc_conv answers PAM_SUCCESS. (pam_login.c at e8b2deb answered
 * PAM_CONV_ERR and failed this test.)
 */
static void test_conv_info_only_succeeds(void **state)
{
	(void)state;
	begin_for_conv();
	static const struct pam_message msgs[] = {{PAM_TEXT_INFO, "You have new mail."},
						  {PAM_ERROR_MSG, "Your password expires soon."}};
	struct pam_response *resp;
	char err[256];
	int r = converse(msgs, 2, &resp, err, sizeof err);
	if (r == PAM_SUCCESS)
		free_responses(resp, 2);
	assert_int_equal(r, PAM_SUCCESS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_success_full_sequence, fake_reset),
		cmocka_unit_test_setup(test_success_without_tty, fake_reset),
		cmocka_unit_test_setup(test_success_without_ruser_or_tty, fake_reset),
		cmocka_unit_test_setup(test_begin_clears_the_record, fake_reset),
		cmocka_unit_test_setup(test_end_is_idempotent, fake_reset),
		cmocka_unit_test_setup(test_end_passes_close_session_error, fake_reset),
		cmocka_unit_test_setup(test_check_mode_stops_after_acct, fake_reset),
		cmocka_unit_test_setup(test_check_mode_acct_fails, fake_reset),
		cmocka_unit_test_setup(test_acct_expired, fake_reset),
		cmocka_unit_test_setup(test_setcred_fails, fake_reset),
		cmocka_unit_test_setup(test_open_session_fails, fake_reset),
		cmocka_unit_test_setup(test_start_fails_without_handle, fake_reset),
		cmocka_unit_test_setup(test_start_fails_with_handle, fake_reset),
		cmocka_unit_test_setup(test_set_item_ruser_fails, fake_reset),
		cmocka_unit_test_setup(test_set_item_tty_fails, fake_reset),
		cmocka_unit_test_setup(test_strerror_null_and_long, fake_reset),
		cmocka_unit_test_setup(test_env_through_getenvlist, fake_reset),
		cmocka_unit_test_setup(test_env_after_failed_begin, fake_reset),
		cmocka_unit_test_setup(test_conv_refuses_prompts, fake_reset),
		cmocka_unit_test_setup(test_conv_shows_messages_on_stderr, fake_reset),
		cmocka_unit_test_setup(test_conv_info_only_succeeds, fake_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
