/* SPDX-License-Identifier: ISC */
/* helper_file.c - see helper_file.h. */
#include "helper_file.h"

#include <sys/stat.h>

int helper_readable(const char *path, unsigned int *mode)
{
	struct stat st;
	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	*mode = (unsigned int)(st.st_mode & 07777);
	return (st.st_mode & (S_IRGRP | S_IROTH)) != 0;
}
