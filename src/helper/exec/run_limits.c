/* SPDX-License-Identifier: ISC */
/* run_limits.c - see run_limits.h. */
#include "run_limits.h"

#include <stdio.h>
#include <sys/resource.h>

#include "complain.h"

static int add(struct run_rlimits *out, int resource, unsigned long long value, const char *key,
	       const char *name)
{
	struct rlimit now;
	/* Where rlim_t is 32 bits, a value it cannot hold is refused, never cut or unlimited. */
	if ((unsigned long long)(rlim_t)value != value || (rlim_t)value == RLIM_INFINITY) {
		complain("cannot set", name, "the value is too large for this system's rlimits");
		return -1;
	}
	if (getrlimit(resource, &now) < 0) {
		complain("cannot read", name, NULL);
		return -1;
	}
	if (now.rlim_max != RLIM_INFINITY && value > (unsigned long long)now.rlim_max) {
		char why[256];
		snprintf(why, sizeof why,
			 "%s %llu is above the hard limit %llu that this run got from sudo or "
			 "PAM: lower %s, or raise the target's hard limit (pam_limits, "
			 "/etc/security/limits.conf)",
			 key, value, (unsigned long long)now.rlim_max, key);
		complain("cannot set", name, why);
		return -1;
	}
	out->v[out->n].resource = resource;
	out->v[out->n].value = value;
	out->n++;
	return 0;
}

int run_limits_plan(const struct payload *p, struct run_rlimits *out)
{
	out->n = 0;
	if (p->rlim_nofile &&
	    add(out, RLIMIT_NOFILE, p->rlim_nofile, "open_files_max", "RLIMIT_NOFILE") < 0)
		return -1;
	if (p->rlim_fsize &&
	    add(out, RLIMIT_FSIZE, p->rlim_fsize, "file_size_max", "RLIMIT_FSIZE") < 0)
		return -1;
	if (!p->core_dumps && add(out, RLIMIT_CORE, 0, "core_dumps", "RLIMIT_CORE") < 0)
		return -1;
	return 0;
}

int run_limits_apply(const struct run_rlimits *r)
{
	for (int i = 0; i < r->n; i++) {
		struct rlimit l = {(rlim_t)r->v[i].value, (rlim_t)r->v[i].value};
		if (setrlimit(r->v[i].resource, &l) < 0)
			return -1;
	}
	return 0;
}
