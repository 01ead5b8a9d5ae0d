/* SPDX-License-Identifier: ISC */
/* anchors_report.h - the trust-anchor findings (see anchors.h). */
#ifndef RUAS_ANCHORS_REPORT_H
#define RUAS_ANCHORS_REPORT_H

#include <stddef.h>

#include "check/messages.h"
#include "helper_report.h"
#include "ruas.h"

/*
 * One fatal "anchors" finding per path of hr that the target can write
 * (read, own), and one more when the helper found more than it could list.
 * Nothing when hr is NULL (the checks did not run). 0, or -1 on OOM.
 */
int report_anchors(ruas_report *rep, size_t idx, const char *user,
		   const char *supervisor, const struct helper_report *hr);

/* The words of one finding (messages.h). */
struct words msg_anchor(const char *user, const char *supervisor, const struct anchor_hit *a);
struct words msg_anchors_more(const char *user, unsigned long long more);

#endif
