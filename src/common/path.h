/* SPDX-License-Identifier: ISC */
/* path.h - joining a directory and a name. */
#ifndef RUAS_PATH_H
#define RUAS_PATH_H

/*
 * dir, one '/', name, malloc'd: no second '/' when dir already ends in one.
 * NULL when out of memory.
 */
char *path_join(const char *dir, const char *name);

#endif
