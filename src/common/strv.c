/* SPDX-License-Identifier: ISC */
/* strv.c - see strv.h. */
#include "strv.h"

#include <stdlib.h>
#include <string.h>

int strv_push(char ***v, size_t *n, char *s)
{
	char **nv = s ? realloc(*v, (*n + 2) * sizeof *nv) : NULL;
	if (!nv) {
		free(s);
		return -1;
	}
	*v = nv;
	nv[(*n)++] = s;
	nv[*n] = NULL;
	return 0;
}

int strv_contains(const char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (strcmp(*v, s) == 0)
			return 1;
	return 0;
}

void strv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}
