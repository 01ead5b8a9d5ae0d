/* SPDX-License-Identifier: ISC */
/*
 * audit_keys.c - the audit keys of ruas.conf (docs/audit.md): where the
 * records go (audit_facility, audit_log) and how much of the agent's
 * arguments they keep (audit_argv, audit_argv_max).
 */
#include <string.h>
#include <syslog.h>

#include "audit/log_file.h"
#include "buf.h"
#include "config/loader.h"
#include "quote.h"

static const struct {
	const char *name;
	int facility;
} facilities[] = {
	{"authpriv", LOG_AUTHPRIV}, {"auth", LOG_AUTH},     {"daemon", LOG_DAEMON},
	{"user", LOG_USER},         {"local0", LOG_LOCAL0}, {"local1", LOG_LOCAL1},
	{"local2", LOG_LOCAL2},     {"local3", LOG_LOCAL3}, {"local4", LOG_LOCAL4},
	{"local5", LOG_LOCAL5},     {"local6", LOG_LOCAL6}, {"local7", LOG_LOCAL7},
};

static int audit_facility(struct loader *ld, const struct src *s, int *out)
{
	struct src_val v;
	int r = src_string(ld, s, "audit_facility", &v);
	*out = LOG_AUTHPRIV;
	if (r < 0 || !v.present)
		return r;
	for (size_t i = 0; i < sizeof facilities / sizeof facilities[0]; i++)
		if (strcmp(v.str, facilities[i].name) == 0) {
			*out = facilities[i].facility;
			return 0;
		}
	return ld_fail_at(ld, v.line, "audit_facility must be \"authpriv\", \"auth\", \"daemon\", "
			  "\"user\" or \"local0\" to \"local7\"");
}

static int audit_argv(struct loader *ld, const struct src *s, enum audit_argv_mode *out)
{
	static const char *const words[] = {"truncated", "full", "none", NULL};
	int i = AUDIT_ARGV_TRUNCATED;
	int r = ld_word(ld, s, "audit_argv", words,
			"audit_argv must be \"truncated\", \"full\" or \"none\"", &i);
	*out = (enum audit_argv_mode)i; /* words in the order of enum audit_argv_mode */
	return r;
}

static int audit_argv_max(struct loader *ld, const struct src *s, unsigned int *out)
{
	struct src_val v;
	int r = src_int(ld, s, "audit_argv_max", "audit_argv_max must be a whole number of bytes",
			&v);
	*out = DEFAULT_AUDIT_ARGV_MAX;
	if (r < 0 || !v.present)
		return r;
	if (v.num < 1 || v.num > 65536)
		return ld_fail_at(ld, v.line, "audit_argv_max must be between 1 and 65536 bytes");
	*out = (unsigned int)v.num;
	return 0;
}

/*
 * The directory that holds the audit_log, judged at load where it exists:
 * one that others may write (sticky or not) is a configuration error, as
 * they could create the log first. The rest (owners, symlinks, the file)
 * is the check's and every spawn's to judge, by descriptor.
 */
static int audit_log_dirs(struct loader *ld, const struct src *s, const char *path)
{
	char why[512];
	if (audit_log_holder_check(path, why, sizeof why) != AUDIT_LOG_REFUSED)
		return 0;
	struct src_val v;
	int r = src_string(ld, s, "audit_log", &v);
	if (r < 0)
		return r;
	struct buf q = BUF_INIT;
	quote_display_dq(&q, path);
	r = ld_fail_at(ld, v.line, "audit_log %s is refused: %s", q.data ? q.data : "", why);
	buf_free(&q);
	return r;
}

int schema_audit(struct loader *ld, const struct src *s)
{
	struct audit_settings *a = &ld->cfg->audit;
	int r;
	if ((r = audit_facility(ld, s, &a->facility)) < 0 || (r = audit_argv(ld, s, &a->argv)) < 0 ||
	    (r = audit_argv_max(ld, s, &a->argv_max)) < 0)
		return r;
	if ((r = ld_abs_path(ld, s, "", "audit_log", 0, NULL, &a->log)) < 0 || !a->log)
		return r;
	return audit_log_dirs(ld, s, a->log);
}
