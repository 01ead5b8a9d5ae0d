/* SPDX-License-Identifier: ISC */
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

#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/judge.h"
#include "cgroup_locate.h"
#include "cgroup/run.h"
#include "fixture.h"

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
	/* A path with a space, and names that only look like dots. */
	assert_int_equal(cgroup2_own_from("0::/a b/...x/.y/z.\n", out, sizeof out), 0);
	assert_string_equal(out, "/a b/...x/.y/z.");
	assert_int_equal(cgroup2_own_from("0::/a/...\n", out, sizeof out), 0);
	/* A removed cgroup is none to judge; a path above a namespace's root leads out. */
	assert_int_equal(cgroup2_own_from("0::/a b (deleted)\n", out, sizeof out), -1);
	assert_int_equal(cgroup2_own_from("0::/../x\n", out, sizeof out), -1);
	assert_int_equal(cgroup2_own_from("0::/a/..\n", out, sizeof out), -1);
	assert_int_equal(cgroup2_own_from("0::/a/./b\n", out, sizeof out), -1);
	/* A name with a newline splits its line: what follows gives it away. */
	assert_int_equal(cgroup2_own_from("0::/svc/evil\n0::/other\n", out, sizeof out), -1);
	assert_int_equal(cgroup2_own_from("0::/svc/evil\nrest\n", out, sizeof out), -1);
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

/* ------------------------------------------------ judging a parent */

/*
 * A fake hierarchy of the files the kernel keeps (a plain directory: the
 * judge only reads them and asks for access): the top hands memory and
 * pids down; svc (a service, with a process) has memory and pids, hands
 * none down; svc/runs is empty; thr is threaded.
 */
static char tree[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	write_file(path, text, 0644);
}

static void dir(const char *rel)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void fake_tree(void)
{
	snprintf(tree, sizeof tree, "/tmp/ruas-cgroup-judge.XXXXXX");
	assert_non_null(mkdtemp(tree));
	assert_int_equal(chmod(tree, 0755), 0);
	put("cgroup.controllers", "cpuset cpu io memory pids\n");
	put("cgroup.subtree_control", "memory pids\n");
	put("cgroup.procs", "1\n");
	dir("svc");
	put("svc/cgroup.type", "domain\n");
	put("svc/cgroup.controllers", "memory pids\n");
	put("svc/cgroup.subtree_control", "\n");
	put("svc/cgroup.procs", "123\n");
	dir("svc/runs");
	put("svc/runs/cgroup.type", "domain\n");
	put("svc/runs/cgroup.controllers", "memory pids\n");
	put("svc/runs/cgroup.subtree_control", "\n");
	put("svc/runs/cgroup.procs", "");
	dir("thr");
	put("thr/cgroup.type", "threaded\n");
	char link[256];
	snprintf(link, sizeof link, "%s/svc/link", tree);
	assert_int_equal(symlink("runs", link), 0);
}

static void own_path(const char *rel, uid_t uid);

static enum cgroup_verdict judge(const char *parent, const char *own, unsigned int want,
				 struct cgroup_judgement *j)
{
	int m = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(m >= 0);
	enum cgroup_verdict v = cgroup_judge_parent(m, parent, own, want, j);
	close(m);
	return v;
}

#define MP (CGROUP_CTL_MEMORY | CGROUP_CTL_PIDS)

static void test_judge_as_root(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip(); /* CI runs this as root; the access checks are the next test's */
	struct cgroup_judgement j;
	fake_tree();
	/* A leaf of the service's: the parent hands down what it needs (no process in it). */
	assert_int_equal(judge("/svc/runs", "/svc/sup", MP, &j), CGROUP_USABLE);
	assert_int_equal(judge("/svc/runs", "/svc/sup", 0, &j), CGROUP_USABLE);
	/* cpu is not among its controllers: named, with where. */
	assert_int_equal(judge("/svc/runs", "/svc/sup", MP | CGROUP_CTL_CPU, &j),
			 CGROUP_NOT_AVAILABLE);
	assert_int_equal(j.controllers, CGROUP_CTL_CPU);
	assert_string_equal(j.where, "/svc/runs");
	/* The service's own cgroup holds its process: nothing can be handed down from it. */
	assert_int_equal(judge("/svc", "/svc", MP, &j), CGROUP_INTERNAL_PROCESS);
	assert_int_equal(j.controllers, MP);
	/* ... unless it hands them down already. */
	put("svc/cgroup.subtree_control", "memory pids\n");
	assert_int_equal(judge("/svc", "/svc", MP, &j), CGROUP_USABLE);
	put("svc/cgroup.subtree_control", "\n");
	/* The top is exempt from that rule. */
	assert_int_equal(judge("/", "/svc", MP | CGROUP_CTL_CPU, &j), CGROUP_USABLE);
	assert_int_equal(judge("/thr", "/", MP, &j), CGROUP_NOT_DOMAIN);
	assert_int_equal(judge("/nonexistent", "/", MP, &j), CGROUP_NO_PARENT);
	assert_string_equal(j.where, "/nonexistent");
	/*
	 * A parent that others may write (group or other write; an owner
	 * neither root nor the supervisor, as in a subtree delegated to the
	 * target): they could move runs out or take their controllers away.
	 */
	char path[256];
	snprintf(path, sizeof path, "%s/svc/runs", tree);
	assert_int_equal(chmod(path, 0775), 0);
	assert_int_equal(judge("/svc/runs", "/svc/sup", MP, &j), CGROUP_OPEN_TO_OTHERS);
	assert_string_equal(j.file, "");
	assert_int_equal(j.mode, 0775);
	assert_int_equal(chmod(path, 0755), 0);
	own_path("svc/runs/cgroup.procs", 56951);
	assert_int_equal(judge("/svc/runs", "/svc/sup", MP, &j), CGROUP_OPEN_TO_OTHERS);
	assert_string_equal(j.file, "cgroup.procs");
	assert_int_equal(j.owner, 56951);
	own_path("svc/runs/cgroup.procs", 0);
	snprintf(path, sizeof path, "%s/svc/runs/cgroup.subtree_control", tree);
	assert_int_equal(chmod(path, 0646), 0);
	assert_int_equal(judge("/svc/runs", "/svc/sup", MP, &j), CGROUP_OPEN_TO_OTHERS);
	assert_string_equal(j.file, "cgroup.subtree_control");
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(judge("/svc/runs", "/svc/sup", MP, &j), CGROUP_USABLE);
	/* Never out of the hierarchy, never through a link. */
	assert_int_equal(judge("/../etc", "/", 0, &j), CGROUP_UNREADABLE);
	assert_int_equal(judge("/svc/link", "/", 0, &j), CGROUP_UNREADABLE);
	rm_rf(tree);
}

