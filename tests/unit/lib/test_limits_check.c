/*
 * test_limits_check.c - the "limits" check (src/lib/check/limits_check.h):
 * a project's open_files_max or file_size_max above the hard limit the
 * helper reported is fatal, naming the key, both values and the fix; one
 * the helper gave no hard limits for is fatal too; a project within its
 * limits, or without any, has no finding.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "check/limits_check.h"
#include "check/report.h"

static struct ruas_project project(unsigned long long nofile, unsigned long long fsize)
{
	struct ruas_project p;
	memset(&p, 0, sizeof p);
	p.name = (char *)"proj";
	p.run_as_user = (char *)"t1";
	p.limits.open_files = nofile;
	p.limits.file_size = fsize;
	return p;
}

static ruas_report *judge(const struct ruas_project *p, const struct helper_report *hr)
{
	ruas_report *rep = report_new((const char *const[]){"proj"}, 1);
	assert_non_null(rep);
	assert_int_equal(report_limits(rep, 0, p, "t1", hr, 0), 0);
	return rep;
}

static void assert_item(const ruas_report *rep, size_t i, const char *text, const char *fix)
{
	assert_true(i < ruas_report_item_count(rep, 0));
	assert_int_equal(ruas_report_item_severity(rep, 0, i), RUAS_SEVERITY_FATAL);
	assert_string_equal(ruas_report_item_check(rep, 0, i), "limits");
	assert_string_equal(ruas_report_item_user(rep, 0, i), "t1");
	assert_string_equal(ruas_report_item_text(rep, 0, i), text);
	assert_string_equal(ruas_report_item_fix(rep, 0, i), fix);
}

static void test_above_the_hard_limits(void **state)
{
	(void)state;
	struct helper_report hr = {0};
	hr.rlimits_seen = 1;
	hr.hard_nofile = 2048;
	hr.hard_fsize = 1048576;
	struct ruas_project p = project(4096, 3000000);
	ruas_report *rep = judge(&p, &hr);
	assert_int_equal(ruas_report_item_count(rep, 0), 2);
	assert_item(rep, 0,
		    "ERROR: project \"proj\": open_files_max 4096 is above the hard RLIMIT_NOFILE "
		    "(2048) that runs as user \"t1\" get from sudo or PAM, so no run of it would "
		    "start: ruas sets limits, it cannot raise them.\n"
		    "Lower open_files_max to 2048 or less, or raise the hard limit of \"t1\" "
		    "(pam_limits, for example in /etc/security/limits.conf: t1 hard nofile 4096). "
		    "Then restart ruas.\n",
		    "Lower open_files_max to 2048 or less, or raise the hard limit of \"t1\" "
		    "(pam_limits, for example in /etc/security/limits.conf: t1 hard nofile 4096).");
	/* limits.conf's fsize is in KiB, rounded up so that the line admits the value. */
	assert_item(rep, 1,
		    "ERROR: project \"proj\": file_size_max 3000000 is above the hard RLIMIT_FSIZE "
		    "(1048576) that runs as user \"t1\" get from sudo or PAM, so no run of it "
		    "would start: ruas sets limits, it cannot raise them.\n"
		    "Lower file_size_max to 1048576 or less, or raise the hard limit of \"t1\" "
		    "(pam_limits, for example in /etc/security/limits.conf: t1 hard fsize 2930). "
		    "Then restart ruas.\n",
		    "Lower file_size_max to 1048576 or less, or raise the hard limit of \"t1\" "
		    "(pam_limits, for example in /etc/security/limits.conf: t1 hard fsize 2930).");
	ruas_report_free(rep);
}

/* On the pam backend the check saw the limits before pam_limits: a warning that says so. */
static void test_pam_before_its_session(void **state)
{
	(void)state;
	struct helper_report hr = {0};
	hr.rlimits_seen = 1;
	hr.hard_nofile = 2048;
	hr.hard_fsize = UINT64_MAX;
	struct ruas_project p = project(4096, 0);
	ruas_report *rep = report_new((const char *const[]){"proj"}, 1);
	assert_int_equal(report_limits(rep, 0, &p, "t1", &hr, 1), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	assert_int_equal(ruas_report_item_severity(rep, 0, 0), RUAS_SEVERITY_WARNING);
	assert_false(ruas_report_has_fatal(rep));
	const char *t = ruas_report_item_text(rep, 0, 0);
	assert_non_null(strstr(t, "WARNING: project \"proj\": open_files_max 4096 is above the "
				  "hard RLIMIT_NOFILE (2048)"));
	assert_non_null(strstr(t, "On the pam backend this check runs before the PAM session"));
	ruas_report_free(rep);
}

static void test_within_or_none(void **state)
{
	(void)state;
	struct helper_report hr = {0};
	hr.rlimits_seen = 1;
	hr.hard_nofile = 2048;
	hr.hard_fsize = UINT64_MAX; /* unlimited */
	struct ruas_project at = project(2048, 1ULL << 62);
	ruas_report *rep = judge(&at, &hr);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
	/* No rlimit of its own: nothing to judge, whatever the report lacks. */
	struct helper_report none = {0};
	struct ruas_project free_of = project(0, 0);
	rep = judge(&free_of, &none);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
}

static void test_unreported(void **state)
{
	(void)state;
	struct helper_report none = {0};
	struct ruas_project p = project(64, 0);
	ruas_report *rep = judge(&p, &none);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	assert_item(rep, 0,
		    "ERROR: project \"proj\": the hard limits that runs as user \"t1\" get could "
		    "not be read (the helper did not report them), so its open_files_max or "
		    "file_size_max cannot be judged.\n"
		    "Install the ruas-exec of this version of ruas (make install, or the package). "
		    "Then restart ruas.\n",
		    "Install the ruas-exec of this version of ruas (make install, or the package).");
	ruas_report_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_above_the_hard_limits),
		cmocka_unit_test(test_pam_before_its_session),
		cmocka_unit_test(test_within_or_none),
		cmocka_unit_test(test_unreported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
