/*
 * stall_end.c - see stall_end.h. A pid's descendants are found by their
 * parent on /proc, which only holds while each parent lives: so each is
 * stopped as soon as it is found, before anything is killed, and the walk
 * repeats until it finds nothing new. What escaped by a double fork before
 * the stop is not found; PAM modules wait for their children, so a stalled
 * stack's own are there.
 */
#include "spawn/stall_end.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include "proc.h"

#define STALL_MAX 256 /* descendants followed at most */

static int known(const pid_t *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == pid)
			return 1;
	return 0;
}

/* One walk of /proc: children of v[0..*n) not yet in v, stopped and added. 1: found some. */
static int walk(pid_t *v, size_t *n)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	int found = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && *n < STALL_MAX) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);
		pid_t parent = process_parent(pid);
		if (pid <= 1 || parent <= 0 || !known(v, *n, parent) || known(v, *n, pid))
			continue;
		kill(pid, SIGSTOP);
		v[(*n)++] = pid;
		found = 1;
	}
	closedir(d);
	return found;
}

int stall_end(pid_t pid)
{
	pid_t v[STALL_MAX];
	size_t n = 1;
	int denied = 0;
	v[0] = pid;
	kill(pid, SIGSTOP);
	for (int pass = 0; pass < 16 && walk(v, &n); pass++)
		;
	for (size_t i = n; i-- > 1;)
		if (kill(v[i], SIGKILL) < 0 && errno == EPERM)
			denied++;
	kill(pid, SIGKILL);
	return denied;
}
