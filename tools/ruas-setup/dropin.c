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

/*
 * Whether systemd puts '_' before the unit's name in its cgroup (its
 * cg_needs_escape(): a name that could be read as a cgroup file of the
 * kernel's or of a controller, "cgroup.*" or "CONTROLLER.*").
 */
static int cgroup_escaped(const char *unit)
{
	static const char *const controllers[] = {
		"cpu", "cpuacct", "cpuset", "io", "blkio", "memory", "devices", "pids",
		"bpf-firewall", "bpf-devices", "bpf-foreign", "bpf-socket-bind",
		"bpf-restrict-network-interfaces"};
	if (unit[0] == '_' || unit[0] == '.' || strncmp(unit, "cgroup.", 7) == 0)
		return 1;
	for (size_t i = 0; i < sizeof controllers / sizeof controllers[0]; i++) {
		size_t n = strlen(controllers[i]);
		if (strncmp(unit, controllers[i], n) == 0 && unit[n] == '.')
			return 1;
	}
	return 0;
}

/*
 * The ruas.conf line for the unit's cgroup in system.slice, its '\\'
 * doubled for libconfig's string; NULL for an instance of a template,
 * whose slice is named by rules ruas-setup does not repeat.
 */
static char *cgroup_parent_line(const char *unit)
{
	if (strchr(unit, '@'))
		return NULL;
	size_t n = strlen(unit), k = 0;
	char *q = malloc(2 * n + 2);
	if (!q)
		return NULL;
	if (cgroup_escaped(unit))
		q[k++] = '_';
	for (size_t i = 0; i < n; i++) {
		if (unit[i] == '\\')
			q[k++] = '\\';
		q[k++] = unit[i];
	}
	q[k] = '\0';
	char *t = NULL;
	int r = asprintf(&t, "cgroup_parent = \"/sys/fs/cgroup/system.slice/%s\";", q);
	free(q);
	return r < 0 ? NULL : t;
}

char *dropin_next_steps(const char *unit, int version)
{
	char *line = cgroup_parent_line(unit), *t = NULL, *move = NULL;
	if (!line && !strchr(unit, '@'))
		return NULL;
	if (version < DROPIN_SUBGROUP_SINCE &&
	    asprintf(&move,
		     "ruas-setup: systemd %d has no DelegateSubgroup=: until the supervisor has "
		     "moved itself into the leaf \"" DROPIN_SUBGROUP "\" of its service's cgroup "
		     "(mkdir it, then write 0 to its cgroup.procs) no run with limits can start, "
		     "and ruas check says so\n",
		     version) < 0) {
		free(line);
		return NULL;
	}
	int r = asprintf(&t,
			 "ruas-setup: next: systemctl daemon-reload, then systemctl restart %s\n"
			 "ruas-setup: then in ruas.conf: %s%s/sys/fs/cgroup followed by what "
			 "systemctl show -p ControlGroup --value %s says%s\n%s",
			 unit, line ? line : "cgroup_parent = ",
			 line ? " (if the unit has a Slice= of its own: " : "", unit, line ? ")" : "",
			 move ? move : "");
	free(line);
	free(move);
	return r < 0 ? NULL : t;
}
