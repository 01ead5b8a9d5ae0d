/* SPDX-License-Identifier: ISC */
/*
 * limits.c - the limits of a run (ruas.conf(5) "LIMITS"): open_files_max,
 * file_size_max, core_dumps and wall_time_max, and those of its own cgroup
 * (memory_max, memory_swap_max, tasks_max, cpu_max), at the top level
 * (every project's) and in a project (its own, which wins). A value that could not
 * be enforced as written is refused here, never rounded or clamped: a
 * limit is a promise to the operator.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "config/loader.h"

/* The largest file_size_max: RLIMIT_FSIZE takes 63 bits, and 2^62 leaves room. */
#define FILE_SIZE_MAX_MAX (1ULL << 62)

/*
 * "N", "NK", "NM", "NG" or "NT" (binary: K is 1024), digits only, no sign
 * or blank: 0 with *out, or -1.
 */
static int parse_size(const char *s, unsigned long long *out)
{
	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	char *end;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned int shift = 0;
	switch (*end) {
	case '\0':
		break;
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	default:
		return -1;
	}
	if (*end && end[1])
		return -1;
	if (n > (FILE_SIZE_MAX_MAX >> shift))
		return -1;
	*out = n << shift;
	return 0;
}

/*
 * A size key: *out and text (its decimal) when given, untouched when
 * absent; min and min_text its least ("1", "8M", "0"). 0, 1 when given, or
 * a refusal.
 */
static int size_key(struct loader *ld, const struct src *s, const char *key,
		    unsigned long long min, const char *min_text, unsigned long long *out,
		    char *text, size_t tsize)
{
	char what[256];
	snprintf(what, sizeof what,
		 "%s must be a number of bytes from %s to 2^62, or a string of one "
		 "with K, M, G or T (binary: \"64M\" is 67108864 bytes)",
		 key, min_text);
	struct src_val v;
	int r = src_size(ld, s, key, what, &v);
	if (r < 0 || !v.present)
		return r;
	unsigned long long n = 0;
	if (v.str ? parse_size(v.str, &n) < 0
		  : (v.num64 < 0 || (unsigned long long)v.num64 > FILE_SIZE_MAX_MAX))
		return ld_fail_at(ld, v.line, "%s", what);
	if (!v.str)
		n = (unsigned long long)v.num64;
	if (n < min)
		return ld_fail_at(ld, v.line, "%s", what);
	*out = n;
	snprintf(text, tsize, "%llu", n);
	return 1;
}

static int file_size(struct loader *ld, const struct src *s, struct run_limits *out)
{
	int r = size_key(ld, s, "file_size_max", 1, "1", &out->file_size, out->file_size_text,
			 sizeof out->file_size_text);
	return r < 0 ? r : 0;
}

/* "N", "N.D", "N.DD" or "N.DDD" CPUs as thousandths: 0, or -1. */
static int parse_cpus(const char *s, unsigned long long *milli)
{
	unsigned long long whole = 0, frac = 0;
	size_t i = 0;
	for (; i < 8 && isdigit((unsigned char)s[i]); i++)
		whole = whole * 10 + (unsigned)(s[i] - '0');
	if (i == 0)
		return -1;
	if (s[i] == '.') {
		size_t digits = 0;
		for (i++; isdigit((unsigned char)s[i]) && digits < 3; i++, digits++)
			frac = frac * 10 + (unsigned)(s[i] - '0');
		if (digits == 0)
			return -1;
		for (size_t k = digits; k < 3; k++)
			frac *= 10;
	}
	if (s[i] != '\0')
		return -1;
	*milli = whole * 1000 + frac;
	return 0;
}

