/*
 * test_names.c - user, variable and project name rules (src/names.h) and
 * the escaping of untrusted strings for people and shells (src/quote.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "names.h"
#include "quote.h"

/* ---------------------------------------------------------- user names */

static void test_user_names_accepted(void **state)
{
	(void)state;
	static const char *const ok[] = {
		"alice", "_svc", "a-b_c9", "a", "_", "partseeker-coder",
		"abcdefghijklmnopqrstuvwxyz012345", /* 32 bytes */
		"x-", "a1", NULL};
	assert_int_equal(strlen(ok[6]), 32);
	for (const char *const *n = ok; *n; n++) {
		const char *why = user_name_problem(*n);
		if (why)
			fail_msg("user name \"%s\" refused: %s", *n, why);
	}
}

static void test_user_names_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "abcdefghijklmnopqrstuvwxyz0123456", /* 33 bytes */
		"ALL", "Alice", "aLice", "#-1", "#0", "%grp", "+net", "-x",
		"a b", "a,b", "a:b", "a=b", "a(b", "a)b", "a!b", "a\\b", "a\nb",
		"a/b", "a.b", "a\"b", "a\tb", "1abc", "9", " a", "a ", "a\x1b",
		"a\xc3\xa9", "a*", "a$b", "a'b", "a;b", "~a", "a@b", NULL};
	assert_int_equal(strlen(bad[1]), 33);
	for (const char *const *n = bad; *n; n++) {
		const char *why = user_name_problem(*n);
		if (!why)
			fail_msg("user name \"%s\" accepted", *n);
		assert_true(strlen(why) > 0);
	}
	assert_non_null(strstr(user_name_problem(""), "empty"));
	assert_non_null(strstr(user_name_problem(bad[1]), "32"));
}

/* ------------------------------------------------------ variable names */

static void test_env_names_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"PATH", "HOME", "USER", "LOGNAME", "SHELL", "MAIL", "PWD",
		"OLDPWD", "TMPDIR", "XDG_RUNTIME_DIR", "LD_PRELOAD",
		"LD_LIBRARY_PATH", "LD_AUDIT", "SUDO_USER", "SUDO_ASKPASS",
		"BASH_ENV", "ENV", "IFS", "CDPATH", "PS4", "SHELLOPTS",
		"BASHOPTS", "PROMPT_COMMAND", "BASH_FUNC_x%%", "BASH_FUNC_x",
		"GLIBC_TUNABLES", "GCONV_PATH", "LOCPATH", "NLSPATH",
		"HOSTALIASES", "RES_OPTIONS", "MALLOC_CHECK_", "PERL5LIB",
		"PERL5OPT", "PYTHONPATH", "PYTHONSTARTUP", "RUBYOPT",
		"NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "RUAS_X", "RUAS_",
		/* not identifiers */
		"1A", "A-B", "", "A=B", "A B", "A\nB", "A.B", "=", "$A", NULL};
	for (const char *const *n = bad; *n; n++) {
		const char *why = env_name_refusal(*n);
		if (!why)
			fail_msg("variable \"%s\" may cross", *n);
	}
	assert_non_null(strstr(env_name_refusal("1A"), "not a variable name"));
	assert_non_null(strstr(env_name_refusal("A-B"), "not a variable name"));
	assert_non_null(strstr(env_name_refusal(""), "not a variable name"));
	assert_non_null(strstr(env_name_refusal("PATH"), "login environment"));
	assert_non_null(strstr(env_name_refusal("IFS"), "shells"));
	assert_non_null(strstr(env_name_refusal("GLIBC_TUNABLES"), "loader"));
	assert_non_null(strstr(env_name_refusal("LD_PRELOAD"), "LD_*"));
	assert_non_null(strstr(env_name_refusal("RUAS_X"), "ruas"));
}

static void test_env_names_accepted(void **state)
{
	(void)state;
	static const char *const ok[] = {
		"LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TERM",
		"ANTHROPIC_API_KEY", "_X", "_", "a", "x1", "LANGUAGE",
		/* near misses of refused names */
		"PATHX", "XPATH", "HOMEDIR", "LD", "SUDO", "RUAS", "ENVX", "BASH",
		NULL};
	for (const char *const *n = ok; *n; n++) {
		const char *why = env_name_refusal(*n);
		if (why)
			fail_msg("variable \"%s\" refused: %s", *n, why);
	}
	assert_true(env_name_is_identifier("_A1"));
	assert_false(env_name_is_identifier("1_A"));
	assert_false(env_name_is_identifier(""));
}

/* ------------------------------------------------------- project names */

static void test_project_names(void **state)
{
	(void)state;
	char max[130];
	memset(max, 'p', 128);
	max[128] = '\0';
	static const char *const ok[] = {"claude", "data-worklog-PM", "A",
					  "9lives", "a.b@c+d_e-f", "x..", NULL};
	for (const char *const *n = ok; *n; n++)
		if (!project_name_is_valid(*n))
			fail_msg("project name \"%s\" refused", *n);
	assert_true(project_name_is_valid(max));
	max[128] = 'p';
	max[129] = '\0';
	assert_false(project_name_is_valid(max));

	static const char *const bad[] = {"", "-x", ".x", "_x", "@x", "a b",
					  "a/b", "a\nb", "a\"b", "a'b", "a$b",
					  "a:b", "a\\b", "a\x1b", "\xc3\xa9", NULL};
	for (const char *const *n = bad; *n; n++)
		if (project_name_is_valid(*n))
			fail_msg("project name \"%s\" accepted", *n);
}

