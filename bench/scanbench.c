/* SPDX-License-Identifier: ISC */
/*
 * scanbench - the descendant scan on its own: walks DIR as the scan does
 * and prints entries, flagged paths, workers, handoffs, seconds and peak
 * RSS (KiB), so that memory can be compared between trees of different
 * sizes. -t N sets the workers (default: as ruas-exec, one per CPU, at
 * most SCAN_MAX_THREADS); -t 1 is the single-threaded walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "scan.h"

int main(int argc, char **argv)
{
	static const char *const prune[] = {".git", "node_modules", ".venv", "venv", "dist",
					    "build", "target", ".pytest_cache", "__pycache__",
					    NULL};
	struct scan_options o = {.prune = prune, .cap = 50};
	if (argc == 4 && strcmp(argv[1], "-t") == 0) {
		o.threads = (unsigned int)strtoul(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: scanbench [-t THREADS] DIR\n");
		return 2;
	}
	struct scan_result r;
	struct timespec a, b;
	struct rusage ru;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (scan_tree(argv[1], &o, &r) < 0) {
		perror(argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_SELF, &ru);
	printf("entries=%llu flagged=%llu threads=%u handoffs=%llu seconds=%.3f maxrss_kib=%ld\n",
	       r.entries, r.total, r.threads, r.handoffs,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	       ru.ru_maxrss);
	scan_result_free(&r);
	return 0;
}
