/* SPDX-License-Identifier: ISC */
/*
 * report_names.h - names for the numbers in a helper's REPORT. The helper
 * reads no user database (it may be a static program, which must not load
 * NSS modules), so owners and groups come back as uids and gids and the
 * library names them here, as ls(1) would: the name, or the number as
 * text when there is none, or "?" for REPORT_UID_UNKNOWN.
 */
#ifndef RUAS_CHECK_REPORT_NAMES_H
#define RUAS_CHECK_REPORT_NAMES_H

#include "helper_report.h"

/* Fills every owner and group field of r. 0, or -1 when out of memory. */
int report_names_fill(struct helper_report *r);

#endif
