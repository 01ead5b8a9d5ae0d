/* SPDX-License-Identifier: ISC */
/* strv.h - NULL-terminated vectors of malloc'd strings. */
#ifndef RUAS_STRV_H
#define RUAS_STRV_H

#include <stddef.h>

/*
 * Appends s to *v (n entries, kept NULL-terminated) and takes ownership of
 * it: on failure s is freed. A NULL s (a failed allocation upstream) fails.
 * 0, or -1 when out of memory.
 */
int strv_push(char ***v, size_t *n, char *s);

/* Is s one of the NULL-terminated v (NULL: none)? */
int strv_contains(const char *const *v, const char *s);

/* Frees a NULL-terminated vector and its strings; NULL is fine. */
void strv_free(char **v);

#endif
