/* SPDX-License-Identifier: ISC */
/*
 * test_password.c - the empty-password verdict (src/lib/check/password.h):
 * what the system's passwd -S says, as the helper ran it as the target.
 * NP is fatal; locked and usable passwords are not; anything else (passwd
 * failed, another user's line, a status passwd never prints) is unjudged,
 * never taken for a set password. And the texts, exactly (doas's too).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <stdlib.h>
#include <string.h>

#include "check/messages.h"
#include "check/password.h"
#include "helper_report.h"

static enum password_verdict verdict(int seen, int rc, const char *out, const char *user)
{
	struct helper_report hr;
	memset(&hr, 0, sizeof hr);
	hr.passwd_seen = seen;
	hr.passwd_rc = rc;
	hr.passwd_out = (char *)out;
	return password_verdict(&hr, user);
}

static void test_verdicts(void **state)
{
	(void)state;
	static const struct {
		int seen, rc;
		const char *out;
		enum password_verdict want;
	} cases[] = {
		{0, 0, NULL, PASSWORD_NOT_ASKED},
		{1, 0, "t1 NP 2026-12-05 0 99999 7 -1\n", PASSWORD_EMPTY},
		{1, 0, "t1 L 2026-12-05 0 99999 7 -1\n", PASSWORD_SET},
		{1, 0, "t1 P 2026-12-05 0 99999 7 -1\n", PASSWORD_SET},
		{1, 0, "t1 LK 2026-12-05 (Password locked.)\n", PASSWORD_SET},
		{1, 0, "t1 PS 2026-12-05 (Password set, SHA512 crypt.)\n", PASSWORD_SET},
		{1, 0, "t1 NP", PASSWORD_UNJUDGED}, /* no date: not passwd's line */
		/* Another user's line, or a name that only starts like it: never ours. */
		{1, 0, "t10 NP 2026-12-05 0 99999 7 -1\n", PASSWORD_UNJUDGED},
		{1, 0, "t NP 2026-12-05 0 99999 7 -1\n", PASSWORD_UNJUDGED},
		{1, 0, "root P 2026-12-05 0 99999 7 -1\n", PASSWORD_UNJUDGED},
		{1, 0, "t1 XX 2026-12-05 0 99999 7 -1\n", PASSWORD_UNJUDGED},
		{1, 0, "t1 NPX 2026-12-05\n", PASSWORD_UNJUDGED},
		{1, 0, "", PASSWORD_UNJUDGED},
		{1, 0, NULL, PASSWORD_UNJUDGED},
		/* passwd failed, or did not start: unjudged whatever it printed. */
		{1, 1, "t1 P 2026-12-05 0 99999 7 -1\n", PASSWORD_UNJUDGED},
		{1, -2, "", PASSWORD_UNJUDGED},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		enum password_verdict got =
			verdict(cases[i].seen, cases[i].rc, cases[i].out, "t1");
		if (got != cases[i].want)
			fail_msg("case %zu (%s): got %d, want %d", i,
				 cases[i].out ? cases[i].out : "(null)", (int)got, (int)cases[i].want);
	}
}

static void test_texts(void **state)
{
	(void)state;
	char *t = text_of(msg_password_empty("p", "t1"));
	assert_string_equal(t, "ERROR: project \"p\": target user \"t1\" has no password (passwd -S "
			       "says NP). PAM takes an empty answer for it (pam_unix's nullok, which "
			       "Debian's common-auth sets), so every sudo rule of \"t1\" that asks "
			       "for a password asks for nothing, and su lets any local user become "
			       "it.\nFix: passwd -l t1 (lock it; ruas-setup useradd makes its users "
			       "locked). Then restart ruas.\n");
	free(t);
	t = text_of(msg_password_empty(NULL, "t1"));
	assert_non_null(strstr(t, "ERROR: target user \"t1\" has no password"));
	free(t);
	t = text_of(msg_password_unjudged("p", "t1", -2, ""));
	assert_string_equal(t, "WARNING: project \"p\": whether target user \"t1\" has an empty "
			       "password could not be judged: passwd -S, run as it, did not start "
			       "(errno 2) and said: nothing.\nCheck it as root: passwd -S t1 (NP "
			       "means no password; lock it with passwd -l t1).\n");
	free(t);
	t = text_of(msg_doas_root("p", "t1"));
	assert_string_equal(t, "ERROR: project \"p\": target user \"t1\" can run commands as root "
			       "with doas without a password (doas -n true succeeded as it): a rule "
			       "of /etc/doas.conf permits it with nopass.\nFix: remove that rule, or "
			       "drop its nopass (doas.conf(5)), so that doas asks \"t1\" for a "
			       "password it does not have. Then restart ruas.\n");
	free(t);
	t = text_of(msg_root_password_empty("p"));
	assert_string_equal(t, "ERROR: project \"p\": root has no password. PAM takes an empty "
			       "answer for it (pam_unix's nullok, which Debian's common-auth sets), "
			       "so su makes any local user root, every agent included.\nFix: passwd "
			       "-l root (or give root a password). Then restart ruas.\n");
	free(t);
	t = text_of(msg_root_password_empty(NULL));
	assert_non_null(strstr(t, "ERROR: root has no password."));
	free(t);
	/* What passwd printed is shown escaped, never raw. */
	t = text_of(msg_password_unjudged(NULL, "t1", 1, "passwd: \x1b[31mno\n"));
	assert_non_null(strstr(t, "exited 1 and said: passwd: \\x1b[31mno\\n."));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
