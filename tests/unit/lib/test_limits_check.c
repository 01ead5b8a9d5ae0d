/* SPDX-License-Identifier: ISC */
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

#include <errno.h>
#include <stdlib.h>

#include "cgroup/judge.h"
#include "cgroup/place.h"
#include "cgroup/run.h"
#include "check/limits_check.h"
#include "check/messages.h"
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

/* ------------------------------------------------ the run's own cgroup */

static char *cgroup_text(const struct cgroup_place *pl, const char *why,
			 const struct cgroup_judgement *j)
{
	struct words w = msg_cgroup_unusable("p", "memory_max, tasks_max", pl, why, j, 1000);
	assert_non_null(w.text);
	char *t = strdup(w.text);
	words_free(&w);
	return t;
}

static void expect_parts(const char *text, const char *const *parts)
{
	for (; *parts; parts++)
		if (!strstr(text, *parts))
			fail_msg("no \"%s\" in:\n%s", *parts, text);
}

/* Each verdict of the judge: what is wrong, where, and the fix, then the restart. */
static void test_cgroup_messages(void **state)
{
	(void)state;
	struct cgroup_place pl;
	memset(&pl, 0, sizeof pl);
	strcpy(pl.mount, "/sys/fs/cgroup");
	strcpy(pl.own, "/system.slice/bridge.service");
	strcpy(pl.parent, "/system.slice/bridge.service/runs");
	struct cgroup_judgement j;
	memset(&j, 0, sizeof j);
	strcpy(j.where, "/system.slice/bridge.service/runs");
	static const struct {
		enum cgroup_verdict v;
		unsigned int ctl;
		const char *where;
		const char *parts[4];
	} cases[] = {
		{CGROUP_NO_PARENT, 0, NULL,
		 {"cgroup_parent \"/sys/fs/cgroup/system.slice/bridge.service/runs\" does not exist",
		  "Make it", NULL}},
		{CGROUP_NOT_DOMAIN, 0, NULL, {"is a threaded cgroup", "domain cgroup", NULL}},
		{CGROUP_OPEN_TO_OTHERS, 0, NULL,
		 {"\"/sys/fs/cgroup/system.slice/bridge.service/runs/cgroup.procs\" may be written "
		  "by others than root and the supervisor (uid 1000): owner uid 2000, mode 0664",
		  "only the supervisor (or root) may write", NULL}},
		{CGROUP_CANNOT_MKDIR, 0, NULL,
		 {"the supervisor (uid 1000) cannot make a cgroup in", "Delegate=yes", NULL}},
		{CGROUP_CANNOT_MOVE, 0, "/system.slice",
		 {"from its cgroup \"/sys/fs/cgroup/system.slice/bridge.service\"",
		  "cgroup.procs of \"/sys/fs/cgroup/system.slice\"", NULL}},
		{CGROUP_NOT_AVAILABLE, CGROUP_CTL_PIDS, NULL,
		 {"the pids controller is not available in", "echo \"+pids\"", NULL}},
		{CGROUP_NOT_AVAILABLE, CGROUP_CTL_MEMORY | CGROUP_CTL_CPU, "/",
		 {"the memory, cpu controllers are not available in \"/sys/fs/cgroup\"",
		  "cgroup v1", "systemd.unified_cgroup_hierarchy=1", NULL}},
		{CGROUP_INTERNAL_PROCESS, CGROUP_CTL_MEMORY, NULL,
		 /* cgroup_parent (runs) holds processes that are not the supervisor's. */
		 {"runs\" holds processes of its own, and the kernel hands no controller down",
		  "Set cgroup_parent to a cgroup that holds no process",
		  "or move what runs in it into a leaf of its own.", NULL}},
		{CGROUP_CANNOT_HAND_DOWN, CGROUP_CTL_MEMORY, NULL,
		 {"does not hand the memory controller down", "echo \"+memory\" >", NULL}},
		{CGROUP_UNREADABLE, 0, NULL, {"could not be read: Permission denied", NULL}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		j.verdict = cases[i].v;
		j.controllers = cases[i].ctl;
		j.err = EACCES;
		strcpy(j.where, cases[i].where ? cases[i].where : pl.parent);
		strcpy(j.file, "cgroup.procs");
		j.owner = 2000;
		j.mode = 0664;
		char *t = cgroup_text(&pl, NULL, &j);
		if (strncmp(t, "ERROR: project \"p\": memory_max, tasks_max need a cgroup of each "
			       "run's own, and none can be made: ", 97) != 0)
			fail_msg("case %zu: %s", i, t);
		expect_parts(t, cases[i].parts);
		assert_non_null(strstr(t, " Then restart ruas.\n"));
		free(t);
	}
	/* The supervisor's own cgroup, the default, holds it: cgroup_parent is to name it. */
	pl.is_default = 1;
	strcpy(pl.parent, pl.own);
	j.verdict = CGROUP_INTERNAL_PROCESS;
	j.controllers = CGROUP_CTL_MEMORY;
	strcpy(j.where, pl.own);
	char *d = cgroup_text(&pl, NULL, &j);
	expect_parts(d, (const char *const[]){
				"\"/sys/fs/cgroup/system.slice/bridge.service\" holds processes of its "
				"own (the supervisor's own cgroup is the default)",
				"move it into \"/sys/fs/cgroup/system.slice/bridge.service/supervisor\" "
				"as it starts) and set cgroup_parent to \"/sys/fs/cgroup/system.slice/"
				"bridge.service\": its runs then go beside it",
				NULL});
	free(d);
	/* Its own cgroup, the default, is already its leaf (DelegateSubgroup=): the one above. */
	strcpy(pl.own, "/system.slice/bridge.service/supervisor");
	strcpy(pl.parent, pl.own);
	strcpy(j.where, pl.own);
	d = cgroup_text(&pl, NULL, &j);
	expect_parts(d, (const char *const[]){
				"\"/sys/fs/cgroup/system.slice/bridge.service/supervisor\" holds "
				"processes of its own (the supervisor's own cgroup is the default)",
				"Set cgroup_parent to the cgroup above the supervisor's leaf, "
				"\"/sys/fs/cgroup/system.slice/bridge.service\": its runs then go "
				"beside it",
				NULL});
	assert_null(strstr(d, "supervisor/supervisor"));
	free(d);
	/* Where runs go could not be found: no cgroup v2 at all. */
	memset(&pl, 0, sizeof pl);
	char *t = cgroup_text(&pl, "no cgroup v2 is mounted", NULL);
	expect_parts(t, (const char *const[]){"none can be made: no cgroup v2 is mounted.\n",
					      "cgroup v2 alone", "or remove memory_max, tasks_max",
					      NULL});
	free(t);
}

static void test_cgroup_keys_named(void **state)
{
	(void)state;
	struct run_limits l;
	char k[96];
	memset(&l, 0, sizeof l);
	l.cpu_milli = 500;
	cgroup_limit_keys(&l, k, sizeof k);
	assert_string_equal(k, "cpu_max");
	l.memory = 1 << 30;
	l.memory_swap_set = 1;
	cgroup_limit_keys(&l, k, sizeof k);
	assert_string_equal(k, "memory_max, memory_swap_max, cpu_max");
	l.tasks = 20;
	l.cpu_milli = 0;
	l.memory_swap_set = 0;
	cgroup_limit_keys(&l, k, sizeof k);
	assert_string_equal(k, "memory_max, tasks_max");
	l.memory = 0;
	cgroup_limit_keys(&l, k, sizeof k);
	assert_string_equal(k, "tasks_max");
}

/* What the check judges and what the spawn writes are one conversion. */
static void test_cgroup_limits_of(void **state)
{
	(void)state;
	struct run_limits l;
	memset(&l, 0, sizeof l);
	struct cgroup_limits c = cgroup_limits_of(&l);
	assert_int_equal(cgroup_controllers_wanted(&c), 0);
	l.memory = 64ULL << 20;
	l.memory_swap = 1ULL << 20;
	l.tasks = 20;
	l.cpu_milli = 1500;
	c = cgroup_limits_of(&l);
	assert_true(c.memory_max == 64ULL << 20);
	assert_true(c.memory_swap_max == 1ULL << 20);
	assert_true(c.tasks_max == 20);
	assert_true(c.cpu_quota_us == 150000 && c.cpu_period_us == 100000);
	assert_int_equal(cgroup_controllers_wanted(&c),
			 CGROUP_CTL_MEMORY | CGROUP_CTL_PIDS | CGROUP_CTL_CPU);
	l.memory = 0;
	l.memory_swap = 0;
	l.tasks = 0;
	l.cpu_milli = 10;
	c = cgroup_limits_of(&l);
	assert_true(c.cpu_quota_us == 1000);
	assert_int_equal(cgroup_controllers_wanted(&c), CGROUP_CTL_CPU);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_above_the_hard_limits),
		cmocka_unit_test(test_pam_before_its_session),
		cmocka_unit_test(test_within_or_none),
		cmocka_unit_test(test_unreported),
		cmocka_unit_test(test_cgroup_messages),
		cmocka_unit_test(test_cgroup_keys_named),
		cmocka_unit_test(test_cgroup_limits_of),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
