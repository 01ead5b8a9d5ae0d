/* SPDX-License-Identifier: ISC */
/*
 * test_pidns.c - the agent's PID namespace (src/common/pidns.h) for real:
 * its init ignores what the inside sends it, a terminate ends everything
 * inside as soon as nothing is left (or at the grace), and the owner's
 * death ends the namespace. Each case runs in a child of its own, which
 * becomes the owner; skipped where no namespace can be made.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pidns.h"
#include "proc.h"

/* Exit codes of a case's owner: 0 passed, SKIP no namespace here, others name the failure. */
#define SKIP 77

/* Writes text to /proc/self/NAME: 0, or -1 with errno. */
static int write_proc_self(const char *name, const char *text)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/%s", name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	if (w == (ssize_t)n)
		return 0;
	errno = w < 0 ? e : EIO;
	return -1;
}

/*
 * What the old in-process code did for a caller without privilege (the
 * helper's own hook, userns_enter, has a throwaway process make it, so that
 * the helper need never be dumpable; this test process is dumpable): a
 * user namespace in which its uid and gid map to themselves, setgroups
 * denied.
 */
static int test_userns(char *why, size_t whysz)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char line[64];
	const char *step = "unshare(CLONE_NEWUSER)";
	int r = unshare(CLONE_NEWUSER);
	if (r == 0) {
		step = "setgroups";
		r = write_proc_self("setgroups", "deny");
	}
	if (r == 0) {
		step = "uid_map";
		snprintf(line, sizeof line, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
		r = write_proc_self("uid_map", line);
	}
	if (r == 0) {
		step = "gid_map";
		snprintf(line, sizeof line, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
		r = write_proc_self("gid_map", line);
	}
	if (r < 0) {
		int e = errno;
		snprintf(why, whysz, "%s: %s", step, strerror(e));
		errno = e;
	}
	return r;
}

/* As the helpers call it: root needs no user namespace, anyone else joins one. */
static pidns_userns_fn user_ns(void)
{
	return geteuid() != 0 ? test_userns : NULL;
}

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Reaps every child; how long, in ms, until none was left (-1: not within limit_ms). */
static long long reap_all(long long limit_ms)
{
	long long start = monotonic_ms();
	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			return monotonic_ms() - start;
		if (monotonic_ms() - start > limit_ms)
			return -1;
		nap_ms(10);
	}
}

/* Runs one case as the owner, in a child, with userns as the hook: its exit code. */
static int in_owner_with(pidns_userns_fn userns, int (*body)(int ctl))
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char why[256];
		int ctl, err;
		if (pidns_start(userns, &ctl, why, sizeof why) != PIDNS_OK)
			_exit(SKIP);
		if (pidns_mount_proc(ctl, &err) < 0)
			_exit(2);
		_exit(body(ctl));
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == SKIP)
		skip();
	return WEXITSTATUS(st);
}

/* The same as the helpers call it (user_ns()). */
static int in_owner(int (*body)(int ctl))
{
	return in_owner_with(user_ns(), body);
}

/* An agent inside: tries to kill and stop the init, leaves a setsid'd double fork. */
static int hostile(int ctl)
{
	int p[2];
	if (pipe(p) < 0)
		return 3;
	pid_t a = fork();
	if (a == 0) {
		int r = getpid() > 1 && kill(1, SIGKILL) == 0 && kill(1, SIGSTOP) == 0 &&
			kill(1, SIGTERM) == 0;
		if (fork() == 0) {
			setsid();
			if (fork() == 0)
				for (;;)
					pause();
			_exit(0);
		}
		char c = r ? 'y' : 'n';
		(void)!write(p[1], &c, 1);
		for (;;)
			pause();
	}
	char c = 0;
	close(p[1]);
	if (read(p[0], &c, 1) != 1 || c != 'y')
		return 4; /* the signals were not even sent */
	nap_ms(200);
	/* The init lived through it: it still answers. */
	int err;
	if (pidns_mount_proc(ctl, &err) < 0)
		return 5;
	if (pidns_terminate(ctl, 30) < 0)
		return 6;
	/* Everything inside ends at once, long before the grace: nothing was left. */
	long long ms = reap_all(5000);
	return ms < 0 ? 7 : ms > 3000 ? 8 : 0;
}

static void test_init_unsignalable_and_terminate(void **state)
{
	(void)state;
	assert_int_equal(in_owner(hostile), 0);
}

/*
 * The same in a user namespace the hook joined first, whoever runs the
 * test (as root, user_ns() passes none): the path of the sudo backend.
 */
static void test_init_unsignalable_in_user_namespace(void **state)
{
	(void)state;
	assert_int_equal(in_owner_with(test_userns, hostile), 0);
}

/* An agent that ignores SIGTERM is killed when the grace is over, not before. */
static int stubborn(int ctl)
{
	if (fork() == 0) {
		signal(SIGTERM, SIG_IGN);
		for (;;)
			pause();
	}
	nap_ms(100);
	if (pidns_terminate(ctl, 1) < 0)
		return 3;
	long long ms = reap_all(5000);
	return ms < 0 ? 4 : ms < 800 ? 5 : 0;
}

static void test_grace_then_kill(void **state)
{
	(void)state;
	assert_int_equal(in_owner(stubborn), 0);
}

