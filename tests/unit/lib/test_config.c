/* SPDX-License-Identifier: ISC */
/*
 * test_config.c - loading and validating ruas.conf (ruas_config_load and
 * ruas_config_load_buffer). Every refusal must be RUAS_ERR_CONFIG, on the
 * right line, naming the file and the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config_int.h"
#include "env_rules.h"
#include "fixture.h"
#include "ruas.h"

#define NAME "ruas-test.conf"

static const char example[] =
	"env_allowlist = [\"LANG\", \"LC_ALL\", \"LC_CTYPE\", \"LC_MESSAGES\", \"TERM\"];\n"
	"sudo = \"/usr/bin/sudo\";\n"
	"projects = (\n"
	"  { name = \"data-worklog-PM\"; run_as_user = \"leigh\"; work_dir = "
	"\"/home/leigh/worklog\"; command = [\"claude\"]; },\n"
	"  { name = \"claude\"; run_as_user = \"partseeker-coder\"; work_dir = "
	"\"/srv/partseeker\";\n"
	"    command = [\"claude\", \"--print\"]; env_allowlist = "
	"[\"ANTHROPIC_API_KEY\"]; }\n"
	");\n";

static const char *const default_allow[] = {"LANG", "LC_ALL", "LC_CTYPE",
					     "LC_MESSAGES", "TERM", NULL};
static const char *const default_prune[] = {
	".git", "node_modules", ".venv", "venv", "dist", "build", "target",
	".pytest_cache", "__pycache__", NULL};

/* ------------------------------------------------------------ helpers */

static void assert_strv(const char *const *got, const char *const *want)
{
	size_t i = 0;
	for (; want[i]; i++) {
		if (!got[i])
			fail_msg("vector ends at %zu, expected \"%s\"", i, want[i]);
		assert_string_equal(got[i], want[i]);
	}
	if (got[i])
		fail_msg("vector has an extra entry \"%s\" at %zu", got[i], i);
}

static ruas_config *load_ok(const char *text, const ruas_config_options *opts)
{
	ruas_config *cfg = (ruas_config *)0x1;
	ruas_error *err = NULL;
	int r = ruas_config_load_buffer(&cfg, text, strlen(text), NAME, opts, &err);
	if (r != 0) {
		fail_msg("config refused (%d): %s\n--- text:\n%s", r,
			 ruas_error_message(err), text);
	}
	assert_null(err);
	assert_non_null(cfg);
	return cfg;
}

/* Checks a refusal; returns the message (caller frees err). */
static ruas_error *load_refused(const char *text, const ruas_config_options *opts,
				int line, const char *reason)
{
	ruas_config *cfg = (ruas_config *)0x1;
	ruas_error *err = NULL;
	int r = ruas_config_load_buffer(&cfg, text, strlen(text), NAME, opts, &err);
	if (r == 0) {
		ruas_config_free(cfg);
		fail_msg("config accepted, expected a refusal with \"%s\":\n%s", reason,
			 text);
	}
	assert_int_equal(r, RUAS_ERR_CONFIG);
	assert_null(cfg);
	assert_non_null(err);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_CONFIG);
	const char *msg = ruas_error_message(err);
	if (ruas_error_line(err) != line)
		fail_msg("refusal on line %d, expected line %d: %s\n--- text:\n%s",
			 ruas_error_line(err), line, msg, text);
	char prefix[64];
	if (line > 0)
		snprintf(prefix, sizeof prefix, "%s:%d: ", NAME, line);
	else
		snprintf(prefix, sizeof prefix, "%s: ", NAME);
	if (strncmp(msg, prefix, strlen(prefix)) != 0)
		fail_msg("message does not start with \"%s\": %s", prefix, msg);
	if (!strstr(msg, reason))
		fail_msg("message lacks \"%s\": %s", reason, msg);
	assert_non_null(ruas_error_file(err));
	assert_string_equal(ruas_error_file(err), NAME);
	return err;
}

static void refused(const char *text, int line, const char *reason)
{
	ruas_error_free(load_refused(text, NULL, line, reason));
}

/* A refusal inside project `project`: the message names it. */
static void refused_in(const char *text, int line, const char *reason,
		       const char *project)
{
	ruas_error *err = load_refused(text, NULL, line, reason);
	char want[256];
	snprintf(want, sizeof want, "project \"%s\": ", project);
	if (!strstr(ruas_error_message(err), want))
		fail_msg("message does not name %s: %s", want, ruas_error_message(err));
	ruas_error_free(err);
}

/* A config whose project (line 3) has one extra line (line 4): `extra`. */
static char *with_project_line(const char *extra)
{
	char *s = NULL;
	int n = asprintf(&s,
			 "sudo = \"/usr/bin/sudo\";\n"
			 "projects = (\n"
			 "  { name = \"p\"; work_dir = \"/srv/p\"; command = [\"agent\"];\n"
			 "    %s\n"
			 "  }\n"
			 ");\n",
			 extra);
	assert_true(n > 0);
	return s;
}

static void refused_line4(const char *extra, const char *reason)
{
	char *t = with_project_line(extra);
	refused_in(t, 4, reason, "p");
	free(t);
}

static void accepted_line4(const char *extra)
{
	char *t = with_project_line(extra);
	ruas_config_free(load_ok(t, NULL));
	free(t);
}

