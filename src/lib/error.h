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

#endif
