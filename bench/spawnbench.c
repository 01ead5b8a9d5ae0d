/* SPDX-License-Identifier: ISC */
/*
 * spawnbench - ruas_spawn() and wait, N times, of one project: the cost of
 * a spawn alone, without the startup checks. Prints the median in ms. With
 * `-- CMD...`, each round also runs CMD (posix_spawnp and waitpid, what a
 * supervisor without ruas does), interleaved, and prints both medians: the
 * baseline first, so that both sides pay the same harness. `-- @OTHER`
 * makes the baseline a ruas_spawn() of project OTHER of the same
 * configuration (a spawn without the limits PROJECT has, say).
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "ruas.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

extern char **environ;

static double since_ms(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

/* One ruas_spawn() and wait of project; its wall time in ms, or -1 (said on stderr). */
static double run_project(const ruas_config *cfg, const char *project)
{
	struct timespec a;
	ruas_child *c;
	ruas_error *err = NULL;
	int code;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (ruas_spawn(&c, cfg, project, NULL, NULL, &err) < 0 ||
	    ruas_child_wait(c, &code, &err) < 0) {
		fprintf(stderr, "spawnbench: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return -1;
	}
	double ms = since_ms(&a);
	ruas_child_free(c);
	return ms;
}

/* One run of the baseline command (or @PROJECT of cfg); its wall time in ms, or -1. */
static double run_baseline(const ruas_config *cfg, char **cmd)
{
	struct timespec a;
	pid_t pid;
	int status;
	if (cmd[0][0] == '@')
		return run_project(cfg, cmd[0] + 1);
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (posix_spawnp(&pid, cmd[0], NULL, NULL, cmd, environ) != 0 ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return since_ms(&a);
}

int main(int argc, char **argv)
{
	ruas_config *cfg;
	ruas_error *err = NULL;
	char **cmd = NULL;
	if (argc > 5 && strcmp(argv[4], "--") == 0)
		cmd = argv + 5;
	else if (argc != 4) {
		fprintf(stderr, "usage: spawnbench CONFIG PROJECT N [-- CMD...]\n");
		return 2;
	}
	int n = atoi(argv[3]);
	if (n < 1 || n > 10000 || ruas_config_load(&cfg, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "spawnbench: %s\n", err ? ruas_error_message(err) : "bad N");
		return 2;
	}
	double *ms = calloc((size_t)n, sizeof *ms), *base = calloc((size_t)n, sizeof *base);
	if (!ms || !base)
		return 2;
	for (int i = 0; i < n; i++) {
		if (cmd && (base[i] = run_baseline(cfg, cmd)) < 0) {
			fprintf(stderr, "spawnbench: %s failed\n", cmd[0]);
			return 1;
		}
		if ((ms[i] = run_project(cfg, argv[2])) < 0)
			return 1;
	}
	qsort(ms, (size_t)n, sizeof *ms, cmp);
	qsort(base, (size_t)n, sizeof *base, cmp);
	if (cmd)
		printf("%.2f ", base[n / 2]);
	printf("%.2f\n", ms[n / 2]);
	free(ms);
	free(base);
	ruas_config_free(cfg);
	return 0;
}
