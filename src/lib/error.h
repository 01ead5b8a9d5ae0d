/* SPDX-License-Identifier: ISC */
/* error.h - building ruas_error values. */
#ifndef RUAS_ERROR_INT_H
#define RUAS_ERROR_INT_H

#include "ruas.h"

/*
 * Stores a new error in *err (when err is not NULL) and returns code, so
 * that callers can `return error_set(err, ...)`. Out of memory while
 * building the error still returns code, with a static error stored.
 */
int error_set(ruas_error **err, ruas_code code, const char *file, int line,
	      int errnum, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* error_set() of RUAS_ERR_START at stage (ruas_error_stage()), file NULL or what failed. */
int error_set_start(ruas_error **err, ruas_stage stage, const char *file, int errnum,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * The versioned-options rule of every entry point: NULL options, or a
 * version from oldest to newest, which the entry point then knows how to
 * read. Anything else is refused (RUAS_ERR_INVALID naming fn and the
 * version), since reading an unknown struct's fields would read garbage.
 * Returns 0 when the version is acceptable.
 */
int error_options_version(ruas_error **err, const char *fn, const unsigned int *version,
			  unsigned int oldest, unsigned int newest);

#endif
