/* SPDX-License-Identifier: ISC */
/*
 * test_host_notes.c - what a check says of the host once
 * (src/lib/check/host_notes.h): the proc on /proc, read from mountinfo,
 * hides command lines only with a hidepid that hides (1, 2, 4 or their
 * names; the last given and the topmost mount count); a report's host
 * items, its projects' items (user, path, fix) and unjudged notes, as the
 * accessors give them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/host_notes.h"
#include "check/report.h"

#define ROOT "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
#define PROC(super) "36 22 0:4 / /proc rw,nosuid,nodev,noexec shared:13 - proc proc " super "\n"

static void test_hidepid(void **state)
{
	(void)state;
	assert_int_equal(proc_hides_cmdlines(""), -1);
	assert_int_equal(proc_hides_cmdlines(ROOT), -1);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw")), 0);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=invisible")), 1);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=2")), 1);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=1,gid=4")), 1);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=noaccess")), 1);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=ptraceable")), 1);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=0")), 0);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=off")), 0);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=22")), 0);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=2,hidepid=0")), 0);
	/* A later mount over /proc is the one in force, either way. */
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,hidepid=2") PROC("rw")), 0);
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw") PROC("rw,hidepid=2")), 1);
	/* Not /proc itself, or not a proc: not judged. */
	assert_int_equal(proc_hides_cmdlines(ROOT "40 36 0:5 / /proc/sys rw - proc proc rw,hidepid=2\n"),
			 -1);
	assert_int_equal(proc_hides_cmdlines(ROOT "40 22 0:5 / /proc rw - tmpfs tmpfs rw\n"), -1);
	/* Without optional fields, and without a final newline. */
	assert_int_equal(proc_hides_cmdlines("36 22 0:4 / /proc rw - proc proc rw,hidepid=2"), 1);
	/* Options that merely contain the words. */
	assert_int_equal(proc_hides_cmdlines(ROOT PROC("rw,xhidepid=2")), 0);
}

static void test_host_items(void **state)
{
	(void)state;
	const char *names[] = {"a", "b"};
	ruas_report *r = report_new(names, 2);
	assert_non_null(r);
	assert_int_equal(ruas_report_host_count(r), 0);
	assert_int_equal(ruas_report_unjudged_count(r), 0);
	assert_int_equal(report_host_add(r, RUAS_SEVERITY_WARNING, "proc", "/proc", (struct words){strdup("WARNING: x\n"), NULL}), 0);
	assert_int_equal(ruas_report_has_fatal(r), 0);
	assert_int_equal(ruas_report_host_count(r), 1);
	assert_int_equal(ruas_report_host_severity(r, 0), RUAS_SEVERITY_WARNING);
	assert_string_equal(ruas_report_host_check(r, 0), "proc");
	assert_string_equal(ruas_report_host_text(r, 0), "WARNING: x\n");
	assert_null(ruas_report_host_text(r, 1));
	assert_int_equal(ruas_report_host_severity(r, 1), RUAS_SEVERITY_NONE);
	assert_string_equal(ruas_report_host_path(r, 0), "/proc");
	assert_null(ruas_report_host_fix(r, 0)); /* a warning that gives none */
	assert_null(ruas_report_host_path(r, 1));
	assert_null(ruas_report_host_fix(r, 1));
	/* A host item is not a project's. */
	assert_int_equal(ruas_report_item_count(r, 0), 0);
	assert_int_equal(report_host_add(r, RUAS_SEVERITY_FATAL, "proc", NULL, (struct words){strdup("ERROR: y\n"), strdup("do y")}), 0);
	assert_int_equal(ruas_report_has_fatal(r), 1);
	assert_null(ruas_report_host_path(r, 1));
	assert_string_equal(ruas_report_host_fix(r, 1), "do y");
	/* Unjudged: one note per path. */
	assert_int_equal(report_unjudged(r, "w1", "/etc/shadow"), 0);
	assert_int_equal(report_unjudged(r, "w2", "/etc/shadow"), 0);
	assert_int_equal(report_unjudged(r, "w3", "/etc/doas.conf"), 0);
	assert_int_equal(ruas_report_unjudged_count(r), 2);
	assert_string_equal(ruas_report_unjudged_what(r, 0), "w1");
	assert_string_equal(ruas_report_unjudged_path(r, 1), "/etc/doas.conf");
	assert_null(ruas_report_unjudged_path(r, 2));
	ruas_report_free(r);
	assert_int_equal(ruas_report_host_count(NULL), 0);
	assert_int_equal(ruas_report_unjudged_count(NULL), 0);
	assert_null(ruas_report_host_path(NULL, 0));
	assert_null(ruas_report_host_fix(NULL, 0));
}

