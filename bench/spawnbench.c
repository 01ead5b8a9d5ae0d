/*
 * spawnbench - ruas_spawn() and wait, N times, of one project: the cost of
 * a spawn alone, without the startup checks. Prints the median in ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ruas.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	ruas_config *cfg;
	ruas_error *err = NULL;
	if (argc != 4) {
		fprintf(stderr, "usage: spawnbench CONFIG PROJECT N\n");
		return 2;
	}
	int n = atoi(argv[3]);
	if (n < 1 || n > 10000 || ruas_config_load(&cfg, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "spawnbench: %s\n", err ? ruas_error_message(err) : "bad N");
		return 2;
	}
	double *ms = calloc((size_t)n, sizeof *ms);
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		ruas_child *c;
		int code;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (ruas_spawn(&c, cfg, argv[2], NULL, NULL, &err) < 0 ||
		    ruas_child_wait(c, &code, &err) < 0) {
			fprintf(stderr, "spawnbench: %s\n", ruas_error_message(err));
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		ruas_child_free(c);
		ms[i] = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	}
	qsort(ms, (size_t)n, sizeof *ms, cmp);
	printf("%.2f\n", ms[n / 2]);
	free(ms);
	ruas_config_free(cfg);
	return 0;
}