/* ------------------------------------------------------------ valid */

static void test_example_loads(void **state)
{
	(void)state;
	ruas_config *cfg = load_ok(example, NULL);
	assert_string_equal(ruas_config_path(cfg), NAME);
	assert_int_equal(ruas_config_project_count(cfg), 2);
	assert_string_equal(cfg->sudo, "/usr/bin/sudo");
	assert_non_null(cfg->helper);
	assert_int_equal(cfg->helper[0], '/');
	assert_int_equal(cfg->scan_time_limit, 60);

	const ruas_project *a = ruas_config_project_at(cfg, 0);
	const ruas_project *b = ruas_config_project_at(cfg, 1);
	assert_non_null(a);
	assert_non_null(b);
	assert_null(ruas_config_project_at(cfg, 2));

	assert_string_equal(ruas_project_name(a), "data-worklog-PM");
	assert_string_equal(ruas_project_run_as_user(a), "leigh");
	assert_string_equal(ruas_project_work_dir(a), "/home/leigh/worklog");
	const char *const cmd_a[] = {"claude", NULL};
	assert_strv(ruas_project_command(a), cmd_a);
	assert_int_equal(a->ncommand, 1);
	assert_strv(ruas_project_env_allowlist(a), default_allow);
	assert_int_equal(a->nallow, 5);
	assert_strv((const char *const *)a->scan_prune, default_prune);
	assert_int_equal(a->nprune, 9);
	assert_int_equal(a->line, 4);

	assert_string_equal(ruas_project_name(b), "claude");
	assert_string_equal(ruas_project_run_as_user(b), "partseeker-coder");
	assert_string_equal(ruas_project_work_dir(b), "/srv/partseeker");
	const char *const cmd_b[] = {"claude", "--print", NULL};
	assert_strv(ruas_project_command(b), cmd_b);
	const char *const allow_b[] = {"LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
				       "TERM", "ANTHROPIC_API_KEY", NULL};
	assert_strv(ruas_project_env_allowlist(b), allow_b);
	assert_int_equal(b->nallow, 6);
	assert_strv((const char *const *)b->scan_prune, default_prune);
	assert_int_equal(b->line, 5);

	assert_ptr_equal(ruas_config_project_find(cfg, "claude"), b);
	assert_ptr_equal(ruas_config_project_find(cfg, "data-worklog-PM"), a);
	assert_null(ruas_config_project_find(cfg, "Claude"));
	assert_null(ruas_config_project_find(cfg, "claud"));
	assert_null(ruas_config_project_find(cfg, NULL));
	ruas_config_free(cfg);
}

static void test_defaults_without_optional_keys(void **state)
{
	(void)state;
	const char *t = "projects = ( { name = \"p\"; work_dir = \"/w\"; "
			"command = [\"x\"]; } );\n";
	ruas_config *cfg = load_ok(t, NULL);
	const ruas_project *p = ruas_config_project_at(cfg, 0);
	assert_null(ruas_project_run_as_user(p)); /* legacy mode */
	assert_strv(ruas_project_env_allowlist(p), default_allow);
	assert_strv((const char *const *)p->scan_prune, default_prune);
	assert_string_equal(cfg->sudo, "/usr/bin/sudo");
	assert_int_equal(cfg->scan_time_limit, 60);
	ruas_config_free(cfg);

	/* A NULL name and NULL err are allowed. */
	cfg = NULL;
	assert_int_equal(ruas_config_load_buffer(&cfg, t, strlen(t), NULL, NULL, NULL), 0);
	assert_non_null(cfg);
	assert_non_null(ruas_config_path(cfg));
	ruas_config_free(cfg);
	ruas_config_free(NULL);
}

static void test_allowlists_merge_without_duplicates(void **state)
{
	(void)state;
	const char *t =
		"projects = (\n"
		"  { name = \"a\"; work_dir = \"/w\"; command = [\"x\"];\n"
		"    env_allowlist = [\"TERM\", \"FOO\", \"FOO\", \"LANG\", \"_BAR\"]; },\n"
		"  { name = \"b\"; work_dir = \"/w\"; command = [\"x\"]; }\n"
		");\n";
	ruas_config *cfg = load_ok(t, NULL);
	const char *const want_a[] = {"LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
				      "TERM", "FOO", "_BAR", NULL};
	assert_strv(ruas_project_env_allowlist(ruas_config_project_at(cfg, 0)), want_a);
	/* One project's additions do not leak into another's. */
	assert_strv(ruas_project_env_allowlist(ruas_config_project_at(cfg, 1)),
		    default_allow);
	ruas_config_free(cfg);

	const char *t2 =
		"env_allowlist = [\"TERM\", \"TERM\"];\n"
		"scan_prune = [\"a\", \"b\"];\n"
		"scan_time_limit = 5;\n"
		"projects = (\n"
		"  { name = \"a\"; work_dir = \"/w\"; command = [\"x\"]; env_allowlist = [\"LANG\"]; },\n"
		"  { name = \"b\"; work_dir = \"/w\"; command = [\"x\"]; scan_prune = [\"c\"]; },\n"
		"  { name = \"c\"; work_dir = \"/w\"; command = [\"x\"]; scan_prune = []; }\n"
		");\n";
	cfg = load_ok(t2, NULL);
	const char *const want2[] = {"TERM", "LANG", NULL};
	const char *const term[] = {"TERM", NULL};
	const char *const ab[] = {"a", "b", NULL}, *const c[] = {"c", NULL};
	const char *const none[] = {NULL};
	assert_strv(ruas_project_env_allowlist(ruas_config_project_at(cfg, 0)), want2);
	assert_strv(ruas_project_env_allowlist(ruas_config_project_at(cfg, 1)), term);
	assert_strv((const char *const *)cfg->projects[0]->scan_prune, ab);
	assert_strv((const char *const *)cfg->projects[1]->scan_prune, c);
	assert_non_null(cfg->projects[2]->scan_prune);
	assert_strv((const char *const *)cfg->projects[2]->scan_prune, none);
	assert_int_equal(cfg->projects[2]->nprune, 0);
	assert_int_equal(cfg->scan_time_limit, 5);
	ruas_config_free(cfg);

	/* An empty global allowlist. */
	const char *t3 = "env_allowlist = [];\n"
			 "projects = ( { name = \"a\"; work_dir = \"/w\"; command = [\"x\"]; } );\n";
	cfg = load_ok(t3, NULL);
	assert_non_null(ruas_project_env_allowlist(ruas_config_project_at(cfg, 0)));
	assert_strv(ruas_project_env_allowlist(ruas_config_project_at(cfg, 0)), none);
	ruas_config_free(cfg);
}

