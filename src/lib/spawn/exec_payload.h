/* SPDX-License-Identifier: ISC */
/* exec_payload.h - what ruas-exec is told to run: the agent's argv and its exec payload. */
#ifndef RUAS_EXEC_PAYLOAD_H
#define RUAS_EXEC_PAYLOAD_H

#include <stddef.h>

#include "account.h"
#include "config/config_int.h"
#include "payload.h"
#include "people/deny_files.h"
#include "spawn/values.h"

/* The argv of the agent: the command, then args; the strings stay theirs. */
char **agent_argv(const struct ruas_project *p, const char *const *args, size_t *argc);

/*
 * The exec payload for project p run with args in env, with the per-spawn
 * values v (NULL: none) and x's deny files (all zero: none), for the
 * target's passwd entry acct (its name, shell and home: the helper reads
 * no user database). Points into its inputs, which must outlive it.
 * 0 or RUAS_ERR_NOMEM; either way exec_payload_free() ends it.
 */
int exec_payload_build(const struct ruas_config *cfg, const struct ruas_project *p,
		       const struct account *acct, const char *const *args,
		       const char *const *env, const struct spawn_values *v,
		       const struct deny_files *x, struct payload *pl);
void exec_payload_free(struct payload *pl);

#endif
