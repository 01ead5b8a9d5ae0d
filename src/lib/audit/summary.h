/* SPDX-License-Identifier: ISC */
/*
 * summary.h - the one record that each ruas_preflight() ("check") and
 * ruas_audit() ("audit") leaves: how many projects and findings, and which
 * checks were fatal (docs/audit.md).
 */
#ifndef RUAS_AUDIT_SUMMARY_H
#define RUAS_AUDIT_SUMMARY_H

#include "audit/record.h"
#include "audit/sink.h"
#include "config/config_int.h"
#include "ruas.h"

/*
 * The sink of a preflight's or an audit's options (version 2 and up: its
 * audit; NULL: syslog), checked, into *d. RUAS_ERR_INVALID naming fn.
 */
int audit_summary_dest(struct audit_dest *d, const struct ruas_config *cfg,
		       const ruas_preflight_options *opts, const char *fn, ruas_error **err);

/*
 * Records rep's summary (kind AUDIT_CHECK or AUDIT_AUDIT) to d and to
 * cfg's audit_log. When that log cannot be written (so that every spawn
 * would be refused), each project of rep first gets a fatal "audit_log"
 * item saying why. For a preflight, each project's verdict is noted for
 * its start records (config_int.h, checks). -1 when out of memory.
 */
int audit_summary_record(const struct ruas_config *cfg, struct audit_dest *d, ruas_report *rep,
			 enum audit_kind kind);

/*
 * The end of ruas_preflight() and ruas_audit(): when r (what the run gave)
 * is 0, records *out's summary; out of memory for it frees *out and
 * returns RUAS_ERR_NOMEM naming fn. Else r.
 */
int audit_summary_finish(int r, const struct ruas_config *cfg, struct audit_dest *d,
			 ruas_report **out, enum audit_kind kind, const char *fn, ruas_error **err);

#endif
