/* SPDX-License-Identifier: ISC */
#include "reexec.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static _Noreturn void exec_self(char **argv, const char *who)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0 || (size_t)n >= sizeof self - 1) {
		fprintf(stderr, "%s: cannot read /proc/self/exe: %s\n", who,
			n < 0 ? strerror(errno) : "path too long");
		_exit(99);
	}
	self[n] = '\0';
	execv(self, argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", who, self, strerror(errno));
	_exit(99);
}

int rerun_self(char **argv, const char *who)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
		exit(99);
	}
	if (pid == 0)
		exec_self(argv, who);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "%s: waitpid: %s\n", who, strerror(errno));
			exit(99);
		}
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "%s: the test died of signal %d\n", who, WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return WEXITSTATUS(st);
}
