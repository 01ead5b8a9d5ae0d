/* SPDX-License-Identifier: ISC */
/*
 * exec_limits.h - what the agent's exec will take, checked before anything
 * starts, so that an argument list the kernel would refuse is the spawn's
 * RUAS_ERR_TOOLONG and not a start that fails with E2BIG.
 *
 * Linux refuses one string (an argument or a NAME=value) of more than
 * MAX_ARG_STRLEN bytes (32 pages, with its NUL), and argv and the
 * environment together (their strings and pointers) beyond a quarter of
 * the stack limit: 2 MiB with the usual 8 MiB. The target's stack limit is
 * its login's (pam_limits), which the supervisor cannot see: the library
 * holds the whole to EXEC_TOTAL_MAX, less EXEC_LOGIN_ENV_RESERVE for what
 * the login environment adds. Without run_as_user the command inherits
 * this process's stack limit, and sysconf(_SC_ARG_MAX) is the whole. An
 * exec that still fails (a smaller stack limit of the target's) is the
 * start's failure at RUAS_STAGE_EXEC with E2BIG.
 */
#ifndef RUAS_SPAWN_EXEC_LIMITS_H
#define RUAS_SPAWN_EXEC_LIMITS_H

#include <stddef.h>

#include "config/config_int.h"
#include "error.h"

#define EXEC_STRING_MAX ((size_t)32 * 4096) /* MAX_ARG_STRLEN, with the NUL */
#define EXEC_TOTAL_MAX (2u << 20)
#define EXEC_LOGIN_ENV_RESERVE (64u << 10)

/*
 * argv (argc strings) and the variables set for the agent (names[i] =
 * values[i], n of them; a "NAME=value" vector when values is NULL): 0 when
 * they fit, else RUAS_ERR_TOOLONG with *err naming project p, which
 * string and the limit. login_env: whether a login environment comes on top.
 */
int exec_limits_check(const struct ruas_project *p, char *const *argv, size_t argc,
		      char *const *names, char *const *values, size_t n, int login_env,
		      ruas_error **err);

#endif