static void test_command_keeps_empty_strings(void **state)
{
	(void)state;
	const char *t = "projects = ( { name = \"p\"; work_dir = \"/w\"; "
			"command = [\"x\", \"\", \"$HOME\", \"a\\nb\"]; } );\n";
	ruas_config *cfg = load_ok(t, NULL);
	const ruas_project *p = ruas_config_project_at(cfg, 0);
	assert_int_equal(p->ncommand, 4);
	const char *const want[] = {"x", "", "$HOME", "a\nb", NULL};
	assert_strv(ruas_project_command(p), want);
	ruas_config_free(cfg);

	const char *t2 = "projects = ( { name = \"p\"; work_dir = \"/w\"; "
			 "command = [\"x\", \"\"]; } );\n";
	cfg = load_ok(t2, NULL);
	assert_int_equal(ruas_config_project_at(cfg, 0)->ncommand, 2);
	ruas_config_free(cfg);

	/* A list ( ... ) works as well as an array [ ... ]. */
	const char *t3 = "projects = ( { name = \"p\"; work_dir = \"/w\"; "
			 "command = (\"x\", \"y\"); } );\n";
	cfg = load_ok(t3, NULL);
	assert_int_equal(ruas_config_project_at(cfg, 0)->ncommand, 2);
	ruas_config_free(cfg);
}

static void test_accepted_values(void **state)
{
	(void)state;
	accepted_line4("run_as_user = \"a-b_c9\";");
	accepted_line4("run_as_user = \"_svc\";");
	accepted_line4("run_as_user = \"abcdefghijklmnopqrstuvwxyz012345\";"); /* 32 */
	accepted_line4("env_allowlist = [\"LANG\", \"LC_ALL\", \"TERM\", "
		       "\"ANTHROPIC_API_KEY\", \"_X\"];");
	accepted_line4("scan_prune = [\"node_modules\", \".cache\"];");
}

/* ------------------------------------------------------------ refusals */

static void test_syntax_error(void **state)
{
	(void)state;
	refused("sudo = \"/usr/bin/sudo\";\n"
		"projects = (\n"
		"  { name = \"a\"; work_dir = \"/x\"; command = [\"x\"]; },\n"
		"  { name = \"b\"; work_dir = = \"/y\"; command = [\"y\"]; }\n"
		");\n",
		4, "syntax error");
	/*
	 * (Not `name = "a" work_dir ...`: libconfig 1.5 leaks its string buffer on
	 * an error right after a string literal, which LeakSanitizer reports.)
	 */
	refused("sudo = \"/usr/bin/sudo\"\n"
		"projects = ( { name = ; work_dir = \"/x\"; } );\n",
		2, "syntax error");
	/* A duplicated key is a syntax error in libconfig: no silent override. */
	refused("projects = (\n"
		"  { name = \"a\"; work_dir = \"/x\"; command = [\"x\"];\n"
		"    run_as_user = \"bob\";\n"
		"    run_as_user = \"carol\"; }\n"
		");\n",
		4, "duplicate setting");
	/* Mixed types in an array. */
	refused("projects = (\n"
		"  { name = \"a\"; work_dir = \"/x\"; command = [\"x\", 1]; }\n"
		");\n",
		2, "syntax error");
	/* An unterminated list. */
	refused("projects = (\n"
		"  { name = \"a\"; work_dir = \"/x\"; command = [\"x\"]; }\n",
		3, "syntax error");
}

/*
 * libconfig says only "syntax error": an unclosed bracket or string, or a
 * wrong closer, is named with the line it was opened on (issue 26); what
 * is inside strings and comments is not taken for brackets or quotes.
 */
