/* SPDX-License-Identifier: ISC */
/*
 * ruas/check.h - the startup checks: ruas_preflight() judges every
 * project's boundary, concurrently, into a report of findings per project
 * (docs/library.md "Preflight" lists every check).
 */
#ifndef RUAS_CHECK_H
#define RUAS_CHECK_H

#include "audit.h"
#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	RUAS_SEVERITY_NONE = 0, /* no finding (ruas_group_risk; out-of-range items) */
	RUAS_SEVERITY_WARNING = 1,
	RUAS_SEVERITY_FATAL = 2
} ruas_severity;

typedef struct ruas_report ruas_report;

/* Version 2 added audit, version 3 fresh_host and reuse_verdict. */
#define RUAS_PREFLIGHT_OPTIONS_VERSION 3
typedef struct {
	unsigned int version;
	unsigned int max_parallel; /* concurrent sudo calls at most; 0: the default (8) */
	/* Version 2: where the check's (or ruas_audit()'s) record goes; NULL: syslog. */
	const ruas_audit_sink *audit;
	/* Version 3: non-zero walks the host's trees now instead of reusing a recent walk. */
	int fresh_host;
	/*
	 * Version 3: non-zero gives back the report of a check of this file's
	 * configuration that passed less than host_check_interval ago, while
	 * nothing it was judged on has changed (as ruas run does).
	 */
	int reuse_verdict;
} ruas_preflight_options;
#define RUAS_PREFLIGHT_OPTIONS_INIT                                                        \
	{RUAS_DESIGNATED(version) RUAS_PREFLIGHT_OPTIONS_VERSION,                           \
	 RUAS_DESIGNATED(max_parallel) 0, RUAS_DESIGNATED(audit) NULL,                      \
	 RUAS_DESIGNATED(fresh_host) 0, RUAS_DESIGNATED(reuse_verdict) 0}
RUAS_EXTERN int ruas_preflight_options_init(ruas_preflight_options *opts, unsigned int version);

/*
 * Run every startup check of every project, concurrently. Findings are in
 * the report, not in the return value: 0 with fatal findings is normal.
 */
RUAS_EXTERN int ruas_preflight(ruas_report **out, const ruas_config *cfg,
			       const ruas_preflight_options *opts, ruas_error **err);
RUAS_EXTERN void ruas_report_free(ruas_report *report);

/* Non-zero when any project, or the host, has a fatal finding. */
RUAS_EXTERN int ruas_report_has_fatal(const ruas_report *report);
/* Projects appear in configuration order (targets, for ruas_check_targets()). */
RUAS_EXTERN size_t ruas_report_project_count(const ruas_report *report);
RUAS_EXTERN const char *ruas_report_project_name(const ruas_report *report, size_t project);
RUAS_EXTERN size_t ruas_report_item_count(const ruas_report *report, size_t project);
RUAS_EXTERN ruas_severity ruas_report_item_severity(const ruas_report *report, size_t project,
						    size_t item);
/* The stable id of the check that made the item ("sudo", "work_dir", ...); scripts may match it. */
RUAS_EXTERN const char *ruas_report_item_check(const ruas_report *report, size_t project,
					       size_t item);
/* The full text, starting "ERROR: " or "WARNING: ", ending in a newline. */
RUAS_EXTERN const char *ruas_report_item_text(const ruas_report *report, size_t project,
					      size_t item);

/*
 * Findings about the host rather than one project, shown once, in the same
 * form ("proc" today); NULL or RUAS_SEVERITY_NONE past the last.
 */
RUAS_EXTERN size_t ruas_report_host_count(const ruas_report *report);
RUAS_EXTERN ruas_severity ruas_report_host_severity(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_host_check(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_host_text(const ruas_report *report, size_t item);
/*
 * What an item is about and what to do, beside its text (NULL past the last
 * item, for a NULL report, and where none applies): user, the OS user it is
 * about; path, the file or directory it is about; fix, what to do in the
 * text's own words, never NULL for a fatal item (docs/library.md "Preflight").
 * Strings live as long as the report.
 */
RUAS_EXTERN const char *ruas_report_item_user(const ruas_report *report, size_t project,
					      size_t item);
RUAS_EXTERN const char *ruas_report_item_path(const ruas_report *report, size_t project,
					      size_t item);
RUAS_EXTERN const char *ruas_report_item_fix(const ruas_report *report, size_t project,
					     size_t item);
RUAS_EXTERN const char *ruas_report_host_path(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_host_fix(const ruas_report *report, size_t item);
/*
 * What this supervisor could not judge because only root can read it: a
 * path and what in it. Not findings; empty as root.
 */
RUAS_EXTERN size_t ruas_report_unjudged_count(const ruas_report *report);
RUAS_EXTERN const char *ruas_report_unjudged_what(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_unjudged_path(const ruas_report *report, size_t item);

#ifdef __cplusplus
}
#endif
#endif
