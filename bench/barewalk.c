/* SPDX-License-Identifier: ISC */
/*
 * barewalk - the floor for one thread: walks DIR with the scan's syscalls
 * (open, getdents64 through readdir, one faccessat per entry, openat with
 * O_NOFOLLOW|O_DIRECTORY per directory, fstatat only for a refused entry)
 * and nothing else: no heap of paths, no owner names, no path buffer, no
 * time budget, no threads. bench/run compares ruas's scan (bench/scanbench)
 * against it, so the ratio shows what the parallel walk buys over the best
 * a single thread can do.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const prune[] = {".git", "node_modules", ".venv", "venv", "dist",
				    "build", "target", ".pytest_cache", "__pycache__", NULL};
static unsigned long long entries, flagged;

static int pruned(const char *n)
{
	for (const char *const *p = prune; *p; p++)
		if (strcmp(*p, n) == 0)
			return 1;
	return 0;
}

static void walk(int dfd, unsigned int depth) /* NOLINT(misc-no-recursion): depth <= 256 */
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		struct stat st;
		if ((n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'))) || pruned(n))
			continue;
		entries++;
		unsigned char t = e->d_type;
		if (t == DT_UNKNOWN) {
			if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			t = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
		}
		if (t == DT_LNK)
			continue;
		int mode = R_OK | (t == DT_DIR ? X_OK : W_OK);
		if (faccessat(dirfd(d), n, mode, AT_SYMLINK_NOFOLLOW) != 0) {
			flagged++;
			(void)fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW);
			continue;
		}
		if (t != DT_DIR || depth >= 256)
			continue;
		int c = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (c >= 0)
			walk(c, depth + 1);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	if (argc != 2) {
		fprintf(stderr, "usage: barewalk DIR\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	int fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	walk(fd, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("entries=%llu flagged=%llu seconds=%.3f\n", entries, flagged,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