static void own_path(const char *rel, uid_t uid)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tree, rel);
	assert_int_equal(chown(path, uid, (gid_t)-1), 0);
}

/* As a user (a child of root's that becomes one): what it may write decides. */
static int judge_as(uid_t uid, const char *parent, const char *own, unsigned int want,
		    struct cgroup_judgement *j)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(99);
		struct cgroup_judgement c;
		judge(parent, own, want, &c);
		_exit(write(p[1], &c, sizeof c) == (ssize_t)sizeof c ? 0 : 98);
	}
	close(p[1]);
	size_t got = 0;
	while (got < sizeof *j) {
		ssize_t r = read(p[0], (char *)j + got, sizeof *j - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(got, sizeof *j);
	return j->verdict;
}

static void test_judge_as_a_user(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip(); /* a user of its own is root's to become; CI runs this as root */
	const uid_t u = 56950;
	struct cgroup_judgement j;
	fake_tree();
	/* Root's tree: no directory of its own to make a run in. */
	assert_int_equal(judge_as(u, "/svc/runs", "/svc/sup", MP, &j), CGROUP_CANNOT_MKDIR);
	assert_string_equal(j.where, "/svc/runs");
	/*
	 * A controller the parent has not is said first: on a hybrid host (the
	 * controller is cgroup v1's) no delegation could give it.
	 */
	assert_int_equal(judge_as(u, "/svc/runs", "/svc/sup", MP | CGROUP_CTL_CPU, &j),
			 CGROUP_NOT_AVAILABLE);
	assert_int_equal(j.controllers, CGROUP_CTL_CPU);
	/* Its runs directory, but runs' subtree_control is root's: nothing handed down. */
	own_path("svc/runs", u);
	assert_int_equal(judge_as(u, "/svc/runs", "/svc/sup", MP, &j), CGROUP_CANNOT_HAND_DOWN);
	assert_int_equal(j.controllers, MP);
	/* ... which a run without cgroup limits does not need. */
	assert_int_equal(judge_as(u, "/svc/runs", "/svc/sup", 0, &j), CGROUP_CANNOT_MOVE);
	/* Its too, but the service's cgroup.procs is root's: it cannot move one there. */
	own_path("svc/runs/cgroup.subtree_control", u);
	assert_int_equal(judge_as(u, "/svc/runs", "/svc/sup", MP, &j), CGROUP_CANNOT_MOVE);
	assert_string_equal(j.where, "/svc");
	/* Delegated (systemd's Delegate=yes gives cgroup.procs too): usable. */
	own_path("svc/cgroup.procs", u);
	assert_int_equal(judge_as(u, "/svc/runs", "/svc/sup", MP, &j), CGROUP_USABLE);
	/* Another service's runs, beneath the top: the top's cgroup.procs is root's. */
	assert_int_equal(judge_as(u, "/svc/runs", "/other/sup", MP, &j), CGROUP_CANNOT_MOVE);
	assert_string_equal(j.where, "/");
	rm_rf(tree);
}

/*
 * A kernel without cgroup.kill (before 5.14) cannot end a run whole: its
 * run cgroup is refused as it is made (ENOSYS, "cgroup.kill"), and nothing
 * of it is left. The fake tree's directories are plain ones, without it.
 */
static void test_no_cgroup_kill_refused(void **state)
{
	(void)state;
	fake_tree();
	char parent[128], run[160];
	snprintf(parent, sizeof parent, "%s/svc/runs", tree);
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(pfd >= 0);
	struct run_cgroup rc;
	struct cgroup_limits l = {64u << 20, 0, 0, 0, 0};
	const char *what = NULL;
	errno = 0;
	assert_int_equal(run_cgroup_make(&rc, pfd, "run-x", &l, &what), -1);
	assert_int_equal(errno, ENOSYS);
	assert_string_equal(what, "cgroup.kill");
	assert_int_equal(rc.dir, -1);
	assert_int_equal(rc.parent, -1);
	snprintf(run, sizeof run, "%s/run-x", parent);
	assert_int_equal(access(run, F_OK), -1);
	/* ... the controller was handed down on the way: later runs need it too. */
	char *sc = NULL;
	snprintf(run, sizeof run, "%s/cgroup.subtree_control", parent);
	sc = read_whole_file(run);
	assert_non_null(strstr(sc, "+memory"));
	free(sc);
	close(pfd);
	rm_rf(tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_found),  cmocka_unit_test(test_mount_escapes_and_binds),
		cmocka_unit_test(test_mount_none),   cmocka_unit_test(test_own),
		cmocka_unit_test(test_controllers), cmocka_unit_test(test_from_proc),
		cmocka_unit_test(test_judge_as_root), cmocka_unit_test(test_judge_as_a_user),
		cmocka_unit_test(test_no_cgroup_kill_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
