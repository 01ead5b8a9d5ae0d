/* strv.c - see strv.h. */
#include "strv.h"

#include <stdlib.h>

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
