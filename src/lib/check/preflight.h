/* preflight.h - the startup checks, with the sudo runner injectable for tests. */
#ifndef RUAS_PREFLIGHT_H
#define RUAS_PREFLIGHT_H

#include "ruas.h"
#include "check/runner.h"

#define DEFAULT_MAX_PARALLEL 8u
#define SUDO_OUTPUT_MAX (1u << 20)
#define MAX_CHECK_SECONDS 172800u
#define ROOT_LIST_TIMEOUT_MS 30000u

int preflight_run(ruas_report **out, const ruas_config *cfg,
		  unsigned int max_parallel, const struct runner *runner,
		  ruas_error **err);

/* ruas_check_targets() with the runner injected. */
int targets_run(ruas_report **out, const char *const *targets,
		const ruas_target_options *o, const struct runner *runner,
		ruas_error **err);

/* ruas_audit() with the runner injected. */
int audit_run(ruas_report **out, const ruas_config *cfg, unsigned int max_parallel,
	      const struct runner *runner, ruas_error **err);

#endif