static void test_syntax_error_says_what_is_missing(void **state)
{
	(void)state;
	refused("projects = (\n"
		"  { name = \"a\"; work_dir = \"/x\"; command = [\"x\"]; }\n",
		3, "syntax error: the '(' opened on line 1 is never closed (a ')' is expected "
		   "before the end of the file)");
	refused("# it's a comment with a quote \" and a (\n"
		"projects = ( { name = \"a; work_dir = \"/x\"; } );\n",
		2, "syntax error: a string opened on line 2 is not closed (a '\"' is expected "
		   "before the end of the line)");
	refused("projects = ( { name = \"a ) \\\" ]\"; work_dir = \"/x\"; ] );\n",
		1, "syntax error: ']' on line 1 where '}' was expected, to close the '{' opened "
		   "on line 1");
	refused("/* a block (comment\n over lines */ projects = ( );\n"
		"x = 1; }\n",
		3, "syntax error: the '}' on line 3 closes nothing that is open");
	/* Nothing unclosed: libconfig's words, and what the syntax is. */
	refused("projects = ( { name = = \"a\"; } );\n",
		1, "syntax error: syntax error (each setting is NAME = VALUE");
}

static void test_missing_keys(void **state)
{
	(void)state;
	refused("sudo = \"/usr/bin/sudo\";\n", 0, "missing key \"projects\"");
	refused("", 0, "missing key \"projects\"");
	refused("sudo = \"/usr/bin/sudo\";\n"
		"projects = (\n"
		"  { work_dir = \"/x\"; command = [\"x\"]; }\n"
		");\n",
		3, "no \"name\"");
	refused_in("sudo = \"/usr/bin/sudo\";\n"
		   "projects = (\n"
		   "  { name = \"ok\"; work_dir = \"/x\"; command = [\"x\"]; },\n"
		   "  { name = \"nowd\";\n"
		   "    command = [\"x\"]; }\n"
		   ");\n",
		   4, "missing key \"work_dir\"", "nowd");
	refused_in("projects = (\n"
		   "  { name = \"nocmd\"; work_dir = \"/x\"; }\n"
		   ");\n",
		   2, "missing key \"command\"", "nocmd");
}

