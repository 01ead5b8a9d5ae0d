/* SPDX-License-Identifier: ISC */
/* envfilter.c - see envfilter.h. */
#include "spawn/envfilter.h"

#include <string.h>

size_t env_filter(const char *const *env, const char *const *allowlist,
		  const char **names, const char **values)
{
	size_t n = 0;
	for (; allowlist && *allowlist; allowlist++) {
		size_t len = strlen(*allowlist);
		for (const char *const *e = env; e && *e; e++) {
			if (strncmp(*e, *allowlist, len) == 0 && (*e)[len] == '=') {
				names[n] = *allowlist;
				values[n] = *e + len + 1;
				n++;
				break;
			}
		}
	}
	return n;
}