/* kill(-1) inside reaches the inside only; the owner's death ends it all. */
static int owner_dies(int ctl)
{
	(void)ctl;
	int p[2];
	if (pipe(p) < 0)
		return 3;
	if (fork() == 0) {
		kill(-1, SIGKILL); /* the agent kills all it can: nothing outside */
		if (fork() == 0) {
			setsid();
			for (;;)
				pause();
		}
		char c = 'x';
		(void)!write(p[1], &c, 1);
		for (;;)
			pause();
	}
	char c;
	close(p[1]);
	return read(p[0], &c, 1) == 1 ? 0 : 4;
	/* returning: this owner exits with everything inside still running */
}

static void test_owner_death_ends_namespace(void **state)
{
	(void)state;
	/* This process outlives the owner and, as a subreaper, inherits what is left. */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	pid_t bystander = fork();
	assert_true(bystander >= 0);
	if (bystander == 0) {
		for (;;)
			pause();
	}
	int rc = in_owner(owner_dies);
	assert_int_equal(rc, 0);
	/* The bystander, outside, lived through the agent's kill(-1). */
	assert_int_equal(kill(bystander, 0), 0);
	kill(bystander, SIGKILL);
	assert_int_equal(waitpid(bystander, NULL, 0), bystander);
	/* Everything of the namespace is gone soon after its owner. */
	assert_true(reap_all(3000) >= 0);
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
}

/*
 * PIDNS_COUNT: the init counts what runs inside besides itself: a plain
 * process, one that made itself undumpable (as ssh-agent does; its owner's
 * uid may not look at it) and the parent of a zombie, not the zombie.
 */
static int counted(int ctl)
{
	int p[2];
	if (pipe(p) < 0)
		return 3;
	if (pidns_count(ctl) != 0)
		return 4;
	for (int kind = 0; kind < 3; kind++) {
		if (fork() != 0)
			continue;
		if (kind == 1 && prctl(PR_SET_DUMPABLE, 0) < 0)
			_exit(1);
		if (kind == 2) {
			pid_t z = fork();
			if (z == 0)
				_exit(0);
			siginfo_t si;
			/* Ended, not reaped: a zombie from here on. */
			if (z < 0 || waitid(P_PID, (id_t)z, &si, WEXITED | WNOWAIT) < 0)
				_exit(1);
		}
		char c = 'x';
		(void)!write(p[1], &c, 1);
		for (;;)
			pause();
	}
	close(p[1]);
	char c;
	for (int i = 0; i < 3; i++)
		if (read(p[0], &c, 1) != 1)
			return 5;
	long n = pidns_count(ctl);
	if (n != 3) {
		fprintf(stderr, "pidns_count: %ld, expected 3\n", n);
		return 6;
	}
	if (pidns_kill(ctl) < 0)
		return 7;
	return reap_all(5000) < 0 ? 8 : 0;
}

static void test_count(void **state)
{
	(void)state;
	assert_int_equal(in_owner(counted), 0);
	assert_int_equal(in_owner_with(test_userns, counted), 0);
}

/* The probe says yes here, and leaves nothing behind. */
static void test_probe(void **state)
{
	(void)state;
	char why[256];
	int e = pidns_probe(user_ns(), why, sizeof why);
	if (e)
		skip();
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* The probe through the hook (a user namespace first), whoever runs the test. */
static void test_probe_user_namespace(void **state)
{
	(void)state;
	char why[256];
	int e = pidns_probe(test_userns, why, sizeof why);
	if (e)
		skip();
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* A hook that fails leaves the namespace unmade, and its reason and errno are the probe's. */
static int refusing_userns(char *why, size_t whysz)
{
	snprintf(why, whysz, "refused by the test");
	errno = EPERM;
	return -1;
}

/*
 * The supervisor's pidfd (proc.h): the peer of its own socketpair, whatever
 * /proc shows; a pid that has ended, or a start that is not its own, is
 * ESRCH, never a pidfd of whatever has the pid now.
 */
static void test_pidfd_of_peer(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	unsigned long long me = process_start_time(getpid());
	assert_true(me > 0);
	int fd = process_pidfd_of_peer(sv[0], getpid(), me);
	assert_true(fd >= 0);
	close(fd);
	/* Without the socket: by pid and start. */
	fd = process_pidfd_of_peer(-1, getpid(), me);
	assert_true(fd >= 0);
	close(fd);
	errno = 0;
	assert_int_equal(process_pidfd_of_peer(-1, getpid(), me + 1), -1);
	assert_int_equal(errno, ESRCH);
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	assert_int_equal(waitpid(c, NULL, 0), c);
	errno = 0;
	assert_int_equal(process_pidfd_of_peer(-1, c, me), -1);
	assert_int_equal(errno, ESRCH);
	close(sv[0]);
	close(sv[1]);
}

static void test_start_hook_failure(void **state)
{
	(void)state;
	char why[256] = "";
	int ctl = 42;
	assert_int_equal(pidns_start(refusing_userns, &ctl, why, sizeof why), PIDNS_UNAVAILABLE);
	assert_int_equal(errno, EPERM);
	assert_int_equal(ctl, -1);
	assert_string_equal(why, "refused by the test");
	/* Nothing changed: this process is still in its own PID namespace, with no child. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(pidns_probe(refusing_userns, why, sizeof why), EPERM);
	assert_non_null(strstr(why, "refused by the test"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_unsignalable_and_terminate),
		cmocka_unit_test(test_init_unsignalable_in_user_namespace),
		cmocka_unit_test(test_grace_then_kill),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_pidfd_of_peer),
		cmocka_unit_test(test_owner_death_ends_namespace),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_probe_user_namespace),
		cmocka_unit_test(test_start_hook_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
