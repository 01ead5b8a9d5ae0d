/* SPDX-License-Identifier: ISC */
/*
 * test_targetpw.c - Defaults targetpw with a runas user whose password is
 * empty (src/lib/check/targetpw.h): the flag read from root's listing (the
 * last setting wins), the empty accounts read from a shadow file, and the
 * rules that ask such a user's password found (ALL, a name, #uid), while
 * NOPASSWD rules (judged elsewhere), the user itself and other runas users
 * are not. And the text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/messages.h"
#include "check/sudo_list.h"
#include "check/targetpw.h"
#include "strv.h"

static char shadow[] = "/tmp/ruas-test-shadow-XXXXXX";

static void record(void *ctx, const char *runas, const char *line)
{
	struct buf_like {
		char text[1024];
	} *b = ctx;
	size_t n = strlen(b->text);
	snprintf(b->text + n, sizeof b->text - n, "%s|%s;", runas, line);
}

static size_t ways(const char *listing, const char *user, char *const *empty, char *out,
		   size_t outsz)
{
	struct sudo_listing l;
	const char *why = NULL;
	if (sudo_listing_parse(listing, user, &l, &why) != 0)
		fail_msg("listing not understood (%s): %s", why ? why : "?", listing);
	struct {
		char text[1024];
	} b = {""};
	size_t n = targetpw_ways(&l, user, empty, record, &b);
	snprintf(out, outsz, "%s", b.text);
	sudo_listing_free(&l);
	return n;
}

#define DEFAULTS(d) "Matching Defaults entries for t1 on h:\n    env_reset, " d "\n\n"
#define RULES(r) "User t1 may run the following commands on h:\n    " r "\n"

static void test_flag_and_ways(void **state)
{
	(void)state;
	char *empty[] = {"victim", "t1", "root", NULL};
	char got[1024];
	/* targetpw, a password rule to anyone: the empty accounts but t1 itself. */
	assert_int_equal(ways(DEFAULTS("targetpw") RULES("(ALL) ALL"), "t1", empty, got, sizeof got), 2);
	assert_string_equal(got, "victim|(ALL) ALL;root|(ALL) ALL;");
	/* Without targetpw, or with it taken back: the rule asks t1's own password. */
	assert_int_equal(ways(DEFAULTS("secure_path=/usr/bin") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 0);
	assert_int_equal(ways(DEFAULTS("targetpw, !targetpw") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 0);
	/* A named runas user: that one alone. */
	assert_int_equal(ways(DEFAULTS("targetpw") RULES("(victim) /usr/bin/id"), "t1", empty, got,
			      sizeof got), 1);
	assert_string_equal(got, "victim|(victim) /usr/bin/id;");
	assert_int_equal(ways(DEFAULTS("targetpw") RULES("(bob) ALL"), "t1", empty, got, sizeof got),
			 0);
	/* NOPASSWD asks nothing: check 2 judges that rule, not this. */
	assert_int_equal(ways(DEFAULTS("targetpw") RULES("(victim) NOPASSWD: ALL"), "t1", empty, got,
			      sizeof got), 0);
	/* root by number. */
	assert_int_equal(ways(DEFAULTS("targetpw") RULES("(#0) ALL"), "t1", empty, got, sizeof got), 1);
	assert_string_equal(got, "root|(#0) ALL;");
}

#define BOUND(d) "Runas and Command-specific defaults for t1:\n    " d "\n\n"

/* Defaults>RUNAS targetpw: in force for those runas users alone (the last setting wins). */
static void test_bound_to_runas(void **state)
{
	(void)state;
	char *empty[] = {"victim", "root", NULL};
	char got[1024];
	assert_int_equal(ways(DEFAULTS("secure_path=/usr/bin") BOUND("Defaults>victim targetpw")
				      RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 1);
	assert_string_equal(got, "victim|(ALL) ALL;");
	assert_int_equal(ways(BOUND("Defaults>ALL targetpw") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 2);
	assert_int_equal(ways(BOUND("Defaults>victim, #0 targetpw") RULES("(ALL) ALL"), "t1", empty,
			      got, sizeof got), 2);
	/* Taken back for one runas user: the other still. */
	assert_int_equal(ways(DEFAULTS("targetpw") BOUND("Defaults>victim !targetpw")
				      RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 1);
	assert_string_equal(got, "root|(ALL) ALL;");
	/* Set then taken back for the same one, in that order: not in force. */
	assert_int_equal(ways(BOUND("Defaults>victim targetpw\n    Defaults>victim !targetpw")
				      RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 0);
	/* Bound to someone else: nothing. */
	assert_int_equal(ways(BOUND("Defaults>bob targetpw") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 0);
	/* A Runas_Alias the listing cannot expand: in force (not judged is not passed)... */
	assert_int_equal(ways(BOUND("Defaults>ADMINS targetpw") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 2);
	/* ... but it takes nothing back. */
	assert_int_equal(ways(DEFAULTS("targetpw") BOUND("Defaults>ADMINS !targetpw")
				      RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 2);
	/* Other defaults bound to a runas user change nothing. */
	assert_int_equal(ways(BOUND("Defaults>victim env_reset") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 0);
	/* A negation after a match takes it out, as sudo reads the list: the last match decides. */
	assert_int_equal(ways(DEFAULTS("targetpw") BOUND("Defaults>ALL, !victim !targetpw")
				      RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 1);
	assert_string_equal(got, "victim|(ALL) ALL;");
	/* Forms the listing cannot expand: unknown, so in force when set. */
	assert_int_equal(ways(BOUND("Defaults>+admins targetpw") RULES("(ALL) ALL"), "t1", empty,
			      got, sizeof got), 2);
	assert_int_equal(ways(BOUND("Defaults>%#0 targetpw") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 2);
	/* root's primary group is root: %root names it. */
	assert_int_equal(ways(BOUND("Defaults>%root targetpw") RULES("(ALL) ALL"), "t1", empty, got,
			      sizeof got), 1);
	assert_string_equal(got, "root|(ALL) ALL;");
	/* sudo -l wraps a long entry at 80 columns: the flag on the next line still counts. */
	assert_int_equal(ways(BOUND("Defaults>alice, bob, carol, dave, erin, frank, grace, heidi, "
				    "ivan, judy,\n        victim targetpw")
				      RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 1);
	assert_string_equal(got, "victim|(ALL) ALL;");
	/* A command with arguments: the flag is the last word. */
	assert_int_equal(ways(BOUND("Defaults!/usr/bin/vi /etc/motd targetpw") RULES("(ALL) ALL"),
			      "t1", empty, got, sizeof got), 2);
	/* Bound to a command (vi, which runs a shell) the rule covers: in force for it. */
	assert_int_equal(ways(BOUND("Defaults!/usr/bin/vi targetpw") RULES("(ALL) ALL"), "t1", empty,
			      got, sizeof got), 2);
}

static void test_empty_accounts(void **state)
{
	(void)state;
	FILE *f = fopen(shadow, "we");
	assert_non_null(f);
	fputs("root:$y$j9T$abc:19000:0:99999:7:::\nvictim::19000:0:99999:7:::\n"
	      "locked:!:19000:0:99999:7:::\nstar:*:19000:0:99999:7:::\nnp2::19000::::::\n",
	      f);
	fclose(f);
	char **v = targetpw_empty_accounts(shadow);
	assert_non_null(v);
	assert_string_equal(v[0], "victim");
	assert_string_equal(v[1], "np2");
	assert_null(v[2]);
	strv_free(v);
	assert_null(targetpw_empty_accounts("/nonexistent/shadow"));
}

static void test_text(void **state)
{
	(void)state;
	char *t = text_of(msg_targetpw_empty("t1", "victim", "(ALL) ALL"));
	assert_string_equal(t, "ERROR: target user \"t1\" can run commands as \"victim\" with sudo by "
			       "giving that user's password, which is empty: Defaults targetpw is in "
			       "force for it, so the rule \"(ALL) ALL\" asks for the runas user's "
			       "password, and pam_unix's nullok (Debian's common-auth) takes an empty "
			       "answer.\nFix: passwd -l victim (or give it a password), or drop "
			       "targetpw for \"t1\". Then restart ruas.\n");
	free(t);
}

int main(void)
{
	int fd = mkstemp(shadow);
	if (fd < 0)
		return 1;
	close(fd);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flag_and_ways),
		cmocka_unit_test(test_bound_to_runas),
		cmocka_unit_test(test_empty_accounts),
		cmocka_unit_test(test_text),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	(void)unlink(shadow);
	return failed;
}
