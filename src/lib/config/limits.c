/*
 * limits.c - the limits of a run (ruas.conf(5) "LIMITS"): open_files_max,
 * file_size_max, core_dumps and wall_time_max, at the top level (every
 * project's) and in a project (its own, which wins). A value that could not
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

static int file_size(struct loader *ld, const struct src *s, struct run_limits *out)
{
	static const char what[] =
		"file_size_max must be a number of bytes from 1 to 2^62, or a string of one "
		"with K, M, G or T (binary: \"64M\" is 67108864 bytes)";
	struct src_val v;
	int r = src_size(ld, s, "file_size_max", what, &v);
	if (r < 0 || !v.present)
		return r;
	unsigned long long n = 0;
	if (v.str ? parse_size(v.str, &n) < 0
		  : (v.num64 < 1 || (unsigned long long)v.num64 > FILE_SIZE_MAX_MAX))
		return ld_fail_at(ld, v.line, "%s", what);
	if (!v.str)
		n = (unsigned long long)v.num64;
	if (n == 0)
		return ld_fail_at(ld, v.line, "%s", what);
	out->file_size = n;
	snprintf(out->file_size_text, sizeof out->file_size_text, "%llu", n);
	return 0;
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
	return 0;
}
