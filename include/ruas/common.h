/* SPDX-License-Identifier: ISC */
/*
 * ruas/common.h - what every part of the API shares: the export marker,
 * the version, the return codes and the release of what the library
 * allocates. Included by every other ruas/ header; include <ruas.h>.
 */
#ifndef RUAS_COMMON_H
#define RUAS_COMMON_H

#include <stddef.h>
#include <sys/types.h>

#if defined(__GNUC__) && defined(RUAS_BUILDING_LIBRARY)
#define RUAS_EXTERN __attribute__((visibility("default")))
#else
#define RUAS_EXTERN
#endif

#define RUAS_VERSION "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes: 0, or one of these (docs/library.md "Conventions"). */
typedef enum {
	RUAS_OK = 0,
	RUAS_ERR_CONFIG = -1,   /* configuration refused: syntax, keys, values */
	RUAS_ERR_NOTFOUND = -2, /* no such project */
	RUAS_ERR_SYSTEM = -3,   /* a system call failed; see the message */
	RUAS_ERR_INVALID = -4,  /* invalid argument from the caller */
	RUAS_ERR_NOMEM = -5,    /* out of memory */
	RUAS_ERR_TOOLONG = -6,  /* arguments too long for the agent's exec */
	RUAS_ERR_ESCAPE = -7,   /* a path leaves the directory it must stay in */
	RUAS_ERR_START = -8     /* the agent did not start: see ruas_error_stage() */
} ruas_code;

/* Frees a string the library returned (ruas_sudoers_fragment(), ...). */
RUAS_EXTERN void ruas_free(void *p);
/* Frees a NULL-terminated vector the library returned (ruas_deny_list()). */
RUAS_EXTERN void ruas_strv_free(char **v);

#ifdef __cplusplus
}
#endif

/*
 * RUAS_DESIGNATED(f): ".f =" where the compiler takes designated
 * initializers (C99 and later, C++20 and later); nothing elsewhere (C89,
 * C++ before C++20), where the _INIT macros then fill by position, in the
 * same order, as they always did.
 */
#if defined(__cplusplus) ? __cplusplus >= 202002L                                          \
			 : defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define RUAS_DESIGNATED(f) .f =
#else
#define RUAS_DESIGNATED(f)
#endif

#endif
