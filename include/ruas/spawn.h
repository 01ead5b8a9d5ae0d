/* SPDX-License-Identifier: ISC */
/*
 * ruas/spawn.h - starting a project's agent as its run_as_user, through
 * sudo and the ruas-exec helper (or a PAM session, for a root supervisor),
 * with the target's login environment (docs/library.md "Spawn").
 */
#ifndef RUAS_SPAWN_H
#define RUAS_SPAWN_H

#include "audit.h"
#include "child.h"
#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The embedder's source of a run's credentials (docs/credentials.md):
 * asked, in the child's credential thread, for a name that no configured
 * source of the project has, once a process of the run asked for it. It
 * writes the value (one line, no NUL) into value, at most value_size - 1
 * bytes and a NUL, and returns its length; 0: it has no credential of
 * that name; -1: it has, but cannot give it now (the requester is told
 * that the source failed). It may run while other threads use the child
 * and the configuration, and must not free or wait for the child.
 */
typedef int (*ruas_credential_callback)(const char *project, const char *name, char *value,
					size_t value_size, void *payload);

/*
 * Version 2 added the descriptors, work_dir and set_env, version 3 pty,
 * version 4 pty_relay and a pty by default on a terminal, version 5 audit,
 * version 6 credential_callback.
 * A caller built against an older version keeps working as it did: the
 * library reads only the fields of the version it names.
 */
#define RUAS_SPAWN_OPTIONS_VERSION 6
typedef struct {
	unsigned int version;
	/* Where allowlisted values come from ("NAME=value", NULL-terminated); NULL: environ. */
	const char *const *env;
	/* The agent's stdio: a descriptor of the caller's, or -1 to inherit 0, 1, 2. */
	int stdin_fd;
	int stdout_fd;
	int stderr_fd;
	/* Where the agent starts: NULL for the project's work_dir, or a directory beneath it. */
	const char *work_dir;
	/* "NAME=value" for this spawn, each NAME allowlisted and given once; over env. */
	const char *const *set_env;
	/* RUAS_PTY_AUTO (the default), RUAS_PTY_NONE or RUAS_PTY_ALWAYS. */
	int pty;
	/* Version 4: RUAS_PTY_RELAY_LIBRARY (the default) or RUAS_PTY_RELAY_CALLER. */
	int pty_relay;
	/* Version 5: where this spawn's records go; NULL: syslog. Copied. */
	const ruas_audit_sink *audit;
	/*
	 * Version 6: the run's credentials beyond the configured ones (NULL:
	 * none), called with credential_payload. A project with run_as_user
	 * gets a credential socket when it has configured credentials or this.
	 */
	ruas_credential_callback credential_callback;
	void *credential_payload;
} ruas_spawn_options;
#define RUAS_PTY_NONE 0
#define RUAS_PTY_AUTO (-1)
#define RUAS_PTY_ALWAYS 1
#define RUAS_PTY_RELAY_LIBRARY 0
#define RUAS_PTY_RELAY_CALLER 1
#define RUAS_SPAWN_OPTIONS_INIT                                                             \
	{RUAS_DESIGNATED(version) RUAS_SPAWN_OPTIONS_VERSION, RUAS_DESIGNATED(env) NULL,     \
	 RUAS_DESIGNATED(stdin_fd) -1, RUAS_DESIGNATED(stdout_fd) -1,                        \
	 RUAS_DESIGNATED(stderr_fd) -1, RUAS_DESIGNATED(work_dir) NULL,                      \
	 RUAS_DESIGNATED(set_env) NULL, RUAS_DESIGNATED(pty) RUAS_PTY_AUTO,                  \
	 RUAS_DESIGNATED(pty_relay) RUAS_PTY_RELAY_LIBRARY, RUAS_DESIGNATED(audit) NULL,      \
	 RUAS_DESIGNATED(credential_callback) NULL, RUAS_DESIGNATED(credential_payload) NULL}
/* Version 3's defaults have pty RUAS_PTY_NONE, as that version's macro had. */
RUAS_EXTERN int ruas_spawn_options_init(ruas_spawn_options *opts, unsigned int version);

/*
 * Start the project's command with `args` (NULL-terminated, may be NULL)
 * appended (opts NULL: the defaults). Returns once the agent's exec has
 * succeeded or failed: a start that failed is RUAS_ERR_START, with
 * ruas_error_stage(), ruas_error_errno() and ruas_error_file(), and
 * nothing of the target left. Arguments the agent's exec would refuse are
 * RUAS_ERR_TOOLONG before anything starts. Run ruas_preflight() first:
 * spawn does not repeat the checks.
 */
RUAS_EXTERN int ruas_spawn(ruas_child **out, const ruas_config *cfg, const char *project,
			   const char *const *args, const ruas_spawn_options *opts,
			   ruas_error **err);

#ifdef __cplusplus
}
#endif
#endif
