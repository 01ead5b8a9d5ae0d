/* report.h - building a ruas_report. */
#ifndef RUAS_REPORT_INT_H
#define RUAS_REPORT_INT_H

#include "ruas.h"

/* A report with one empty entry per project name. NULL on OOM. */
ruas_report *report_new(const char *const *names, size_t n);
/* Takes ownership of text (which may be NULL: then OOM is recorded). -1 on OOM. */
int report_add(ruas_report *r, size_t project, ruas_severity sev,
	       const char *check, char *text);

#endif
