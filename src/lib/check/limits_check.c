/* SPDX-License-Identifier: ISC */
/* limits_check.c - see limits_check.h. */
#include "check/limits_check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/judge.h"
#include "cgroup/place.h"
#include "cgroup/run.h"
#include "check/messages.h"
#include "check/report.h"

int report_limits(ruas_report *rep, size_t pi, const struct ruas_project *p, const char *user,
		  const struct helper_report *hr, int pam)
{
	/*
	 * ruas-session opens no PAM session in a check (no pam_limits ran):
	 * what it saw may not be what a run gets, so a warning there.
	 */
	ruas_severity above = pam ? RUAS_SEVERITY_WARNING : RUAS_SEVERITY_FATAL;
	const struct run_limits *l = &p->limits;
	if (!l->open_files && !l->file_size)
		return 0;
	if (!hr->rlimits_seen)
		return report_add(rep, pi, RUAS_SEVERITY_FATAL, "limits", user, NULL,
				  msg_limit_unjudged(p->name, user));
	int r = 0;
	if (l->open_files && l->open_files > hr->hard_nofile)
		r |= report_add(rep, pi, above, "limits", user, NULL,
				msg_limit_above_hard(p->name, user, "open_files_max", l->open_files,
						     "RLIMIT_NOFILE", hr->hard_nofile, "nofile",
						     l->open_files, pam));
	/* limits.conf counts fsize in KiB: the line that would admit file_size_max, rounded up. */
	if (l->file_size && l->file_size > hr->hard_fsize)
		r |= report_add(rep, pi, above, "limits", user, NULL,
				msg_limit_above_hard(p->name, user, "file_size_max", l->file_size,
						     "RLIMIT_FSIZE", hr->hard_fsize, "fsize",
						     (l->file_size + 1023) / 1024, pam));
	return r;
}

void cgroup_limit_keys(const struct run_limits *l, char *out, size_t n)
{
	snprintf(out, n, "%s%s%s%s%s", l->memory ? "memory_max" : "",
		 l->memory && l->memory_swap_set ? ", memory_swap_max" : "",
		 l->tasks ? (l->memory ? ", tasks_max" : "tasks_max") : "",
		 l->cpu_milli && (l->memory || l->tasks) ? ", " : "",
		 l->cpu_milli ? "cpu_max" : "");
}

struct cgroup_limits cgroup_limits_of(const struct run_limits *l)
{
	struct cgroup_limits c = {l->memory, l->memory_swap, l->tasks, l->cpu_milli * 100ULL,
				  100000};
	return c;
}

int report_cgroup_limits(ruas_report *rep, size_t pi, const struct ruas_config *cfg,
			 const struct ruas_project *p)
{
	struct cgroup_limits want_l = cgroup_limits_of(&p->limits);
	unsigned int want = cgroup_controllers_wanted(&want_l);
	if (!want)
		return 0;
	char keys[96];
	cgroup_limit_keys(&p->limits, keys, sizeof keys);
	struct cgroup_place pl;
	struct cgroup_judgement j;
	const char *why = NULL;
	int v = cgroup_parent_judge(cfg->cgroup_parent, geteuid(), want, &pl, &j, &why);
	if (v == CGROUP_USABLE)
		return 0;
	return report_add(rep, pi, RUAS_SEVERITY_FATAL, "limits", p->run_as_user, NULL,
			  msg_cgroup_unusable(p->name, keys, &pl, v < 0 ? why : NULL, &j,
					      (unsigned long)geteuid()));
}
