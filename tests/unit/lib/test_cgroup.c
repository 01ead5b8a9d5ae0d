/*
 * test_cgroup.c - where cgroup v2 is and where this process is in it
 * (src/lib/cgroup/locate.c), from any text /proc could hold, and the
 * controller words (src/lib/cgroup/run.c). What the kernel does with a run's
 * cgroup is tests/integration/cgroup_vm.sh's, in a VM.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cgroup/locate.h"
#include "cgroup/run.h"

/* This host's kind: cgroup v1 controllers, a v2 hierarchy beside them. */
static const char hybrid[] =
	"25 1 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"30 25 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
	"31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - "
	"cgroup2 cgroup2 rw,nsdelegate\n"
	"32 30 0:28 / /sys/fs/cgroup/memory rw,relatime shared:11 - cgroup cgroup rw,memory\n";

static void test_mount_found(void **state)
{
	(void)state;
	char out[256];
	assert_int_equal(cgroup2_mount_from(hybrid, out, sizeof out), 0);
	assert_string_equal(out, "/sys/fs/cgroup/unified");

	/* A systemd host: the v2 hierarchy alone, optional fields and all. */
	static const char v2[] = "35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 master:2 - cgroup2 "
				 "cgroup2 rw,nsdelegate,memory_recursiveprot";
	assert_int_equal(cgroup2_mount_from(v2, out, sizeof out), 0);
	assert_string_equal(out, "/sys/fs/cgroup");
}

static void test_mount_escapes_and_binds(void **state)
{
	(void)state;
	char out[256];
	/* A bind of a subtree (root not "/") is not the hierarchy's top: the next one is. */
	static const char text[] =
		"40 1 0:27 /sub /mnt/bind rw - cgroup2 cgroup2 rw\n"
		"41 1 0:27 / /mnt/with\\040space\\011tab\\134back rw - cgroup2 cgroup2 rw\n";
	assert_int_equal(cgroup2_mount_from(text, out, sizeof out), 0);
	assert_string_equal(out, "/mnt/with space\ttab\\back");
	/* A mount point longer than the buffer is refused, not cut. */
	char small[8];
	assert_int_equal(cgroup2_mount_from(text, small, sizeof small), -1);
	/* An escaped NUL is no path. */
	assert_int_equal(cgroup2_mount_from("1 1 0:1 / /a\\000b rw - cgroup2 c rw\n", out,
					    sizeof out),
			 -1);
}

static void test_mount_none(void **state)
{
	(void)state;
	char out[256];
	static const char v1[] =
		"32 30 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		/* "cgroup2" as a mount point or source, never as the type. */
		"33 30 0:29 / /cgroup2 rw - tmpfs cgroup2 rw\n"
		"34 30 0:29 / /x rw - cgroup2x cgroup2 rw\n"
		/* No separator: not a mountinfo line. */
		"35 30 0:29 / /y rw cgroup2 cgroup2 rw\n";
	assert_int_equal(cgroup2_mount_from(v1, out, sizeof out), -1);
	assert_int_equal(cgroup2_mount_from("", out, sizeof out), -1);
}

static void test_own(void **state)
{
	(void)state;
	char out[256];
	static const char hyb[] = "12:pids:/user.slice\n1:name=systemd:/init.scope\n"
				  "0::/system.slice/bridge.service\n";
	assert_int_equal(cgroup2_own_from(hyb, out, sizeof out), 0);
	assert_string_equal(out, "/system.slice/bridge.service");
	assert_int_equal(cgroup2_own_from("0::/\n", out, sizeof out), 0);
	assert_string_equal(out, "/");
	/* A removed cgroup, and a path with a space. */
	assert_int_equal(cgroup2_own_from("0::/a b (deleted)\n", out, sizeof out), 0);
	assert_string_equal(out, "/a b");
	/* cgroup v1 only, or a line that does not begin with "/": none. */
	assert_int_equal(cgroup2_own_from("4:memory:/x\n", out, sizeof out), -1);
	assert_int_equal(cgroup2_own_from("0::x\n", out, sizeof out), -1);
	assert_int_equal(cgroup2_own_from("10::/x\n", out, sizeof out), -1);
	char small[4];
	assert_int_equal(cgroup2_own_from("0::/long\n", small, sizeof small), -1);
}

static void test_controllers(void **state)
{
	(void)state;
	assert_int_equal(cgroup_controllers_parse("cpuset cpu io memory hugetlb pids rdma misc\n"),
			 CGROUP_CTL_CPU | CGROUP_CTL_MEMORY | CGROUP_CTL_PIDS);
	assert_int_equal(cgroup_controllers_parse("cpuset io\n"), 0);
	assert_int_equal(cgroup_controllers_parse(""), 0);
	/* Whole words only. */
	assert_int_equal(cgroup_controllers_parse("cpux xmemory pid"), 0);
	struct cgroup_limits l = {0};
	assert_int_equal(cgroup_controllers_wanted(&l), 0);
	l.memory_max = 1;
	l.tasks_max = 2;
	assert_int_equal(cgroup_controllers_wanted(&l), CGROUP_CTL_MEMORY | CGROUP_CTL_PIDS);
	l.cpu_quota_us = 50000;
	assert_int_equal(cgroup_controllers_wanted(&l),
			 CGROUP_CTL_MEMORY | CGROUP_CTL_PIDS | CGROUP_CTL_CPU);
}

/* This process's own, read from /proc: on this host, what the kernel says. */
static void test_from_proc(void **state)
{
	(void)state;
	char out[4096];
	FILE *f = fopen("/proc/self/cgroup", "re");
	assert_non_null(f);
	char line[4096];
	int v2 = 0;
	while (fgets(line, sizeof line, f))
		v2 |= strncmp(line, "0::/", 4) == 0;
	fclose(f);
	assert_int_equal(cgroup2_own(out, sizeof out), v2 ? 0 : -1);
	if (v2)
		assert_int_equal(out[0], '/');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_found),  cmocka_unit_test(test_mount_escapes_and_binds),
		cmocka_unit_test(test_mount_none),   cmocka_unit_test(test_own),
		cmocka_unit_test(test_controllers), cmocka_unit_test(test_from_proc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
