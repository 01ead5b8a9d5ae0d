/* SPDX-License-Identifier: ISC */
/* leftovers.c - see leftovers.h. */
#include "leftovers.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

/* SIGKILL to each process whose parent is this one: how many there were. */
static int kill_children(void)
{
	pid_t self = getpid();
	int n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long v = strtol(e->d_name, &end, 10);
		if (*end || v <= 0 || v == self)
			continue;
		if (process_parent((pid_t)v) == self && kill((pid_t)v, SIGKILL) == 0)
			n++;
	}
	closedir(d);
	return n;
}

void leftovers_end(void)
{
	for (;;) {
		/* Reap what has ended; a killed init is reaped once its namespace is empty. */
		pid_t r;
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (r < 0 && errno == ECHILD)
			return; /* no child at all: the usual end, with nothing to look for */
		int killed = kill_children();
		pid_t w;
		while ((w = waitpid(-1, NULL, 0)) < 0 && errno == EINTR)
			;
		if (w < 0 && errno == ECHILD)
			return;
		if (w < 0 && !killed)
			return; /* nothing to kill, nothing to reap: no child is left */
	}
}
