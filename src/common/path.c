/* SPDX-License-Identifier: ISC */
/* path.c - see path.h. */
#include "path.h"

#include <string.h>

#include "buf.h"

char *path_join(const char *dir, const char *name)
{
	struct buf b = BUF_INIT;
	size_t n = strlen(dir);
	buf_add(&b, dir, n);
	if (n == 0 || dir[n - 1] != '/')
		buf_addc(&b, '/');
	buf_adds(&b, name);
	return buf_detach(&b);
}
