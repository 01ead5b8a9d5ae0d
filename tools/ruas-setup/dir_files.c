/* SPDX-License-Identifier: ISC */
/* dir_files.c - see dir_files.h. */
#include "dir_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void dir_remove_prefixed(int dfd, const char *prefix)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	size_t n = strlen(prefix);
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, n) == 0)
			unlinkat(dfd, e->d_name, 0);
	closedir(d);
}

int fd_write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}
