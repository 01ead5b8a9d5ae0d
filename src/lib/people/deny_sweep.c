/* SPDX-License-Identifier: ISC */
/* deny_sweep.c - see deny_sweep.h. */
#include "people/deny_sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "people/deny_files.h"
#include "proc.h"

#define PREFIX "ruas-deny-"

/* The inode of this process's PID namespace, 0 when it cannot be read. */
static unsigned long long pidns_ino(void)
{
	struct stat st;
	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

int deny_dir_template(char *buf, size_t n)
{
	pid_t me = getpid();
	int w = snprintf(buf, n, "/tmp/" PREFIX "%llu.%ld.%llu-XXXXXX", pidns_ino(), (long)me,
			 process_start_time(me));
	return w > 0 && (size_t)w < n ? 0 : -1;
}

/* One decimal number of name at *p, ending at the character stop: 0 with *out, or -1. */
static int number(const char **p, char stop, unsigned long long *out)
{
	const char *s = *p;
	char *end = NULL;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || *end != stop)
		return -1;
	*p = end + 1;
	return 0;
}

/* Whether name (an entry of /tmp) is a deny directory of a dead supervisor of ours. */
static int orphaned(int tmp, const char *name, unsigned long long ns)
{
	unsigned long long its_ns, pid, start;
	const char *p = name + sizeof PREFIX - 1;
	if (number(&p, '.', &its_ns) < 0 || number(&p, '.', &pid) < 0 ||
	    number(&p, '-', &start) < 0 || strlen(p) != 6 || its_ns != ns || ns == 0 || pid == 0 ||
	    pid > INT_MAX)
		return 0;
	struct stat st;
	if (fstatat(tmp, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return 0;
	/* 0 when it is gone; another start time when the pid is another process's now. */
	return process_start_time((pid_t)pid) != start;
}

int deny_files_sweep(void)
{
	unsigned long long ns = pidns_ino();
	int tmp = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = tmp >= 0 ? fdopendir(tmp) : NULL;
	int removed = 0;
	if (!d) {
		if (tmp >= 0)
			close(tmp);
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, PREFIX, sizeof PREFIX - 1) != 0 || !orphaned(tmp, e->d_name, ns))
			continue;
		char path[300];
		if (snprintf(path, sizeof path, "/tmp/%s", e->d_name) >= (int)sizeof path)
			continue;
		/* Ours, in sticky /tmp: nobody else can rename it away meanwhile. */
		deny_files_remove(path);
		removed++;
	}
	closedir(d);
	return removed;
}
