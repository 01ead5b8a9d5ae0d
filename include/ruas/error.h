/* SPDX-License-Identifier: ISC */
/*
 * ruas/error.h - what went wrong: every call that can fail takes a
 * `ruas_error **err` last and, when it is not NULL, stores one there for
 * the caller to free with ruas_error_free(). docs/library.md "Conventions"
 * and "A start that failed" give the whole contract.
 */
#ifndef RUAS_ERROR_H
#define RUAS_ERROR_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a start failed (RUAS_ERR_START from ruas_spawn()); else RUAS_STAGE_NONE. */
typedef enum {
	RUAS_STAGE_NONE = 0,
	RUAS_STAGE_SUDO = 1,     /* sudo or PAM refused the switch to run_as_user: no rule, a
				    password required, an expired or locked account; or sudo
				    failed by itself or was killed first (the message says
				    which, never "refused" then), or its PAM session stack
				    stalled for 60 s (ETIMEDOUT) */
	RUAS_STAGE_WORK_DIR = 2, /* the working directory could not be entered */
	RUAS_STAGE_EXEC = 3,     /* the agent's exec failed (ENOENT, EACCES, ENOEXEC, E2BIG...) */
	RUAS_STAGE_LOGIN = 4,    /* the target's login shell or login files never ran the agent:
				    a nologin shell, a login file that exited, no start in 60 s */
	RUAS_STAGE_HELPER = 5    /* ruas's own helper could not set up the run */
} ruas_stage;

typedef struct ruas_error ruas_error;

RUAS_EXTERN ruas_code ruas_error_code(const ruas_error *err);
/* The full message, one line, naming the file, line, project and fix where known. */
RUAS_EXTERN const char *ruas_error_message(const ruas_error *err);
/*
 * The file the error is about, or NULL: the configuration file; for
 * RUAS_ERR_START the command (RUAS_STAGE_EXEC) or the directory (_WORK_DIR).
 */
RUAS_EXTERN const char *ruas_error_file(const ruas_error *err);
/* The line in that file, or 0 when libconfig gave none. */
RUAS_EXTERN int ruas_error_line(const ruas_error *err);
/*
 * The errno of the system call whose failure is the error: always for
 * RUAS_ERR_SYSTEM, for another code when a system call's failure is why
 * (docs/library.md lists them), else 0.
 */
RUAS_EXTERN int ruas_error_errno(const ruas_error *err);
/* For RUAS_ERR_START, where the start failed; else RUAS_STAGE_NONE. */
RUAS_EXTERN ruas_stage ruas_error_stage(const ruas_error *err);
RUAS_EXTERN void ruas_error_free(ruas_error *err);

#ifdef __cplusplus
}
#endif
#endif
