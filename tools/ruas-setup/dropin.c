/* SPDX-License-Identifier: ISC */
/* dropin.c - see dropin.h. */
#include "dropin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUFFIX ".service"
#define UNIT_NAME_MAX 255 /* systemd's, without the NUL */

/* The characters systemd takes in a unit name (unit-name.c's VALID_CHARS plus '@'). */
static int unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr(":-_.\\@", c) != NULL;
}

/* A unit type other than service, which systemctl would not add ".service" to. */
static int other_type(const char *suffix)
{
	static const char *const types[] = {"socket", "target", "device", "mount", "automount",
					    "swap",   "timer",  "path",   "slice", "scope"};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(suffix, types[i]) == 0)
			return 1;
	return 0;
}

const char *dropin_unit(const char *name, char *out, size_t n)
{
	size_t len = strlen(name);
	if (len == 0)
		return "is empty";
	for (const char *p = name; *p; p++)
		if (!unit_char(*p))
			return "may contain only A-Z, a-z, 0-9 and : - _ . \\ @, as a systemd unit "
			       "name";
	const char *dot = strrchr(name, '.');
	int has_suffix = dot && strcmp(dot, SUFFIX) == 0;
	if (!has_suffix && dot && other_type(dot + 1))
		return "is not a service: Delegate= belongs in the service that runs the "
		       "supervisor (NAME.service)";
	if (snprintf(out, n, "%s%s", name, has_suffix ? "" : SUFFIX) >= (int)n ||
	    strlen(out) > UNIT_NAME_MAX)
		return "is longer than a systemd unit name may be (255 bytes)";
	size_t stem = strlen(out) - strlen(SUFFIX);
	const char *at = memchr(out, '@', stem);
	if (stem == 0 || out[0] == '.' || at == out)
		return "has no name before \".service\" or \"@\"";
	if (at && memchr(at + 1, '@', stem - (size_t)(at + 1 - out)))
		return "has more than one '@'";
	if (at && at + 1 == out + stem)
		return "is a template: each of its instances (NAME@INSTANCE.service) has a cgroup "
		       "of its own; name the one that runs the supervisor";
	return NULL;
}

int dropin_systemd_version(const char *text)
{
	if (strncmp(text, "systemd ", 8) != 0)
		return -1;
	const char *p = text + 8;
	int v = 0;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > 100000)
			return -1;
	}
	return *p == ' ' || *p == '\n' || *p == '\0' ? v : -1;
}

char *dropin_text(const char *unit, int version)
{
	char *t = NULL;
	int r;
	if (version >= DROPIN_SUBGROUP_SINCE)
		r = asprintf(&t,
			     "# %s." "d/" DROPIN_NAME ", written by ruas-setup delegate: a cgroup of the\n"
			     "# service's own to make a cgroup of each run's own in (ruas.conf(5)\n"
			     "# LIMITS), with the supervisor in a leaf of it.\n"
			     "[Service]\n"
			     "Delegate=cpu memory pids\n"
			     "DelegateSubgroup=" DROPIN_SUBGROUP "\n",
			     unit);
	else
		r = asprintf(&t,
			     "# %s." "d/" DROPIN_NAME ", written by ruas-setup delegate: a cgroup of the\n"
			     "# service's own to make a cgroup of each run's own in (ruas.conf(5)\n"
			     "# LIMITS). systemd %d has no DelegateSubgroup= (%d and later): the\n"
			     "# supervisor moves itself into the leaf \"" DROPIN_SUBGROUP "\" of this cgroup as\n"
			     "# it starts (ruas-setup(8), DELEGATE).\n"
			     "[Service]\n"
			     "Delegate=cpu memory pids\n",
			     unit, version, DROPIN_SUBGROUP_SINCE);
	return r < 0 ? NULL : t;
}

/* The unit's cgroup in the default slice: system.slice, or its template's slice. */
static char *default_cgroup(const char *unit)
{
	const char *at = strchr(unit, '@');
	char *t = NULL;
	if (!at)
		return asprintf(&t, "/sys/fs/cgroup/system.slice/%s", unit) < 0 ? NULL : t;
	/* An instance's is system-PREFIX.slice, '-' and '\\' escaped there (systemd-escape). */
	size_t n = (size_t)(at - unit), k = 0;
	char *prefix = malloc(n * 4 + 1);
	if (!prefix)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (unit[i] == '-' || unit[i] == '\\') {
			memcpy(prefix + k, unit[i] == '-' ? "\\x2d" : "\\x5c", 4);
			k += 4;
		} else {
			prefix[k++] = unit[i];
		}
	}
	prefix[k] = '\0';
	int r = asprintf(&t, "/sys/fs/cgroup/system.slice/system-%s.slice/%s", prefix, unit);
	free(prefix);
	return r < 0 ? NULL : t;
}

char *dropin_next_steps(const char *unit, int version)
{
	char *cg = default_cgroup(unit), *t = NULL, *move = NULL;
	if (!cg)
		return NULL;
	if (version < DROPIN_SUBGROUP_SINCE &&
	    asprintf(&move,
		     "ruas-setup: systemd %d has no DelegateSubgroup=: until the supervisor has "
		     "moved itself into %s/" DROPIN_SUBGROUP " (mkdir it, then write 0 to its "
		     "cgroup.procs) no run with limits can start, and ruas check says so\n",
		     version, cg) < 0) {
		free(cg);
		return NULL;
	}
	int r = asprintf(&t,
			 "ruas-setup: next: systemctl daemon-reload, then systemctl restart %s\n"
			 "ruas-setup: then in ruas.conf: cgroup_parent = \"%s\"; (if the unit has "
			 "a Slice= of its own: /sys/fs/cgroup followed by what systemctl show -p "
			 "ControlGroup --value %s says)\n%s",
			 unit, cg, unit,
			 move ? move : "");
	free(cg);
	free(move);
	return r < 0 ? NULL : t;
}
