/* SPDX-License-Identifier: ISC */
/*
 * test_command_check.c - a project's command that is not there for its
 * target (issue 28): the finding's texts (src/lib/check/command_check.c),
 * compared in full; the distinct commands of a job; and REPORT's CMD
 * record (src/proto/helper_report_cmd.c), which the decoder holds to its
 * ranges.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <stdlib.h>
#include <string.h>

#include "check/command_check.h"
#include "codec.h"
#include "helper_report.h"

static const char secure[] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

static void test_missing_warning(void **state)
{
	(void)state;
	struct cmd_result cr = {1, CMD_MISSING, (char *)"", (char *)secure};
	char *t = text_of(msg_command_missing("claude", "coder", "claude", &cr, 0));
	assert_string_equal(
		t, "WARNING: project \"claude\": the command \"claude\" cannot be run by target user "
		   "\"coder\": it is not found in the PATH that its login environment starts with, "
		   "\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\" (login files "
		   "such as ~/.profile, which may add to it, run only when the agent starts), so "
		   "ruas run would fail with 127.\n"
		   "Fix: install \"claude\" in one of those directories for \"coder\", or fix the "
		   "project's command (an absolute path, say).\n");
	free(t);
}

static void test_missing_fatal_odd_name(void **state)
{
	(void)state;
	struct cmd_result cr = {1, CMD_MISSING, (char *)"", (char *)secure};
	char *t = text_of(msg_command_missing("p", "coder", "my \"x\" $HOME\n", &cr, 1));
	assert_non_null(strstr(t, "ERROR: project \"p\": the command \"my \\\"x\\\" $HOME\\n\" "
				  "cannot be run by target user \"coder\""));
	assert_non_null(strstr(t, "would fail with 127. require_command is true for this "
				  "project.\nFix: "));
	/* The name's newline is escaped: the text is two lines, the fix the second. */
	assert_ptr_equal(strchr(strchr(t, '\n') + 1, '\n'), strrchr(t, '\n'));
	free(t);
}

static void test_path_missing_and_not_exec(void **state)
{
	(void)state;
	struct cmd_result gone = {1, CMD_MISSING, (char *)"/opt/a/tool", (char *)""};
	char *t = text_of(msg_command_missing("p", "coder", "/opt/a/tool", &gone, 0));
	assert_string_equal(t, "WARNING: project \"p\": the command \"/opt/a/tool\" cannot be run "
			       "by target user \"coder\": \"/opt/a/tool\" does not exist, so ruas "
			       "run would fail with 127.\n"
			       "Fix: install \"/opt/a/tool\" there for \"coder\", or fix the "
			       "project's command (an absolute path, say).\n");
	free(t);
	struct cmd_result nx = {1, CMD_NOT_EXEC, (char *)"/usr/bin/tool", (char *)secure};
	t = text_of(msg_command_missing("p", "coder", "tool", &nx, 1));
	assert_string_equal(
		t, "ERROR: project \"p\": the command \"tool\" cannot be run by target user "
		   "\"coder\": \"/usr/bin/tool\" is not a regular file that it may reach and "
		   "execute in the PATH that its login environment starts with, "
		   "\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\" (login files "
		   "such as ~/.profile, which may add to it, run only when the agent starts), so "
		   "ruas run would fail with 126. require_command is true for this project.\n"
		   "Fix: make \"/usr/bin/tool\" a program that \"coder\" may run (chmod a+rx), or "
		   "fix the project's command.\n");
	free(t);
}

static void test_job_commands_distinct(void **state)
{
	(void)state;
	char *c1[] = {"claude", "--print", NULL}, *c2[] = {"./run.sh", NULL}, *c3[] = {"claude", NULL};
	struct ruas_project p1 = {.work_dir = "/srv/a", .command = c1},
			    p2 = {.work_dir = "/srv/b", .command = c2},
			    p3 = {.work_dir = "/srv/c", .command = c3};
	struct job_commands c = {0};
	assert_int_equal(job_commands_add(&c, 3, &p1), 0);
	assert_int_equal(job_commands_add(&c, 3, &p2), 0);
	assert_int_equal(job_commands_add(&c, 3, &p3), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0], "claude");
	/* Relative with a '/': from its work_dir, where the agent starts. */
	assert_string_equal(c.v[1], "/srv/b/./run.sh");
	assert_null(c.v[2]);
	assert_int_equal(c.nof, 3);
	assert_int_equal(c.of[0], 0);
	assert_int_equal(c.of[1], 1);
	assert_int_equal(c.of[2], 0);
	job_commands_free(&c);
}

/* One REPORT of the helper's with the required records, then extra's. */
static int decode_with(void (*extra)(struct buf *), struct report *r, const char **why)
{
	struct buf b = BUF_INIT;
	enc_u8(&b, REPORT_FROM_HELPER);
	for (unsigned int tty = 0; tty < 2; tty++) {
		enc_u8(&b, REC_ESC);
		enc_u8(&b, tty);
		enc_i32(&b, 1);
		enc_i32(&b, 1);
		(void)enc_str(&b, "");
		enc_u8(&b, 0);
	}
	enc_u8(&b, REC_GIDS);
	enc_u32(&b, 1);
	enc_u32(&b, 1000);
	enc_u8(&b, REC_ANCHORS);
	enc_u64(&b, 0);
	extra(&b);
	int rc = report_decode(b.data, b.len, 0, r, why);
	buf_free(&b);
	return rc;
}

static void two_cmds(struct buf *b)
{
	report_put_cmd(b, 1, CMD_MISSING, "", secure);
	report_put_cmd(b, 0, CMD_FOUND, "/usr/bin/claude", secure);
}
static void repeated(struct buf *b)
{
	report_put_cmd(b, 0, CMD_FOUND, "/usr/bin/claude", secure);
	report_put_cmd(b, 0, CMD_MISSING, "", secure);
}
static void bad_state(struct buf *b)
{
	report_put_cmd(b, 0, 9, "", secure);
}
static void out_of_range(struct buf *b)
{
	report_put_cmd(b, REPORT_MAX_CMDS, CMD_FOUND, "/x", "");
}

static void test_cmd_records(void **state)
{
	(void)state;
	struct report r;
	const char *why = NULL;
	assert_int_equal(decode_with(two_cmds, &r, &why), 0);
	assert_int_equal(r.helper.cmds.n, 2);
	assert_int_equal(r.helper.cmds.v[0].state, CMD_FOUND);
	assert_string_equal(r.helper.cmds.v[0].path, "/usr/bin/claude");
	assert_int_equal(r.helper.cmds.v[1].state, CMD_MISSING);
	assert_string_equal(r.helper.cmds.v[1].searched, secure);
	report_free(&r);
	assert_int_equal(decode_with(repeated, &r, &why), -1);
	assert_string_equal(why, "report repeats a command's record");
	assert_int_equal(decode_with(bad_state, &r, &why), -1);
	assert_string_equal(why, "report's command state is unknown");
	assert_int_equal(decode_with(out_of_range, &r, &why), -1);
	assert_string_equal(why, "report's command index is out of range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_warning),
		cmocka_unit_test(test_missing_fatal_odd_name),
		cmocka_unit_test(test_path_missing_and_not_exec),
		cmocka_unit_test(test_job_commands_distinct),
		cmocka_unit_test(test_cmd_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