static void test_mistyped_keys(void **state)
{
	(void)state;
	char *t;
	t = with_project_line("");
	ruas_config_free(load_ok(t, NULL)); /* the template itself is valid */
	free(t);

	/* Replace work_dir/command through a project of their own. */
	refused_in("projects = (\n"
		   "  { name = \"p\";\n"
		   "    work_dir = 5;\n"
		   "    command = [\"x\"]; }\n"
		   ");\n",
		   3, "\"work_dir\" must be a string", "p");
	refused_in("projects = (\n"
		   "  { name = \"p\"; work_dir = \"/x\";\n"
		   "    command = \"claude\"; }\n"
		   ");\n",
		   3, "\"command\" must be a list of strings", "p");
	refused_in("projects = (\n"
		   "  { name = \"p\"; work_dir = \"/x\";\n"
		   "    command = []; }\n"
		   ");\n",
		   3, "command must be a non-empty list", "p");
	refused_in("projects = (\n"
		   "  { name = \"p\"; work_dir = \"/x\";\n"
		   "    command = [\"\"]; }\n"
		   ");\n",
		   3, "command must be a non-empty list", "p");
	refused_in("projects = (\n"
		   "  { name = \"p\"; work_dir = \"/x\";\n"
		   "    command = [\"\", \"x\"]; }\n"
		   ");\n",
		   3, "command must be a non-empty list", "p");
	refused_in("projects = (\n"
		   "  { name = \"p\"; work_dir = \"/x\";\n"
		   "    command = (\"x\",\n"
		   "               1); }\n"
		   ");\n",
		   4, "element 2 must be a string", "p");
	refused_line4("run_as_user = 3;", "\"run_as_user\" must be a string");
	refused_line4("run_as_user = [\"bob\"];", "\"run_as_user\" must be a string");
	refused_line4("env_allowlist = \"LANG\";", "\"env_allowlist\" must be a list");
	refused_line4("scan_prune = \".git\";", "\"scan_prune\" must be a list");
	refused("projects = ( { name = 7; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "\"name\" must be a string");

	/* Top level. */
	refused("env_allowlist = \"LANG\";\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "\"env_allowlist\" must be a list");
	refused("sudo = 1;\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "\"sudo\" must be a string");
	refused("sudo = \"sudo\";\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "sudo must be an absolute path");
	refused("\n"
		"helper = \"libexec/ruas-exec\";\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		2, "helper must be an absolute path");
	refused("scan_time_limit = 0;\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "between 1 and 86400");
	refused("scan_time_limit = \"60\";\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "whole number");
	refused("projects = \"p\";\n", 1, "\"projects\" must be a list");
	refused("projects = ( \"p\" );\n", 1, "must be a group");
}

/* lifetime: global, per project over it, auto by default; exact words only. */
static void test_lifetime(void **state)
{
	(void)state;
	const char *t = "projects = ( { name = \"a\"; work_dir = \"/w\"; command = [\"x\"]; },\n"
			"  { name = \"b\"; work_dir = \"/w\"; command = [\"x\"]; lifetime = \"pidns\"; },\n"
			"  { name = \"c\"; work_dir = \"/w\"; command = [\"x\"]; lifetime = \"subreaper\"; },\n"
			"  { name = \"d\"; work_dir = \"/w\"; command = [\"x\"]; lifetime = \"auto\"; } );\n";
	ruas_config *cfg = load_ok(t, NULL);
	assert_int_equal(ruas_config_project_at(cfg, 0)->lifetime, LIFETIME_CFG_AUTO);
	assert_int_equal(ruas_config_project_at(cfg, 1)->lifetime, LIFETIME_CFG_PIDNS);
	assert_int_equal(ruas_config_project_at(cfg, 2)->lifetime, LIFETIME_CFG_SUBREAPER);
	assert_int_equal(ruas_config_project_at(cfg, 3)->lifetime, LIFETIME_CFG_AUTO);
	ruas_config_free(cfg);

	const char *g = "lifetime = \"subreaper\";\n"
			"projects = ( { name = \"a\"; work_dir = \"/w\"; command = [\"x\"]; },\n"
			"  { name = \"b\"; work_dir = \"/w\"; command = [\"x\"]; lifetime = \"pidns\"; } );\n";
	cfg = load_ok(g, NULL);
	assert_int_equal(ruas_config_project_at(cfg, 0)->lifetime, LIFETIME_CFG_SUBREAPER);
	assert_int_equal(ruas_config_project_at(cfg, 1)->lifetime, LIFETIME_CFG_PIDNS);
	ruas_config_free(cfg);

	refused_line4("lifetime = \"PIDNS\";",
		      "lifetime must be \"pidns\", \"subreaper\" or \"auto\"");
	refused_line4("lifetime = \"pidns \";", "lifetime must be");
	refused_line4("lifetime = \"\";", "lifetime must be");
	refused_line4("lifetime = 1;", "key \"lifetime\" must be a string");
	refused("lifetime = \"none\";\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		1, "lifetime must be \"pidns\", \"subreaper\" or \"auto\"");
}

static void test_unknown_keys(void **state)
{
	(void)state;
	refused("sudo = \"/usr/bin/sudo\";\n"
		"run_as_usr = \"bob\";\n"
		"projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n",
		2, "unknown key \"run_as_usr\" at the top level");
	refused_line4("run_as_usr = \"bob\";", "unknown key \"run_as_usr\" in a project");
	refused_line4("workdir = \"/y\";", "unknown key \"workdir\"");
	refused_line4("envallowlist = [\"X\"];", "unknown key \"envallowlist\"");
	/* Keys are case-sensitive. */
	refused_line4("Run_As_User = \"bob\";", "unknown key \"Run_As_User\"");
	/* A nested group is no loophole. */
	refused("projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"];\n"
		"  extra = { run_as_user = \"bob\"; }; } );\n",
		2, "unknown key \"extra\"");
}

static void test_duplicate_project_names(void **state)
{
	(void)state;
	refused("sudo = \"/usr/bin/sudo\";\n"
		"projects = (\n"
		"  { name = \"dup\"; work_dir = \"/x\"; command = [\"x\"]; },\n"
		"  { name = \"other\"; work_dir = \"/y\"; command = [\"y\"]; },\n"
		"  { name = \"dup\"; work_dir = \"/z\"; command = [\"z\"]; }\n"
		");\n",
		5, "duplicate project name \"dup\" (first at line 3)");
}

static void test_bad_values(void **state)
{
	(void)state;
	refused_in("projects = (\n"
		   "  { name = \"p\"; command = [\"x\"];\n"
		   "    work_dir = \"srv/p\"; }\n"
		   ");\n",
		   3, "work_dir must be an absolute path", "p");
	refused_in("projects = (\n"
		   "  { name = \"p\"; command = [\"x\"];\n"
		   "    work_dir = \"\"; }\n"
		   ");\n",
		   3, "work_dir must be an absolute path", "p");
	refused("projects = (\n"
		"  { name = \"-p\"; work_dir = \"/x\"; command = [\"x\"]; }\n"
		");\n",
		2, "is invalid");
	refused("projects = (\n"
		"  { name = \"\"; work_dir = \"/x\"; command = [\"x\"]; }\n"
		");\n",
		2, "is invalid");
	refused_line4("scan_prune = [\"a/b\"];", "plain file name");
	refused_line4("scan_prune = [\"..\"];", "plain file name");
	refused_line4("scan_prune = [\"\"];", "plain file name");
}

static void test_run_as_user_refused(void **state)
{
	(void)state;
	refused_line4("run_as_user = \"root\";", "is root");
	refused_line4("run_as_user = \"ALL\";", "must start with a lower-case letter");
	refused_line4("run_as_user = \"#-1\";", "must start with a lower-case letter");
	refused_line4("run_as_user = \"#0\";", "must start with a lower-case letter");
	refused_line4("run_as_user = \"%grp\";", "must start with a lower-case letter");
	refused_line4("run_as_user = \"+net\";", "must start with a lower-case letter");
	refused_line4("run_as_user = \"Bob\";", "must start with a lower-case letter");
	refused_line4("run_as_user = \"a,b\";", "may contain only");
	refused_line4("run_as_user = \"a b\";", "may contain only");
	refused_line4("run_as_user = \"a\\nb\";", "may contain only");
	refused_line4("run_as_user = \"a:b\";", "may contain only");
	refused_line4("run_as_user = \"\";", "is empty");
	refused_line4("run_as_user = \"abcdefghijklmnopqrstuvwxyz0123456\";",
		      "longer than 32 bytes");
}

static void test_run_as_user_hostile_value_escaped(void **state)
{
	(void)state;
	char *t = with_project_line("run_as_user = \"a\\nERROR: x\";");
	ruas_error *err = load_refused(t, NULL, 4, "may contain only");
	const char *msg = ruas_error_message(err);
	assert_null(strchr(msg, '\n'));
	assert_non_null(strstr(msg, "\"a\\nERROR: x\""));
	ruas_error_free(err);
	free(t);
}

/* Account names that exist on the test machine, with their uid. */
static int existing_account(char *name, size_t size, uid_t *uid)
{
	static const char *const candidates[] = {"daemon", "nobody", "bin", "sys", NULL};
	for (const char *const *c = candidates; *c; c++) {
		struct passwd *pw = getpwnam(*c);
		if (pw && pw->pw_uid != 0) {
			snprintf(name, size, "%s", pw->pw_name);
			*uid = pw->pw_uid;
			return 0;
		}
	}
	return -1;
}

static void test_run_as_user_is_supervisor(void **state)
{
	(void)state;
	char name[64], line[128];
	uid_t uid = 0;
	if (existing_account(name, sizeof name, &uid) < 0) {
		print_message("SKIP: no daemon/nobody/bin/sys account to act as supervisor\n");
		skip();
	}
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = uid;
	snprintf(line, sizeof line, "run_as_user = \"%s\";", name);
	char *t = with_project_line(line);
	ruas_error *err = load_refused(t, &o, 4, "is the supervisor itself");
	assert_non_null(strstr(ruas_error_message(err), name));
	ruas_error_free(err);

	/* The same name with another supervisor is fine. */
	o.supervisor_uid = uid + 100000;
	ruas_config_free(load_ok(t, &o));
	free(t);
}

/* The top-level "supervisor" key: a plain user name, not root; run_as_user may not be it. */
static void test_supervisor_key(void **state)
{
	(void)state;
	ruas_config *cfg = load_ok(example, NULL);
	assert_null(ruas_config_supervisor(cfg));
	ruas_config_free(cfg);
	char *t = NULL;
	assert_true(asprintf(&t, "supervisor = \"bridge-sup\";\n%s", example) > 0);
	cfg = load_ok(t, NULL);
	assert_string_equal(ruas_config_supervisor(cfg), "bridge-sup");
	ruas_config_free(cfg);
	free(t);
	refused("supervisor = \"root\";\n", 1, "is root");
	refused("supervisor = \"ALL\";\n", 1, "must start with a lower-case letter");
	refused("supervisor = \"#0\";\n", 1, "must start with a lower-case letter");
	refused("supervisor = \"a,b\";\n", 1, "may contain only");
	refused("supervisor = \"\";\n", 1, "is empty");
	refused("supervisor = 1;\n", 1, "supervisor");
	assert_true(asprintf(&t, "supervisor = \"leigh\";\n%s", example) > 0);
	refused_in(t, 5, "is the supervisor itself", "data-worklog-PM");
	free(t);
}

/*
 * Every entry of the refusal table (src/common/env_rules.c), in a project and at the
 * top level: refused at load, the message quoting the name and giving the
 * entry's own reason.
 */
static void test_env_allowlist_table_refused(void **state)
{
	(void)state;
	size_t n;
	const struct env_rule *rules = env_rules(&n);
	for (size_t i = 0; i < n; i++) {
		char name[96], line[160], q[512];
		snprintf(name, sizeof name, "%s%s", rules[i].name, rules[i].prefix ? "EXTRA" : "");
		snprintf(line, sizeof line, "env_allowlist = [\"LANG\", \"%s\"];", name);
		char *t = with_project_line(line);
		ruas_error *err = load_refused(t, NULL, 4, rules[i].why);
		snprintf(q, sizeof q, "key \"env_allowlist\": \"%s\" %s", name, rules[i].why);
		if (!strstr(ruas_error_message(err), q))
			fail_msg("message lacks \"%s\": %s", q, ruas_error_message(err));
		ruas_error_free(err);
		free(t);

		assert_true(asprintf(&t,
				     "env_allowlist = [\"TERM\", \"%s\"];\n"
				     "projects = ( { name = \"p\"; work_dir = \"/x\"; "
				     "command = [\"x\"]; } );\n",
				     name) > 0);
		refused(t, 1, rules[i].why);
		free(t);
	}
}

static void test_env_allowlist_refused(void **state)
{
	(void)state;
	static const struct {
		const char *name, *reason;
	} cases[] = {
		{"PATH", "login environment"},   {"HOME", "login environment"},
		{"LD_PRELOAD", "LD_*"},          {"LD_LIBRARY_PATH", "LD_*"},
		{"SUDO_USER", "SUDO_*"},         {"BASH_ENV", "shells"},
		{"ENV", "shells"},               {"IFS", "shells"},
		{"GLIBC_TUNABLES", "loader"},    {"RUAS_X", "reserved"},
		{"1X", "not a variable name"},   {"A-B", "not a variable name"},
		{"A=B", "not a variable name"},  {"", "not a variable name"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char line[128];
		snprintf(line, sizeof line, "env_allowlist = [\"LANG\", \"%s\"];",
			 cases[i].name);
		refused_line4(line, cases[i].reason);

		/* And at the top level. */
		char *t = NULL;
		assert_true(asprintf(&t,
				     "sudo = \"/usr/bin/sudo\";\n"
				     "env_allowlist = [\"TERM\",\n"
				     "  \"%s\"];\n"
				     "projects = ( { name = \"p\"; work_dir = \"/x\"; "
				     "command = [\"x\"]; } );\n",
				     cases[i].name) > 0);
		ruas_error *err = load_refused(t, NULL, 3, cases[i].reason);
		/* The refused value is quoted in the message. */
		char q[64];
		snprintf(q, sizeof q, "\"%s\"", cases[i].name);
		assert_non_null(strstr(ruas_error_message(err), q));
		ruas_error_free(err);
		free(t);
	}
}

static void test_nul_in_buffer_refused(void **state)
{
	(void)state;
	const char t[] = "projects = ( { name = \"p\"; work_dir = \"/x\"; command = [\"x\"]; } );\n"
			 "\0run_as_user = \"root\";\n";
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_load_buffer(&cfg, t, sizeof t - 1, NAME, NULL, &err),
			 RUAS_ERR_CONFIG);
	assert_null(cfg);
	assert_non_null(strstr(ruas_error_message(err), "NUL"));
	ruas_error_free(err);
}

/*
 * ruas_error_message() is "one line" (ruas.h), and run-as-user.md promises
 * that names from outside are escaped. A project name with a newline or an
 * escape sequence must not come back raw in the refusal.
 */
static void test_invalid_project_name_escaped_in_message(void **state)
{
	(void)state;
	static const char *const names[] = {"x\\ny", "x\\x1b[2Jy", NULL};
	for (const char *const *n = names; *n; n++) {
		char *t = NULL;
		assert_true(asprintf(&t,
				     "projects = (\n"
				     "  { name = \"%s\"; work_dir = \"/x\"; command = [\"x\"]; }\n"
				     ");\n",
				     *n) > 0);
		ruas_config *cfg = NULL;
		ruas_error *err = NULL;
		int r = ruas_config_load_buffer(&cfg, t, strlen(t), NAME, NULL, &err);
		free(t);
		if (r == 0) {
			ruas_config_free(cfg);
			fail_msg("project name %s accepted", *n);
		}
		assert_int_equal(r, RUAS_ERR_CONFIG);
		const char *msg = ruas_error_message(err);
		for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
			if (*p < 0x20 || *p == 0x7f) {
				char copy[512];
				unsigned int byte = *p;
				snprintf(copy, sizeof copy, "%s", msg);
				ruas_error_free(err);
				fail_msg("refusal message holds raw control byte 0x%02x "
					 "(not one line / not escaped): %s",
					 byte, copy);
			}
		ruas_error_free(err);
	}
}

/* ------------------------------------------------------------- files */

struct files {
	char dir[64];
	char path[128];
};

static int files_setup(void **state)
{
	struct files *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->dir, sizeof f->dir, "/tmp/ruas-config-test.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof f->path, "%s/ruas.conf", f->dir);
	*state = f;
	return 0;
}

static int files_teardown(void **state)
{
	struct files *f = *state;
	char p[192];
	static const char *const names[] = {"ruas.conf", "inc.conf", NULL};
	for (const char *const *n = names; *n; n++) {
		snprintf(p, sizeof p, "%s/%s", f->dir, *n);
		unlink(p);
	}
	snprintf(p, sizeof p, "%s/sub", f->dir);
	rmdir(p);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void test_file_loads(void **state)
{
	struct files *f = *state;
	write_file(f->path, example, 0644);
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_load(&cfg, f->path, NULL, &err), 0);
	assert_null(err);
	assert_string_equal(ruas_config_path(cfg), f->path);
	assert_int_equal(ruas_config_project_count(cfg), 2);
	ruas_config_free(cfg);

	write_file(f->path, example, 0600);
	assert_int_equal(ruas_config_load(&cfg, f->path, NULL, &err), 0);
	ruas_config_free(cfg);
}

static void test_file_writable_by_others_refused(void **state)
{
	struct files *f = *state;
	mode_t modes[] = {0664, 0646, 0666, 0620, 0602};
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
		write_file(f->path, example, modes[i]);
		ruas_config *cfg = (ruas_config *)0x1;
		ruas_error *err = NULL;
		assert_int_equal(ruas_config_load(&cfg, f->path, NULL, &err), RUAS_ERR_CONFIG);
		assert_null(cfg);
		const char *msg = ruas_error_message(err);
		assert_non_null(strstr(msg, f->path));
		assert_non_null(strstr(msg, "chmod"));
		assert_non_null(strstr(msg, "writable by group or others"));
		ruas_error_free(err);

		/* skip_owner_check lets tests load it anyway. */
		ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
		o.skip_owner_check = 1;
		assert_int_equal(ruas_config_load(&cfg, f->path, &o, &err), 0);
		assert_int_equal(ruas_config_project_count(cfg), 2);
		ruas_config_free(cfg);
	}
}

static void test_file_foreign_owner_refused(void **state)
{
	struct files *f = *state;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	write_file(f->path, example, 0644);
	if (geteuid() == 0) {
		/* Owned by someone who is neither root nor the supervisor. */
		assert_int_equal(chown(f->path, 65534, (gid_t)-1), 0);
	} else {
		/* Owned by us, but we claim another supervisor. */
		o.supervisor_uid = geteuid() + 1;
	}
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_load(&cfg, f->path, &o, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "neither root nor the supervisor"));
	assert_non_null(strstr(ruas_error_message(err), f->path));
	ruas_error_free(err);

	o.skip_owner_check = 1;
	assert_int_equal(ruas_config_load(&cfg, f->path, &o, &err), 0);
	ruas_config_free(cfg);
}

static void test_file_missing_or_not_regular(void **state)
{
	struct files *f = *state;
	char missing[192];
	snprintf(missing, sizeof missing, "%s/does-not-exist.conf", f->dir);
	ruas_config *cfg = (ruas_config *)0x1;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_load(&cfg, missing, NULL, &err), RUAS_ERR_CONFIG);
	assert_null(cfg);
	assert_non_null(strstr(ruas_error_message(err), missing));
	assert_int_equal(ruas_error_errno(err), ENOENT);
	assert_string_equal(ruas_error_file(err), missing);
	ruas_error_free(err);

	char sub[192];
	snprintf(sub, sizeof sub, "%s/sub", f->dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(ruas_config_load(&cfg, sub, NULL, &err), RUAS_ERR_CONFIG);
	assert_non_null(strstr(ruas_error_message(err), "not a regular file"));
	ruas_error_free(err);

	assert_int_equal(ruas_config_load(&cfg, NULL, NULL, &err), RUAS_ERR_INVALID);
	ruas_error_free(err);
}

/*
 * A FIFO put where the configuration should be (issue 26): refused at
 * once, never waited on. The load runs in a child that an alarm ends, so
 * that a load that blocks in open() fails the test instead of hanging it.
 */
static void test_file_fifo_refused_without_blocking(void **state)
{
	struct files *f = *state;
	char fifo[192];
	snprintf(fifo, sizeof fifo, "%s/fifo.conf", f->dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(5);
		ruas_config *cfg = NULL;
		ruas_error *err = NULL;
		int r = ruas_config_load(&cfg, fifo, NULL, &err);
		_exit(r == RUAS_ERR_CONFIG && !cfg &&
				      strstr(ruas_error_message(err), "not a regular file (a FIFO)")
			      ? 0
			      : 1);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		fail_msg("loading a FIFO blocked (ended by signal %d)", WTERMSIG(st));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_file_syntax_error_names_path_and_line(void **state)
{
	struct files *f = *state;
	write_file(f->path,
		   "sudo = \"/usr/bin/sudo\";\n"
		   "\n"
		   "projects = ( { name = = \"x\"; } );\n",
		   0644);
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_config_load(&cfg, f->path, NULL, &err), RUAS_ERR_CONFIG);
	assert_int_equal(ruas_error_line(err), 3);
	char want[256];
	snprintf(want, sizeof want, "%s:3: syntax error", f->path);
	assert_non_null(strstr(ruas_error_message(err), want));
	ruas_error_free(err);
}

/*
 * The owner and mode check exists because the configuration "decides what
 * runs as whom". libconfig's @include pulls in another file, which must not
 * be a way around that check: a world-writable included file lets any
 * local user define projects.
 */
static void test_include_of_writable_file_refused(void **state)
{
	struct files *f = *state;
	char inc[192], text[512];
	snprintf(inc, sizeof inc, "%s/inc.conf", f->dir);
	write_file(inc,
		   "projects = ( { name = \"evil\"; work_dir = \"/\"; "
		   "command = [\"/bin/sh\"]; } );\n",
		   0666);
	snprintf(text, sizeof text, "@include \"%s\"\n", inc);
	write_file(f->path, text, 0644);

	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	int r = ruas_config_load(&cfg, f->path, NULL, &err);
	if (r == 0) {
		size_t n = ruas_config_project_count(cfg);
		ruas_config_free(cfg);
		fail_msg("a 0644 config that @includes a world-writable file was "
			 "accepted (%zu project(s) from the included file)",
			 n);
	}
	assert_int_equal(r, RUAS_ERR_CONFIG);
	ruas_error_free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_loads),
		cmocka_unit_test(test_defaults_without_optional_keys),
		cmocka_unit_test(test_allowlists_merge_without_duplicates),
		cmocka_unit_test(test_command_keeps_empty_strings),
		cmocka_unit_test(test_accepted_values),
		cmocka_unit_test(test_syntax_error),
		cmocka_unit_test(test_syntax_error_says_what_is_missing),
		cmocka_unit_test(test_missing_keys),
		cmocka_unit_test(test_mistyped_keys),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_lifetime),
		cmocka_unit_test(test_duplicate_project_names),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_run_as_user_refused),
		cmocka_unit_test(test_run_as_user_hostile_value_escaped),
		cmocka_unit_test(test_run_as_user_is_supervisor),
		cmocka_unit_test(test_supervisor_key),
		cmocka_unit_test(test_env_allowlist_refused),
		cmocka_unit_test(test_env_allowlist_table_refused),
		cmocka_unit_test(test_nul_in_buffer_refused),
		cmocka_unit_test(test_invalid_project_name_escaped_in_message),
		cmocka_unit_test_setup_teardown(test_file_loads, files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_file_writable_by_others_refused,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_file_foreign_owner_refused,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_file_missing_or_not_regular,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_file_fifo_refused_without_blocking,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_file_syntax_error_names_path_and_line,
						files_setup, files_teardown),
		cmocka_unit_test_setup_teardown(test_include_of_writable_file_refused,
						files_setup, files_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
