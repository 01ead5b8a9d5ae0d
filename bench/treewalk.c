/* SPDX-License-Identifier: ISC */
/*
 * treewalk - the floor for the walk of the host's trees: one thread per
 * CPU (at most 8) takes directories from one shared stack, reads each and
 * lstats every entry (fstatat), and pushes the subdirectories, as
 * src/lib/host/walk.c does, with nothing else: no ACLs, no kept entries, no
 * mount table, no roots from ld.so.conf. bench/run compares a cold
 * `ruas check` against it on the same roots (given as arguments).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static char **stack;
static size_t n, cap;
static unsigned int busy;
static unsigned long long entries;

static void push(char *p)
{
	if (n == cap) {
		cap = cap ? 2 * cap : 1024;
		stack = realloc(stack, cap * sizeof *stack);
		if (!stack)
			abort();
	}
	stack[n++] = p;
}

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (!n && busy)
			pthread_cond_wait(&cv, &mu);
		if (!n) {
			pthread_cond_broadcast(&cv);
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		char *dir = stack[--n];
		busy++;
		pthread_mutex_unlock(&mu);
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = fd < 0 ? NULL : fdopendir(fd);
		struct dirent *e;
		unsigned long long seen = 0;
		while (d && (e = readdir(d))) {
			struct stat st;
			if (e->d_name[0] == '.' &&
			    (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
				continue;
			seen++;
			if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
				continue;
			char *p;
			if (asprintf(&p, "%s/%s", dir, e->d_name) < 0)
				abort();
			pthread_mutex_lock(&mu);
			push(p);
			pthread_cond_signal(&cv);
			pthread_mutex_unlock(&mu);
		}
		if (d)
			closedir(d);
		else if (fd >= 0)
			close(fd);
		free(dir);
		pthread_mutex_lock(&mu);
		busy--;
		entries += seen;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	unsigned int nt = 1;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		nt = (unsigned int)CPU_COUNT(&set);
	if (nt > 8)
		nt = 8;
	for (int i = 1; i < argc; i++) {
		char *p = strdup(argv[i]);
		if (!p)
			abort();
		push(p);
	}
	pthread_t th[8];
	for (unsigned int i = 0; i < nt; i++)
		if (pthread_create(&th[i], NULL, worker, NULL) != 0)
			abort();
	for (unsigned int i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	printf("%llu entries, %u threads\n", entries, nt);
	free(stack);
	return 0;
}
