/* SPDX-License-Identifier: ISC */
/*
 * run_limits.h - the run's rlimits (ruas.conf(5) "LIMITS": open_files_max,
 * file_size_max, core_dumps), set soft and hard in the process that execs
 * the target's login shell: nothing the target controls runs before them,
 * and nothing of the run can raise them again (raising a hard limit takes
 * CAP_SYS_RESOURCE, which the target has not). The outer helper keeps its
 * own limits: it needs its descriptors to watch the run.
 */
#ifndef RUAS_HELPER_EXEC_RUN_LIMITS_H
#define RUAS_HELPER_EXEC_RUN_LIMITS_H

#include "payload.h"

struct run_rlimits {
	int n;
	struct {
		int resource;
		unsigned long long value;
	} v[3];
};

/*
 * The rlimits of p into *out. 0, or -1 after a complaint when one is above
 * the hard limit this run got from sudo or PAM (pam_limits): a limit is
 * never set lower than asked, nor the run started without it.
 */
int run_limits_plan(const struct payload *p, struct run_rlimits *out);
/* In the child about to exec: sets each, soft and hard. 0, or -1 with errno. */
int run_limits_apply(const struct run_rlimits *r);

#endif
