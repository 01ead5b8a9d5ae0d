/* SPDX-License-Identifier: ISC */
/*
 * cgroup_probe.c - run inside the VM by tests/vm/cgroup_guest.sh: the
 * library's run cgroup (src/lib/cgroup/run.c) and its launcher
 * (src/lib/spawn/clone_into.c) against a real cgroup v2, as key=value
 * lines for the host (tests/integration/cgroup_vm.sh) to judge.
 *
 *   cgroup_probe PARENT place   a shell and two sleeps start in the run's
 *                               cgroup, are killed whole, and it is removed
 *   cgroup_probe PARENT oom     300 MB under memory_max 64M
 *   cgroup_probe PARENT tasks   a fork loop under tasks_max 20
 *   cgroup_probe PARENT cpu     two busy loops under cpu_max 0.5
 *   cgroup_probe PARENT setup   what the child starts with: descriptors,
 *                               signal mask and dispositions, session
 *   cgroup_probe PARENT errors  the launcher's failures, as errnos
 *   cgroup_probe PARENT judge   the judge's verdict on PARENT and on the
 *                               probe's own cgroup (cgroup/judge.c)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/judge.h"
#include "cgroup_locate.h"
#include "cgroup/run.h"
#include "spawn/clone_into.h"

static int parent_fd;
static char run_name[64];
static int last_pidfd = -1; /* start()'s child's, from the clone */

/* The pid a pidfd is of (its fdinfo's Pid line), -1 when none. */
static long pidfd_pid(int fd)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "re");
	long pid = -1;
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "Pid:", 4) == 0)
			pid = strtol(line + 4, NULL, 10);
	if (f)
		fclose(f);
	return pid;
}

/* How many descriptors this process has open. */
static int open_fds(void)
{
	int n = 0;
	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

static void die(const char *what)
{
	printf("error=%s: %s\n", what, strerror(errno));
	exit(1);
}

static void make(struct run_cgroup *rc, const struct cgroup_limits *l)
{
	const char *what;
	snprintf(run_name, sizeof run_name, "run-%ld", (long)getpid());
	if (run_cgroup_make(rc, parent_fd, run_name, l, &what) < 0)
		die(what);
}

/* sh -c SCRIPT in the run's cgroup, its stdout to *out (a pipe) when out. */
static pid_t start(const struct run_cgroup *rc, const char *script, int *out)
{
	int p[2] = {-1, -1};
	if (out && pipe2(p, O_CLOEXEC) < 0)
		die("pipe2");
	struct clone_plan plan = {.nmoves = 0, .close_from = 3, .new_session = 1};
	if (out) {
		plan.from[0] = p[1];
		plan.to[0] = 1;
		plan.nmoves = 1;
	}
	plan.null_stdin = 1;
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	char *envp[] = {"PATH=/usr/bin:/bin", NULL};
	pid_t pid;
	int e = clone_into_cgroup(&pid, &last_pidfd, rc->dir, "/bin/sh", argv, envp, &plan);
	if (e != 0) {
		errno = e;
		die("clone_into_cgroup");
	}
	if (out) {
		close(p[1]);
		*out = p[0];
	}
	return pid;
}

static int count_procs(const struct run_cgroup *rc)
{
	int fd = openat(rc->dir, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("cgroup.procs");
	char text[65536];
	ssize_t got = read(fd, text, sizeof text - 1);
	close(fd);
	if (got < 0)
		die("read cgroup.procs");
	int n = 0;
	for (ssize_t i = 0; i < got; i++)
		n += text[i] == '\n';
	return n;
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void finish(struct run_cgroup *rc)
{
	printf("kill=%d\n", run_cgroup_kill(rc));
	printf("empty=%d\n", run_cgroup_wait_empty(rc, 30000));
	printf("populated=%d\n", run_cgroup_populated(rc));
	printf("removed=%d\n", run_cgroup_remove(rc));
	printf("gone=%d\n", faccessat(parent_fd, run_name, F_OK, 0) < 0 && errno == ENOENT);
}

/* Every line of out until EOF, printed as KEY.N=line. */
static void relay(int fd, const char *key)
{
	FILE *f = fdopen(fd, "r");
	char line[512];
	for (int n = 0; f && fgets(line, sizeof line, f); n++) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s.%d=%s\n", key, n, line);
	}
	if (f)
		fclose(f);
}

static void place(void)
{
	struct run_cgroup rc;
	struct cgroup_limits l = {.tasks_max = 50};
	make(&rc, &l);
	int out;
	/* The sleeps' stdout is not the pipe: "end" is the last line, cat is gone by then. */
	pid_t pid = start(&rc, "sleep 300 >/dev/null & sleep 300 >/dev/null & "
			       "cat /proc/self/cgroup; echo end; wait", &out);
	FILE *f = fdopen(out, "r");
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "end") == 0)
			break;
		printf("child=%s\n", line);
	}
	printf("procs=%d\n", count_procs(&rc));
	printf("pidfd_is_child=%d\n", pidfd_pid(last_pidfd) == (long)pid);
	printf("pidfd_cloexec=%d\n", (fcntl(last_pidfd, F_GETFD) & FD_CLOEXEC) != 0);
	close(last_pidfd);
	finish(&rc);
	printf("status=%d\n", wait_status(pid));
	if (f)
		fclose(f);
}

static void oom(void)
{
	struct run_cgroup rc;
	struct cgroup_limits l = {.memory_max = 64u << 20};
	make(&rc, &l);
	pid_t pid = start(&rc, "exec python3 -c 'b = bytearray(300 * 1024 * 1024); print(len(b))'",
			  NULL);
	printf("status=%d\n", wait_status(pid));
	struct cgroup_counts c;
	run_cgroup_counts(&rc, &c);
	printf("oom_kills=%" PRIu64 "\n", c.oom_kills);
	finish(&rc);
}

