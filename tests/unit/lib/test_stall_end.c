/* SPDX-License-Identifier: ISC */
/*
 * test_stall_end.c - what a stalled start left is ended (issue 26, item
 * 10): stall_end() of a process finds its descendants (a grandchild too),
 * kills them, and kills the process; where one of them runs as the target
 * (the helper had started), the process is let go to end by itself once
 * they are gone, as sudo or ruas-session then closes its PAM session; and
 * what it killed is gone when it returns, however starved of CPU.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn/stall_end.h"

/*
 * A stand-in for sudo: forks a child, which forks a grandchild; each of
 * those sleeps. It says it is ready on `ready` once both exist, then waits
 * for its child and exits 7 when it is gone, as sudo ends with its command.
 */
/* The grandchild runs last on CPU 0 (SCHED_IDLE), where a busy loop runs: its exit waits. */
static int grandchild_starved;

static pid_t stand_in(pid_t *grandchild)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		pid_t c = fork();
		if (c == 0) {
			pid_t g = fork();
			if (g == 0) {
				if (grandchild_starved) {
					cpu_set_t one;
					CPU_ZERO(&one);
					CPU_SET(0, &one);
					struct sched_param sp = {0};
					if (sched_setaffinity(0, sizeof one, &one) < 0 ||
					    sched_setscheduler(0, SCHED_IDLE, &sp) < 0)
						_exit(1);
				}
				pause();
				_exit(0);
			}
			if (write(p[1], &g, sizeof g) != (ssize_t)sizeof g)
				_exit(1);
			waitpid(g, NULL, 0);
			_exit(0);
		}
		close(p[1]);
		waitpid(c, NULL, 0);
		_exit(7);
	}
	close(p[1]);
	assert_int_equal(read(p[0], grandchild, sizeof *grandchild), (ssize_t)sizeof *grandchild);
	close(p[0]);
	return pid;
}

/* pid runs (its /proc state is neither zombie nor dead). */
static int running(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X';
}

static void test_descendants_and_the_process_are_killed(void **state)
{
	(void)state;
	pid_t g;
	pid_t pid = stand_in(&g);
	struct stall st;
	stall_end(pid, (uid_t)-2, &st); /* no descendant of another uid's: none "the target" */
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(st.target_ran, 0);
	assert_int_equal(st.denied, 0);
	assert_int_equal(st.kept, 0);
	/* The grandchild was killed too: gone, or a zombie its new parent has yet to reap. */
	for (int i = 0; i < 500 && running(g); i++) {
		struct timespec ts = {0, 10 * 1000000L};
		nanosleep(&ts, NULL);
	}
	if (running(g))
		fail_msg("the grandchild %d still runs", (int)g);
}

/*
 * Ended means gone when stall_end() returns (the spawn then says "sudo was
 * ended"), not a SIGKILL still on its way, however loaded the machine: the
 * grandchild is starved of CPU (SCHED_IDLE on a CPU where a busy loop
 * runs), so its exit comes late, and must have come before the return.
 */
static void test_killed_are_gone_on_return(void **state)
{
	(void)state;
	pid_t busy = fork();
	assert_true(busy >= 0);
	if (busy == 0) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		if (sched_setaffinity(0, sizeof one, &one) < 0)
			_exit(1);
		for (;;)
			;
	}
	pid_t g;
	grandchild_starved = 1;
	pid_t pid = stand_in(&g);
	grandchild_starved = 0;
	struct stall st;
	stall_end(pid, (uid_t)-2, &st);
	int still = running(g);
	kill(busy, SIGKILL);
	assert_int_equal(waitpid(busy, NULL, 0), busy);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	if (still)
		fail_msg("the grandchild %d still ran as stall_end() returned", (int)g);
	assert_int_equal(st.unseen, 0);
}

static void test_a_target_of_its_own_lets_it_end(void **state)
{
	(void)state;
	pid_t g;
	pid_t pid = stand_in(&g);
	struct stall st;
	stall_end(pid, getuid(), &st); /* its descendants run as "the target" */
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(st.target_ran, 1);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 7)
		fail_msg("the process did not end by itself once its descendants were gone");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descendants_and_the_process_are_killed),
		cmocka_unit_test(test_killed_are_gone_on_return),
		cmocka_unit_test(test_a_target_of_its_own_lets_it_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
