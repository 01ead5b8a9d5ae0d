/* SPDX-License-Identifier: ISC */
/* preflight.h - the entry points of the checks, with the sudo runner injectable for tests. */
#ifndef RUAS_PREFLIGHT_H
#define RUAS_PREFLIGHT_H

#include "ruas.h"
#include "check/engine.h"
#include "check/runner.h"

/* ruas_preflight_options' fresh_host and reuse_verdict (version 3), as flags. */
enum { PREFLIGHT_FRESH_HOST = 1, PREFLIGHT_REUSE_VERDICT = 2 };

/* ruas_preflight() with the runner injected (preflight.c); flags: PREFLIGHT_*. */
int preflight_run(ruas_report **out, const ruas_config *cfg,
		  unsigned int max_parallel, unsigned int flags, const struct runner *runner,
		  ruas_error **err);

/* ruas_check_targets() with the runner injected (targets.c). */
int targets_run(ruas_report **out, const char *const *targets,
		const ruas_target_options *o, const struct runner *runner,
		ruas_error **err);

/* ruas_audit() with the runner injected (audit.c). */
int audit_run(ruas_report **out, const ruas_config *cfg, unsigned int max_parallel,
	      const struct runner *runner, ruas_error **err);

/* The engine's view of a configuration: ruas_preflight()'s and ruas_audit()'s. */
struct check_run check_run_of(const struct ruas_config *cfg);

#endif
