/* SPDX-License-Identifier: ISC */
/*
 * ruas/provision.h - for tools that provision hosts (ruas-setup): user
 * names sudoers reads as one user, the group table, the sudoers fragment,
 * and the checks of target users alone (docs/library.md "Groups").
 */
#ifndef RUAS_PROVISION_H
#define RUAS_PROVISION_H

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NULL when `name` is a plain user name (^[a-z_][a-z0-9_-]*$, at most 32 bytes); else why not. */
RUAS_EXTERN const char *ruas_user_name_problem(const char *name);
/*
 * What membership of a target in a group means (check "groups"): FATAL for
 * gid 0 and groups that give root, WARNING for groups that read secrets or
 * give root with a password, NONE otherwise; *why a static sentence.
 */
RUAS_EXTERN ruas_severity ruas_group_risk(const char *name, unsigned long gid,
					  const char **why);
/* Entry `index` of that table; RUAS_ERR_NOTFOUND past the last (gid 0 is no entry). */
RUAS_EXTERN int ruas_group_risk_at(size_t index, const char **name, ruas_severity *severity,
				   const char **why);
/*
 * The sudoers fragment that lets `supervisor` run commands as each of
 * `targets` without a password, and nothing more; names that are not plain
 * user names, root and uid 0 are RUAS_ERR_INVALID. Free *out with ruas_free().
 */
RUAS_EXTERN int ruas_sudoers_fragment(char **out, const char *supervisor,
				      const char *const *targets, ruas_error **err);

/* Version 2 added sudo_allowed; version 1 is still accepted. */
#define RUAS_TARGET_OPTIONS_VERSION 2
typedef struct {
	unsigned int version;
	/* Also check that this user has passwordless sudo to each target (root or that user). */
	const char *supervisor;
	const char *sudo;   /* NULL: the configured default */
	const char *helper; /* NULL: the installed ruas-exec */
	unsigned int max_parallel;
	/* Version 2: commands the targets may run as another user without a password (warnings). */
	const char *const *sudo_allowed;
} ruas_target_options;
#define RUAS_TARGET_OPTIONS_INIT                                                           \
	{RUAS_DESIGNATED(version) RUAS_TARGET_OPTIONS_VERSION,                              \
	 RUAS_DESIGNATED(supervisor) NULL, RUAS_DESIGNATED(sudo) NULL,                      \
	 RUAS_DESIGNATED(helper) NULL, RUAS_DESIGNATED(max_parallel) 0,                     \
	 RUAS_DESIGNATED(sudo_allowed) NULL}
RUAS_EXTERN int ruas_target_options_init(ruas_target_options *opts, unsigned int version);

/*
 * The checks that depend on target users alone, the code ruas_preflight()
 * runs: one report entry per target.
 */
RUAS_EXTERN int ruas_check_targets(ruas_report **out, const char *const *targets,
				   const ruas_target_options *opts, ruas_error **err);

#ifdef __cplusplus
}
#endif
#endif