/* ---------------------------------------------------------- quoting */

static char *display(const char *s, int in_quotes)
{
	struct buf b = BUF_INIT;
	assert_int_equal(quote_display(&b, s, in_quotes), 0);
	return buf_detach(&b);
}

static char *shell(const char *s)
{
	struct buf b = BUF_INIT;
	assert_int_equal(quote_shell(&b, s), 0);
	return buf_detach(&b);
}

#define ASSERT_DISPLAY(in, q, want)                 \
	do {                                        \
		char *got_ = display((in), (q));    \
		assert_string_equal(got_, (want));  \
		free(got_);                         \
	} while (0)

#define ASSERT_SHELL(in, want)                      \
	do {                                        \
		char *got_ = shell(in);             \
		assert_string_equal(got_, (want));  \
		free(got_);                         \
	} while (0)

static void test_quote_display(void **state)
{
	(void)state;
	ASSERT_DISPLAY("plain /path", 0, "plain /path");
	ASSERT_DISPLAY("a\nb", 0, "a\\nb");
	ASSERT_DISPLAY("a\tb", 0, "a\\tb");
	ASSERT_DISPLAY("a\rb", 0, "a\\rb");
	ASSERT_DISPLAY("\x1b[31mred", 0, "\\x1b[31mred");
	ASSERT_DISPLAY("\x01\x7f", 0, "\\x01\\x7f");
	ASSERT_DISPLAY("back\\slash", 0, "back\\\\slash");
	ASSERT_DISPLAY("say \"hi\"", 0, "say \"hi\"");
	ASSERT_DISPLAY("say \"hi\"", 1, "say \\\"hi\\\"");
	ASSERT_DISPLAY("it's $HOME", 1, "it's $HOME");
	ASSERT_DISPLAY("", 1, "");
	/* Bytes >= 0x80 pass through (UTF-8 names stay readable). */
	ASSERT_DISPLAY("caf\xc3\xa9", 0, "caf\xc3\xa9");

	struct buf b = BUF_INIT;
	assert_int_equal(quote_display_dq(&b, "a\"b\n"), 0);
	assert_string_equal(b.data, "\"a\\\"b\\n\"");
	buf_free(&b);
}

static void test_quote_display_output_is_safe(void **state)
{
	(void)state;
	char all[256];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	char *out = display(all, 1);
	for (const unsigned char *p = (const unsigned char *)out; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fail_msg("quote_display let control byte 0x%02x through", *p);
	/* Every '"' is escaped: none is preceded by an even run of backslashes. */
	for (const char *p = out; *p; p++) {
		if (*p != '"')
			continue;
		size_t bs = 0;
		for (const char *q = p; q > out && q[-1] == '\\'; q--)
			bs++;
		assert_int_equal(bs % 2, 1);
	}
	free(out);
}

static void test_quote_shell(void **state)
{
	(void)state;
	ASSERT_SHELL("/srv/partseeker", "/srv/partseeker");
	ASSERT_SHELL("a-b_c.d:e@f%g+h=i,j", "a-b_c.d:e@f%g+h=i,j");
	ASSERT_SHELL("", "''");
	ASSERT_SHELL("with space", "'with space'");
	ASSERT_SHELL("$HOME", "'$HOME'");
	ASSERT_SHELL("it's", "'it'\\''s'");
	ASSERT_SHELL("'", "''\\'''");
	ASSERT_SHELL("*", "'*'");
	ASSERT_SHELL("a\"b", "'a\"b'");
	ASSERT_SHELL("back\\slash", "'back\\slash'");
	ASSERT_SHELL("a\nb", "$'a\\nb'");
	ASSERT_SHELL("a\tb", "$'a\\tb'");
	ASSERT_SHELL("\x1b", "$'\\x1b'");
	ASSERT_SHELL("it's\n\\", "$'it\\'s\\n\\\\'");
}

static void test_quote_shell_never_emits_raw_controls(void **state)
{
	(void)state;
	char all[256];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	char *out = shell(all);
	assert_true(strncmp(out, "$'", 2) == 0);
	for (const unsigned char *p = (const unsigned char *)out; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fail_msg("quote_shell let control byte 0x%02x through", *p);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_names_accepted),
		cmocka_unit_test(test_user_names_refused),
		cmocka_unit_test(test_env_names_refused),
		cmocka_unit_test(test_env_names_accepted),
		cmocka_unit_test(test_project_names),
		cmocka_unit_test(test_quote_display),
		cmocka_unit_test(test_quote_display_output_is_safe),
		cmocka_unit_test(test_quote_shell),
		cmocka_unit_test(test_quote_shell_never_emits_raw_controls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
