/* SPDX-License-Identifier: ISC */
/* fixture.h - file-system helpers that several unit tests share. */
#ifndef RUAS_TEST_FIXTURE_H
#define RUAS_TEST_FIXTURE_H

#include <sys/types.h>

/* Removes path and everything below it, making directories writable first. */
void rm_rf(const char *path);

/* Creates or truncates path with text, then sets mode; fails the test otherwise. */
void write_file(const char *path, const char *text, mode_t mode);

/* The contents of the file at path, malloc'd ("" when empty); fails the test otherwise. */
char *read_whole_file(const char *path);

/*
 * The contents of a file of the source tree, by its path under
 * $abs_top_srcdir (which make check sets), malloc'd; fails the test otherwise.
 */
char *read_source_file(const char *rel);

#endif
