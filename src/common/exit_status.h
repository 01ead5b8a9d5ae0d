/* SPDX-License-Identifier: ISC */
/*
 * exit_status.h - a wait status as one number, the way shells and env(1)
 * report it: the exit code, or 128 + the signal that killed the process.
 * Header-only: the library, both helpers and ruas-setup use it.
 */
#ifndef RUAS_EXIT_STATUS_H
#define RUAS_EXIT_STATUS_H

#include <sys/wait.h>

/* env(1)'s codes, which both helpers use: the helper itself failed. */
#define EXIT_HELPER 125

/* -1 for a status that is neither (stopped or continued: never waited for here). */
static inline int exit_status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

#endif
