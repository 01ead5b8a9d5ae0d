/* SPDX-License-Identifier: ISC */
/* summary.c - see summary.h. */
#include "audit/summary.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/log_file.h"
#include "buf.h"
#include "check/messages_int.h"
#include "check/report.h"
#include "error.h"
#include "quote.h"
#include "strv.h"

int audit_summary_dest(struct audit_dest *d, const struct ruas_config *cfg,
		       const ruas_preflight_options *opts, const char *fn, ruas_error **err)
{
	const ruas_audit_sink *sink = opts && opts->version >= 2 ? opts->audit : NULL;
	int r = audit_dest_init(d, sink, cfg->audit.facility, fn, err);
	d->undelivered = cfg->audit_undelivered; /* the call's: cfg outlives it */
	return r;
}

/* A fatal "audit_log" item for each project: why the log cannot be written. -1 on OOM. */
static int report_log_problem(const struct ruas_config *cfg, ruas_report *rep, const char *why)
{
	for (size_t i = 0; i < ruas_report_project_count(rep); i++) {
		struct buf b = BUF_INIT;
		buf_adds(&b, "ERROR: project ");
		quote_display_dq(&b, ruas_report_project_name(rep, i));
		buf_adds(&b, ": cannot write the audit log ");
		quote_display_dq(&b, cfg->audit.log);
		buf_adds(&b, " (audit_log in ");
		quote_controls(&b, cfg->path); /* a path with a newline forges no line */
		buf_printf(&b, "): %s; every spawn is refused until it can be\n", why);
		buf_adds(&b, "Fix: ");
		size_t fx = b.len;
		buf_adds(&b, "make ");
		quote_display_dq(&b, cfg->audit.log);
		buf_adds(&b, " writable to the supervisor (its directory there, space on its file "
			     "system), or point audit_log elsewhere.");
		if (report_add(rep, i, RUAS_SEVERITY_FATAL, "audit_log", NULL, cfg->audit.log,
			       msg_then_restart(&b, fx)) < 0)
			return -1;
	}
	return 0;
}

/* The distinct ids of rep's fatal checks, in report order, and the counts. */
struct tally {
	char **fatal_checks;
	size_t nchecks;
	long long fatal, warnings;
};

static int tally(const ruas_report *rep, struct tally *t)
{
	for (size_t i = 0; i < ruas_report_project_count(rep); i++)
		for (size_t j = 0; j < ruas_report_item_count(rep, i); j++) {
			const char *id = ruas_report_item_check(rep, i, j);
			if (ruas_report_item_severity(rep, i, j) != RUAS_SEVERITY_FATAL) {
				t->warnings++;
				continue;
			}
			t->fatal++;
			if (!strv_contains((const char *const *)t->fatal_checks, id) &&
			    strv_push(&t->fatal_checks, &t->nchecks, strdup(id)) < 0)
				return -1;
		}
	if (!t->fatal_checks && !(t->fatal_checks = calloc(1, sizeof *t->fatal_checks)))
		return -1;
	return 0;
}

/* Each project's verdict, for its start records (config_int.h checks). */
static void note_verdicts(const struct ruas_config *cfg, const ruas_report *rep)
{
	for (size_t i = 0; i < ruas_report_project_count(rep); i++) {
		int fatal = 0;
		for (size_t j = 0; j < ruas_report_item_count(rep, i); j++)
			fatal |= ruas_report_item_severity(rep, i, j) == RUAS_SEVERITY_FATAL;
		struct ruas_project *p = (struct ruas_project *)ruas_config_project_find(
			cfg, ruas_report_project_name(rep, i));
		if (p)
			__atomic_store_n(&p->checks, fatal ? CHECKS_FATAL : CHECKS_OK,
					 __ATOMIC_RELEASE);
	}
}

int audit_summary_record(const struct ruas_config *cfg, struct audit_dest *d, ruas_report *rep,
			 enum audit_kind kind)
{
	char why[256];
	/* Nothing created here: the first spawn, as the supervisor, does that. */
	int log_fd = cfg->audit.log ? audit_log_open(cfg, 0, why, sizeof why) : AUDIT_LOG_MISSING;
	if (kind == AUDIT_CHECK && log_fd == AUDIT_LOG_REFUSED &&
	    report_log_problem(cfg, rep, why) < 0)
		return -1;
	if (kind == AUDIT_CHECK)
		note_verdicts(cfg, rep);
	struct tally t = {NULL, 0, 0, 0};
	int rc = tally(rep, &t);
	if (rc == 0) {
		struct audit_field f[] = {
			{"config", AUDIT_STR, cfg->path, 0, NULL, 0},
			{"supervisor", AUDIT_STR, cfg->supervisor_name, 0, NULL, 0},
			{kind == AUDIT_AUDIT ? "people" : "projects", AUDIT_INT, NULL, (long long)ruas_report_project_count(rep), NULL,
			 0},
			{"fatal", AUDIT_INT, NULL, t.fatal, NULL, 0},
			{"warnings", AUDIT_INT, NULL, t.warnings, NULL, 0},
			{"fatal_checks", AUDIT_STRV, NULL, 0, (const char *const *)t.fatal_checks, 0},
			{"result", AUDIT_STR, t.fatal ? "fatal" : "ok", 0, NULL, 0},
		};
		struct audit_record r = {kind, f, sizeof f / sizeof f[0]};
		d->log_fd = log_fd;
		(void)audit_emit(d, &r, NULL);
		d->log_fd = -1;
	}
	strv_free(t.fatal_checks);
	if (log_fd >= 0)
		close(log_fd);
	return rc;
}

int audit_summary_finish(int r, const struct ruas_config *cfg, struct audit_dest *d,
			 ruas_report **out, enum audit_kind kind, const char *fn, ruas_error **err)
{
	if (r != 0 || audit_summary_record(cfg, d, *out, kind) == 0)
		return r;
	ruas_report_free(*out);
	*out = NULL;
	return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "%s: out of memory", fn);
}