/* A project's items: user, path and fix beside the text, copied; none past the last. */
static void test_item_fields(void **state)
{
	(void)state;
	const char *names[] = {"a", "b"};
	ruas_report *r = report_new(names, 2);
	assert_non_null(r);
	char *user = strdup("t1"), *path = strdup("/srv/a");
	assert_non_null(user);
	assert_non_null(path);
	assert_int_equal(report_add(r, 1, RUAS_SEVERITY_FATAL, "work_dir", user, path,
				    (struct words){strdup("ERROR: x\nDo x.\n"), strdup("Do x.")}),
			 0);
	free(user); /* the report holds copies */
	free(path);
	assert_int_equal(report_add(r, 1, RUAS_SEVERITY_WARNING, "lifetime", "t1", NULL,
				    (struct words){strdup("WARNING: y\n"), NULL}),
			 0);
	assert_string_equal(ruas_report_item_user(r, 1, 0), "t1");
	assert_string_equal(ruas_report_item_path(r, 1, 0), "/srv/a");
	assert_string_equal(ruas_report_item_fix(r, 1, 0), "Do x.");
	assert_string_equal(ruas_report_item_text(r, 1, 0), "ERROR: x\nDo x.\n");
	assert_string_equal(ruas_report_item_user(r, 1, 1), "t1");
	assert_null(ruas_report_item_path(r, 1, 1));
	assert_null(ruas_report_item_fix(r, 1, 1));
	/* Past the last item, the last project, and of no report: NULL. */
	assert_null(ruas_report_item_user(r, 1, 2));
	assert_null(ruas_report_item_path(r, 1, 2));
	assert_null(ruas_report_item_fix(r, 1, 2));
	assert_null(ruas_report_item_user(r, 0, 0));
	assert_null(ruas_report_item_fix(r, 2, 0));
	assert_null(ruas_report_item_user(NULL, 0, 0));
	assert_null(ruas_report_item_path(NULL, 0, 0));
	assert_null(ruas_report_item_fix(NULL, 0, 0));
	assert_null(ruas_report_item_text(NULL, 0, 0));
	/* Words out of memory: a failure, nothing added, the fix freed. */
	assert_int_equal(report_add(r, 0, RUAS_SEVERITY_FATAL, "sudo", "t1", NULL,
				    (struct words){NULL, strdup("lost")}),
			 -1);
	assert_int_equal(ruas_report_item_count(r, 0), 0);
	ruas_report_free(r);
}

/* A fake tree without proc/self/mountinfo, or with one: judged from it. */
static void test_report_proc(void **state)
{
	(void)state;
	char root[] = "/tmp/ruas-test-host-notes-XXXXXX";
	char path[256];
	assert_non_null(mkdtemp(root));
	const char *names[] = {"a"};
	ruas_report *r = report_new(names, 1);
	assert_int_equal(report_proc_cmdlines(r, root), 0);
	assert_int_equal(ruas_report_host_count(r), 0);
	char proc[256], self[256];
	snprintf(proc, sizeof proc, "%s/proc", root);
	snprintf(self, sizeof self, "%s/proc/self", root);
	snprintf(path, sizeof path, "%s/proc/self/mountinfo", root);
	assert_int_equal(mkdir(proc, 0755), 0);
	assert_int_equal(mkdir(self, 0755), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(ROOT PROC("rw"), f);
	fclose(f);
	assert_int_equal(report_proc_cmdlines(r, root), 0);
	assert_int_equal(ruas_report_host_count(r), 1);
	assert_non_null(strstr(ruas_report_host_text(r, 0), "hidepid=invisible"));
	assert_string_equal(ruas_report_host_path(r, 0), "/proc");
	assert_non_null(strstr(ruas_report_host_text(r, 0), ruas_report_host_fix(r, 0)));
	assert_true(strncmp(ruas_report_host_fix(r, 0), "pass prompts on the agent's stdin", 33) == 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(ROOT PROC("rw,hidepid=invisible"), f);
	fclose(f);
	assert_int_equal(report_proc_cmdlines(r, root), 0);
	assert_int_equal(ruas_report_host_count(r), 1);
	ruas_report_free(r);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(self), 0);
	assert_int_equal(rmdir(proc), 0);
	assert_int_equal(rmdir(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hidepid),
		cmocka_unit_test(test_host_items),
		cmocka_unit_test(test_item_fields),
		cmocka_unit_test(test_report_proc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
