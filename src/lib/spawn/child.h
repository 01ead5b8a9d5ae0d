/* child.h - the child handle: ruas_spawn() fills it, child.c waits on it and frees it. */
#ifndef RUAS_SPAWN_CHILD_H
#define RUAS_SPAWN_CHILD_H

#include <pthread.h>
#include <sys/types.h>

#include "ruas.h"

struct ruas_child {
	pid_t pid;
	char *files; /* per-spawn directory of deny files, removed at free */
	pthread_mutex_t lock;
	int reaped;
	int exit_code;
};

#endif
