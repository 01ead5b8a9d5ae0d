/* SPDX-License-Identifier: ISC */
/*
 * ruas/people.h - people on one instance: each person's deny list, the OS
 * audit of what their users can really read, and containment of paths in
 * a person's scope (docs/run-as-user.md, docs/library.md).
 */
#ifndef RUAS_PEOPLE_H
#define RUAS_PEOPLE_H

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Person `person`'s deny list, computed now from the real filesystem: the
 * credentials root, every other person's scope and their Claude projects.
 * *paths and *warnings (may be NULL) are freed with ruas_strv_free().
 */
RUAS_EXTERN int ruas_deny_list(char ***paths, char ***warnings, const ruas_config *cfg,
			       const char *person, ruas_error **err);
/* The same as a Claude Code settings object (JSON); free *json with ruas_free(). */
RUAS_EXTERN int ruas_deny_claude_settings(char **json, const ruas_config *cfg,
					  const char *person, ruas_error **err);
/*
 * As each person's run_as_user, try every path of their deny list and the
 * supervisor's secrets: a warning per path the OS lets through. No items
 * means the OS enforces everything.
 */
RUAS_EXTERN int ruas_audit(ruas_report **out, const ruas_config *cfg,
			   const ruas_preflight_options *opts, ruas_error **err);
/*
 * 0 when absolute `path` resolves inside absolute `root`, component by
 * component in the kernel; RUAS_ERR_ESCAPE for "..", a symlink out or an
 * absolute symlink. With fd non-NULL, *fd is an O_PATH descriptor of it:
 * use it, not the name.
 */
RUAS_EXTERN int ruas_path_resolve_beneath(const char *root, const char *path, int *fd,
					  ruas_error **err);

#ifdef __cplusplus
}
#endif
#endif
