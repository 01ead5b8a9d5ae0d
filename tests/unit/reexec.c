#include "reexec.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void reexec_self(char **argv, const char *who)
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
