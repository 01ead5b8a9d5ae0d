/* SPDX-License-Identifier: ISC */
/* report_print.h - how the ruas command shows a preflight report. */
#ifndef RUAS_REPORT_PRINT_H
#define RUAS_REPORT_PRINT_H

#include <stdio.h>

#include "ruas.h"

/*
 * ERROR and WARNING blocks, each followed by a blank line; a block that
 * several projects share (one user's finding) is shown once.
 */
void report_print_text(FILE *f, const ruas_report *r);
/*
 * What the check could not judge as `who` (ruas_report_unjudged_*), on two
 * lines, with the root command that judges it; nothing when there is none.
 */
void report_print_unjudged(FILE *f, const ruas_report *r, const char *who, const char *config);
/* The same, ERROR blocks only (ruas check -q). */
void report_print_fatal(FILE *f, const ruas_report *r);
/*
 * For ruas run (fatal_only: run -q): the same, each fix ending with a run
 * again ("Then run ruas run again.") where the library's says "Then
 * restart ruas.", which is for a supervisor.
 */
void report_print_for_run(FILE *f, const ruas_report *r, int fatal_only);
/* One JSON document; 0, or -1 when it could not be built. */
int report_print_json(FILE *f, const ruas_config *cfg, const ruas_report *r);

/* The same for ruas_check_targets(): one entry per target. */
int report_print_targets_json(FILE *f, const ruas_report *r);

/* ruas deny --format json: {"person": ..., "deny": [...], "warnings": [...]}. */
int deny_print_json(FILE *f, const char *person, char **paths, char **warnings);

/* ruas audit --json: {"ok": ..., "people": [{"id", "errors", "warnings"}]}. */
int report_print_people_json(FILE *f, const ruas_report *r);

/*
 * 1 when everything written to f has reached it: flushed now, and no earlier
 * write failed (an earlier failed flush leaves fflush() itself returning 0).
 */
int output_ok(FILE *f);

#endif
