/* SPDX-License-Identifier: ISC */
/* open_fails.c - see open_fails.h. */
#include "open_fails.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

const char *open_fails_path;
int open_fails_errno;

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (open_fails_path && strcmp(path, open_fails_path) == 0) {
		errno = open_fails_errno;
		return -1;
	}
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}
