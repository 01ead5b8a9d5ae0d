/* SPDX-License-Identifier: ISC */
/* report.h - building a ruas_report. */
#ifndef RUAS_REPORT_INT_H
#define RUAS_REPORT_INT_H

#include "account.h"
#include "check/messages.h"
#include "ruas.h"

/* A report with one empty entry per project name. NULL on OOM. */
ruas_report *report_new(const char *const *names, size_t n);
/*
 * A finding of project: check (static), the OS user it is about and the file
 * or directory (both copied; NULL where none applies), and its words, which
 * it takes (w.text NULL: out of memory, recorded). -1 on OOM.
 */
int report_add(ruas_report *r, size_t project, ruas_severity sev, const char *check,
	       const char *user, const char *path, struct words w);

/* A finding about the host, not one project (ruas_report_host_*); the same. -1 on OOM. */
int report_host_add(ruas_report *r, ruas_severity sev, const char *check, const char *path,
		    struct words w);
/* What this check could not judge (copied; one per path). -1 on OOM. */
int report_unjudged(ruas_report *r, const char *what, const char *path);

/*
 * The "groups" findings of a user (NULL project: a target alone): one fatal
 * item for the hits that give root, one warning for the others, and a fatal
 * item when the groups could not be read (`failed`): never silence. -1 on OOM.
 */
int report_groups(ruas_report *r, size_t project, const char *project_name,
		  const char *user, const struct group_hits *g, int failed);

#endif