static void tasks(void)
{
	struct run_cgroup rc;
	struct cgroup_limits l = {.tasks_max = 20};
	make(&rc, &l);
	int out;
	/* 100 forks (a shell gives up at its first refused one): each child sleeps. */
	pid_t pid = start(&rc, "exec python3 -c 'import os, time\n"
			       "n = 0\n"
			       "for i in range(100):\n"
			       "    try:\n"
			       "        pid = os.fork()\n"
			       "    except OSError:\n"
			       "        n += 1\n"
			       "        continue\n"
			       "    if pid == 0:\n"
			       "        os.close(1)\n"
			       "        time.sleep(300)\n"
			       "        os._exit(0)\n"
			       "print(\"refused\", n, flush=True)\n'",
			  &out);
	relay(out, "out");
	int most = count_procs(&rc);
	printf("procs=%d\n", most);
	struct cgroup_counts c;
	run_cgroup_counts(&rc, &c);
	printf("pids_max_events=%" PRIu64 "\n", c.pids_max);
	printf("status=%d\n", wait_status(pid));
	finish(&rc);
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void cpu(void)
{
	struct run_cgroup rc;
	struct cgroup_limits l = {.cpu_quota_us = 50000, .cpu_period_us = 100000};
	make(&rc, &l);
	long long t0 = now_us();
	pid_t pid = start(&rc, "timeout 4 sh -c 'while :; do :; done' & "
			       "timeout 4 sh -c 'while :; do :; done' & wait",
			  NULL);
	printf("status=%d\n", wait_status(pid));
	long long wall = now_us() - t0;
	struct cgroup_counts c;
	run_cgroup_counts(&rc, &c);
	printf("cpu_per_mille=%lld\n", (long long)(c.cpu_usec * 1000 / (uint64_t)wall));
	finish(&rc);
}

static void setup(void)
{
	struct run_cgroup rc;
	struct cgroup_limits l = {0};
	make(&rc, &l);
	/* An inheritable descriptor of the caller's, a handler and a blocked signal. */
	int stray = open("/dev/null", O_RDONLY);
	if (stray < 0)
		die("open");
	signal(SIGUSR1, SIG_IGN);
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	int out;
	pid_t pid = start(&rc, "ls /proc/$$/fd | tr '\\n' ' '; echo; "
			       "grep -E '^(SigBlk|SigIgn)' /proc/$$/status; "
			       "echo sid=$(cut -d' ' -f6 /proc/$$/stat) pid=$$; "
			       "readlink /proc/$$/fd/0",
			  &out);
	relay(out, "out");
	printf("stray=%d\n", stray);
	printf("status=%d\n", wait_status(pid));
	finish(&rc);
}

static void errors(void)
{
	struct run_cgroup rc;
	/* tasks_max: the parent hands pids down, whatever the cases before did. */
	struct cgroup_limits l = {.tasks_max = 50};
	make(&rc, &l);
	struct clone_plan plan = {.close_from = 3};
	char *argv[] = {"/nonexistent/program", NULL};
	char *envp[] = {NULL};
	pid_t pid = -1;
	int fd = -1, before = open_fds();
	printf("missing=%d\n", clone_into_cgroup(&pid, &fd, rc.dir, argv[0], argv, envp, &plan));
	/* Reaped by the launcher (this process has no other child): none left to wait for. */
	printf("zombie=%d\n", !(waitpid(-1, NULL, 0) < 0 && errno == ECHILD));
	printf("fd_leak=%d\n", open_fds() - before);
	int tmp = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *sh[] = {"/bin/true", NULL};
	printf("not_cgroup=%d\n", clone_into_cgroup(&pid, NULL, tmp, sh[0], sh, envp, &plan));
	close(tmp);
	/* The parent hands controllers down to the run: it takes no process itself. */
	printf("inner=%d\n", clone_into_cgroup(&pid, NULL, parent_fd, sh[0], sh, envp, &plan));
	finish(&rc);
}

/* The judge of a parent (src/lib/cgroup/judge.c) on the real files: PARENT and its own. */
static const char *parent_path;

static void judge_one(const char *key, int mount_fd, const char *path, const char *own)
{
	struct cgroup_judgement j;
	enum cgroup_verdict v = cgroup_judge_parent(
		mount_fd, path, own, CGROUP_CTL_MEMORY | CGROUP_CTL_PIDS | CGROUP_CTL_CPU, &j);
	printf("%s=%d %s %u\n", key, (int)v, j.where, j.controllers);
}

static void judge(void)
{
	char mnt[4096], own[4096];
	if (cgroup2_mount(mnt, sizeof mnt) < 0 || cgroup2_own(own, sizeof own) < 0)
		die("cgroup2_mount");
	size_t ml = strlen(mnt);
	if (strncmp(parent_path, mnt, ml) != 0 || parent_path[ml] != '/')
		die("parent not beneath the mount");
	int m = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m < 0)
		die(mnt);
	printf("own=%s\n", own);
	judge_one("parent", m, parent_path + ml, own);
	judge_one("own", m, own, own);
	close(m);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	parent_path = argv[1];
	parent_fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent_fd < 0)
		die(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	static const struct {
		const char *name;
		void (*fn)(void);
	} cases[] = {{"place", place}, {"oom", oom},	 {"tasks", tasks},
		     {"cpu", cpu},     {"setup", setup}, {"errors", errors},
		     {"judge", judge}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(argv[2], cases[i].name) == 0) {
			cases[i].fn();
			return 0;
		}
	return 2;
}
