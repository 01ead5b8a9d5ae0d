/* SPDX-License-Identifier: ISC */
/*
 * nofilespawn.c - a supervisor at a low descriptor limit that starts many
 * agents at once (issue 26, item 10): running out of descriptors is an
 * error naming the limit, never a retry loop, never sudo's or the target's
 * login files' fault, and leaves nothing behind.
 *
 *   nofilespawn CONF PROJECT USER NOFILE THREADS
 *
 * sets RLIMIT_NOFILE to NOFILE, then spawns PROJECT from THREADS threads at
 * once (stdio /dev/null, no pty). Once every thread has its answer, each
 * kills the agent it started (SIGKILL of the tree), waits for it and frees
 * it. Then it checks:
 *   - every spawn ran, or failed with an error naming the descriptor limit
 *     (EMFILE, RLIMIT_NOFILE) that is not at the sudo or login stage and
 *     blames neither sudo nor a login file;
 *   - the CPU time this process used is far below a busy loop's (10 s);
 *   - no process of USER is left (waited for, bounded) and this process
 *     has no zombie child.
 * It prints "spawned=N failed=M cpu_ms=C wall_ms=W" and one "error ..."
 * line per failure, "FAIL: ..." per failed check; exits 0, 1 or 2 as
 * consumer.h says.
 */
#define _GNU_SOURCE
#include "consumer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_THREADS 64

static ruas_config *cfg;
static const char *project;
static int null_fd;
static pthread_barrier_t answered;

struct one {
	pthread_t tid;
	int r;
	ruas_stage stage;
	int errnum;
	char *message;
	int exit_code;
};

/* What in a message would send an operator to sudo's rules or the target's files. */
static const char *const blames[] = {"login file", "refused", "NOPASSWD", "passwordless",
				     "password is required", "PAM", NULL};

static void *spawn_one(void *arg)
{
	struct one *o = arg;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	ruas_spawn_options so = RUAS_SPAWN_OPTIONS_INIT;
	so.stdin_fd = so.stdout_fd = so.stderr_fd = null_fd;
	so.pty = RUAS_PTY_NONE;
	o->r = ruas_spawn(&c, cfg, project, NULL, &so, &err);
	if (o->r < 0) {
		o->stage = ruas_error_stage(err);
		o->errnum = ruas_error_errno(err);
		o->message = strdup(ruas_error_message(err));
		ruas_error_free(err);
	}
	/* Every run is up (or refused) before any ends: the descriptors are all in use at once. */
	pthread_barrier_wait(&answered);
	if (o->r < 0)
		return NULL;
	if (ruas_child_signal(c, SIGKILL, &err) < 0) {
		o->message = strdup(ruas_error_message(err));
		ruas_error_free(err);
	}
	if (ruas_child_wait(c, &o->exit_code, &err) < 0) {
		o->exit_code = 1000;
		ruas_error_free(err);
	}
	ruas_child_free(c);
	return NULL;
}

static void judge(const struct one *o, int i)
{
	if (o->r == 0) {
		if (o->message)
			fail("spawn %d ran, but its kill failed: %s", i, o->message);
		return;
	}
	printf("error code=%d stage=%d errno=%d message=%s\n", o->r, (int)o->stage, o->errnum,
	       o->message ? o->message : "");
	if (!o->message)
		return fail("spawn %d failed without a message", i);
	if (o->errnum != EMFILE && !strstr(o->message, "RLIMIT_NOFILE"))
		fail("spawn %d: the error names neither EMFILE nor RLIMIT_NOFILE", i);
	if (o->stage == RUAS_STAGE_SUDO || o->stage == RUAS_STAGE_LOGIN)
		fail("spawn %d: the error is at stage %d (sudo or login)", i, (int)o->stage);
	for (int k = 0; blames[k]; k++)
		if (strstr(o->message, blames[k]))
			fail("spawn %d: the error blames what it did not see (\"%s\")", i, blames[k]);
}

/* Up to 10 s for the target's last process to go (a kill's end reaches them in turn). */
static int target_left(uid_t uid)
{
	long long until = now_ms() + 10000;
	int n;
	while ((n = processes_of(uid)) > 0 && now_ms() < until) {
		struct timespec t = {0, 50 * 1000 * 1000};
		nanosleep(&t, NULL);
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: nofilespawn CONF PROJECT USER NOFILE THREADS\n");
		return 2;
	}
	int threads = atoi(argv[5]);
	struct rlimit rl = {(rlim_t)atoi(argv[4]), (rlim_t)atoi(argv[4])};
	if (threads < 1 || threads > MAX_THREADS || setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("nofilespawn: THREADS or the limit", NULL);
	project = argv[2];
	uid_t uid = user_uid(argv[3]);
	cfg = load_config(argv[1]);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0 || pthread_barrier_init(&answered, NULL, (unsigned)threads) != 0)
		die("nofilespawn: /dev/null or the barrier", NULL);
	static struct one runs[MAX_THREADS];
	long long t0 = now_ms();
	for (int i = 0; i < threads; i++)
		if (pthread_create(&runs[i].tid, NULL, spawn_one, &runs[i]) != 0)
			die("nofilespawn: pthread_create", NULL);
	int ran = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(runs[i].tid, NULL);
		ran += runs[i].r == 0;
	}
	long long wall = now_ms() - t0;
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		die("nofilespawn: getrusage", NULL);
	long long cpu = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	printf("spawned=%d failed=%d cpu_ms=%lld wall_ms=%lld\n", ran, threads - ran, cpu, wall);
	for (int i = 0; i < threads; i++)
		judge(&runs[i], i);
	if (cpu >= 10000)
		fail("%lld ms of CPU in %lld ms: a busy loop", cpu, wall);
	int zombies, kids = children(&zombies);
	if (kids)
		fail("%d child(ren) of the supervisor left, %d of them zombies", kids, zombies);
	if (target_left(uid)) {
		fail("processes of %s are left", argv[3]);
		show_processes_of(uid);
	}
	ruas_config_free(cfg);
	return finish();
}
