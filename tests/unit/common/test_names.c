/* SPDX-License-Identifier: ISC */
/*
 * test_names.c - user, variable and project name rules (src/common/names.h) and
 * the escaping of untrusted strings for people and shells (src/common/quote.h).
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
#include "env_rules.h"
#include "fixture.h"
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
		/* near misses of the tools' variables (docs/run-as-user.md) */
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
		"GIT_COMMITTER_EMAIL", "GIT_TERMINAL_PROMPT", "GIT_WORK_TREE", "GIT_TRACE",
		"GIT_CONFIGX", "GIT", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
		"PYTHONIOENCODING", "PYTHONHASHSEED", "PYTHONUTF8", "NODE_ENV", "JAVA_HOME",
		"XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_SESSION_TYPE", "LESSCHARSET",
		"LESSSECURE", "EDITORS", "PAGERS", "NPM_TOKEN", "npm_token",
		"CARGO_TERM_COLOR", "GOPATH", "GOPROXY", "LUA", "COLORTERM", "NO_COLOR",
		"PS3", "ENVIRONMENT", "TZ", NULL};
	for (const char *const *n = ok; *n; n++) {
		const char *why = env_name_refusal(*n);
		if (why)
			fail_msg("variable \"%s\" refused: %s", *n, why);
	}
	assert_true(env_name_is_identifier("_A1"));
	assert_false(env_name_is_identifier("1_A"));
	assert_false(env_name_is_identifier(""));
}

/* The names issue 11 part 5 lists by name: each must be in the table. */
static void test_env_issue_names_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"GIT_SSH", "GIT_SSH_COMMAND", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
		"GIT_CONFIG_VALUE_0", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG", "GIT_EXEC_PATH",
		"GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER",
		"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_TEMPLATE_DIR", "GIT_DIR",
		"SSH_ASKPASS", "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB",
		"PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONWARNINGS",
		"PYTHONINSPECT", "PYTHONBREAKPOINT", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS",
		"NODE_PATH", "BROWSER", "EDITOR", "VISUAL", "PAGER", "MANPAGER",
		"LESSOPEN", "LESSCLOSE", "ZDOTDIR", "ENV", "PROMPT_COMMAND", "PS1", "PS4",
		"XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "OPENSSL_CONF",
		"OPENSSL_ENGINES", "GCONV_PATH", "HOSTALIASES", "LOCPATH", "NLSPATH",
		"TERMINFO", "IFS", "SHELLOPTS", "BASHOPTS", "BASH_FUNC_f", "JAVA_TOOL_OPTIONS",
		"_JAVA_OPTIONS", "CLASSPATH", "GEM_PATH", "npm_config_script_shell",
		"NPM_CONFIG_USERCONFIG", "LUA_INIT", "LUA_INIT_5_4", "LUA_PATH_5_4", NULL};
	for (const char *const *n = bad; *n; n++)
		if (!env_name_refusal(*n))
			fail_msg("variable \"%s\" may cross", *n);
}

/* The names issue 25 part 4 lists, and their kind: code run, or a socket that may be root's. */
static void test_env_credentials_and_sockets_refused(void **state)
{
	(void)state;
	static const struct {
		const char *name, *says;
	} bad[] = {
		{"KUBECONFIG", "exec credential plugins"},
		{"KUBE_EDITOR", "kubectl edit runs it"},
		{"KUBECTL_EXTERNAL_DIFF", "kubectl diff runs it"},
		{"DOCKER_HOST", "runs as root is root to whoever reaches it"},
		{"CONTAINER_HOST", "may run as root"},
		{"DOCKER_CONFIG", "credHelpers"},
		{"AWS_CONFIG_FILE", "credential_process"},
		{"AWS_SHARED_CREDENTIALS_FILE", "credential_process"},
		{"TF_CLI_CONFIG_FILE", "credentials_helper"},
		{"SSH_AUTH_SOCK", "whoever's keys"},
		{"GNUPGHOME", "names programs it runs"},
		{"DBUS_SESSION_BUS_ADDRESS", "starts programs as that user"},
		{"DBUS_SYSTEM_BUS_ADDRESS", "for the system's"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *why = env_name_refusal(bad[i].name);
		if (!why || !strstr(why, bad[i].says))
			fail_msg("variable \"%s\": %s", bad[i].name, why ? why : "may cross");
	}
	/* Near misses that describe and run nothing still cross. */
	static const char *const ok[] = {"KUBE_NAMESPACE", "DOCKER_BUILDKIT", "AWS_REGION",
					 "AWS_PROFILE", "DOCKER_HOSTNAME", NULL};
	for (const char *const *n = ok; *n; n++)
		if (env_name_refusal(*n))
			fail_msg("variable \"%s\" refused: %s", *n, env_name_refusal(*n));
}

/* Every entry of the table: refused with its own reason, which says why. */
static void test_env_table(void **state)
{
	(void)state;
	size_t n;
	const struct env_rule *rules = env_rules(&n);
	assert_true(n > 100);
	for (size_t i = 0; i < n; i++) {
		char name[128];
		/* A family member, or the name itself. */
		snprintf(name, sizeof name, "%s%s", rules[i].name, rules[i].prefix ? "X_1" : "");
		const char *why = env_name_refusal(name);
		if (!why)
			fail_msg("variable \"%s\" may cross", name);
		/* The first rule that matches is this one: no entry is dead. */
		if (why != rules[i].why)
			fail_msg("variable \"%s\" is refused by another entry: %s", name, why);
		assert_true(strlen(why) > 20);
		if (rules[i].prefix) {
			/* The reason names the family. */
			char fam[64];
			snprintf(fam, sizeof fam, "%s*", rules[i].name);
			if (!strstr(why, fam))
				fail_msg("family %s: reason does not name it: %s", fam, why);
			if (env_name_refusal(rules[i].name) != rules[i].why)
				fail_msg("family %s: its own name is not refused by it", rules[i].name);
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(rules[i].name, rules[j].name) == 0)
				fail_msg("entry %s twice", rules[i].name);
	}
}

/* docs/run-as-user.md names every entry, so the list there is the list here. */
static void test_env_table_documented(void **state)
{
	(void)state;
	char *doc = read_source_file("docs/run-as-user.md");
	size_t n;
	const struct env_rule *rules = env_rules(&n);
	for (size_t i = 0; i < n; i++) {
		char want[128];
		snprintf(want, sizeof want, "`%s%s`", rules[i].name, rules[i].prefix ? "*" : "");
		if (!strstr(doc, want))
			fail_msg("docs/run-as-user.md does not list %s", want);
	}
	free(doc);
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
		cmocka_unit_test(test_env_issue_names_refused),
		cmocka_unit_test(test_env_credentials_and_sockets_refused),
		cmocka_unit_test(test_env_table),
		cmocka_unit_test(test_env_table_documented),
		cmocka_unit_test(test_project_names),
		cmocka_unit_test(test_quote_display),
		cmocka_unit_test(test_quote_display_output_is_safe),
		cmocka_unit_test(test_quote_shell),
		cmocka_unit_test(test_quote_shell_never_emits_raw_controls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