static int cpu_key(struct loader *ld, const struct src *s, struct run_limits *out)
{
	static const char what[] = "cpu_max must be a number of CPUs from 0.01 to 1024, with at "
				   "most 3 decimals (\"0.5\" is half of one CPU's time)";
	struct src_val v;
	int r = src_decimal(ld, s, "cpu_max", what, &v);
	if (r < 0 || !v.present)
		return r;
	unsigned long long milli = 0;
	if (v.str) {
		if (parse_cpus(v.str, &milli) < 0)
			return ld_fail_at(ld, v.line, "%s", what);
	} else if (v.is_float) {
		/* Exactly thousandths: 0.5 is, 0.0001 is not (refused, never rounded). */
		if (!(v.dbl >= 0.0 && v.dbl <= (double)CPU_MAX_MAX_MILLI / 1000))
			return ld_fail_at(ld, v.line, "%s", what);
		milli = (unsigned long long)(v.dbl * 1000.0 + 0.5);
		double off = v.dbl * 1000.0 - (double)milli;
		if (off > 1e-6 || off < -1e-6)
			return ld_fail_at(ld, v.line, "%s", what);
	} else {
		if (v.num64 < 0 || v.num64 > (long long)(CPU_MAX_MAX_MILLI / 1000))
			return ld_fail_at(ld, v.line, "%s", what);
		milli = (unsigned long long)v.num64 * 1000;
	}
	if (milli < CPU_MAX_MIN_MILLI || milli > CPU_MAX_MAX_MILLI)
		return ld_fail_at(ld, v.line, "%s", what);
	out->cpu_milli = (unsigned int)milli;
	/* In decimal without trailing zeros: 500 is "0.5", 2000 "2". */
	int n = snprintf(out->cpu_text, sizeof out->cpu_text, "%u.%03u", out->cpu_milli / 1000,
			 out->cpu_milli % 1000);
	while (n > 0 && out->cpu_text[n - 1] == '0')
		out->cpu_text[--n] = '\0';
	if (n > 0 && out->cpu_text[n - 1] == '.')
		out->cpu_text[--n] = '\0';
	return 0;
}

/* The run's own cgroup: memory_max, memory_swap_max, tasks_max, cpu_max. */
static int cgroup_keys(struct loader *ld, const struct src *s, struct run_limits *out)
{
	int r = size_key(ld, s, "memory_max", MEMORY_MAX_MIN, "8M", &out->memory,
			 out->memory_text, sizeof out->memory_text);
	if (r >= 0)
		r = size_key(ld, s, "memory_swap_max", 0, "0", &out->memory_swap,
			     out->memory_swap_text, sizeof out->memory_swap_text);
	if (r < 0)
		return r;
	if (r == 1)
		out->memory_swap_set = 1;
	struct src_val v;
	r = src_int(ld, s, "tasks_max", "tasks_max must be a whole number", &v);
	if (r < 0)
		return r;
	if (v.present && (v.num < (int)TASKS_MAX_MIN || (unsigned int)v.num > TASKS_MAX_MAX))
		return ld_fail_at(ld, v.line,
				  "tasks_max must be between %u (sudo, ruas's helpers, the login "
				  "shell and the agent) and %u",
				  TASKS_MAX_MIN, TASKS_MAX_MAX);
	if (v.present)
		out->tasks = (unsigned long long)v.num;
	return cpu_key(ld, s, out);
}

int ld_limits(struct loader *ld, const struct src *s, struct run_limits *out)
{
	struct src_val v;
	int r = src_int(ld, s, "open_files_max", "open_files_max must be a whole number", &v);
	if (r < 0)
		return r;
	if (v.present && (v.num < (int)OPEN_FILES_MIN || v.num > (int)OPEN_FILES_MAX))
		return ld_fail_at(ld, v.line, "open_files_max must be between %u and %u",
				  OPEN_FILES_MIN, OPEN_FILES_MAX);
	if (v.present)
		out->open_files = (unsigned long long)v.num;
	if ((r = file_size(ld, s, out)) < 0)
		return r;
	r = src_bool(ld, s, "core_dumps", "core_dumps must be true or false", &v);
	if (r < 0)
		return r;
	if (v.present && v.num != 0 && v.num != 1)
		return ld_fail_at(ld, v.line, "core_dumps must be true or false (1 or 0)");
	if (v.present)
		out->core_dumps = v.num;
	r = src_int(ld, s, "wall_time_max", "wall_time_max must be a whole number of seconds",
		    &v);
	if (r < 0)
		return r;
	if (v.present && (v.num < 0 || (unsigned int)v.num > WALL_TIME_MAX_MAX))
		return ld_fail_at(ld, v.line,
				  "wall_time_max must be between 0 (none) and %u seconds",
				  WALL_TIME_MAX_MAX);
	if (v.present)
		out->wall_time = (unsigned int)v.num;
	return cgroup_keys(ld, s, out);
}
