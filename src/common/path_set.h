/* SPDX-License-Identifier: ISC */
/*
 * path_set.h - a set of tagged paths, for the anchor judges (the helper's
 * anchor_probe.c, the library's host/table.c) to remember what they have
 * judged: a hash set (open addressing, a power of two in size), as
 * thousands of links in the library and PATH trees share their directories.
 */
#ifndef RUAS_PATH_SET_H
#define RUAS_PATH_SET_H

#include <stddef.h>

struct path_set {
	char **slot; /* each entry the tag, then the path */
	size_t n, cap;
};

#define PATH_SET_INIT {NULL, 0, 0}

/* Is tag+path in the set? */
int path_set_has(const struct path_set *s, char tag, const char *path);
/* Adds tag+path; out of memory, it is not added (the caller judges it again later). */
void path_set_add(struct path_set *s, char tag, const char *path);
/* Was tag+path in the set? If not, adds it. */
int path_set_test_add(struct path_set *s, char tag, const char *path);
void path_set_free(struct path_set *s);

#endif
