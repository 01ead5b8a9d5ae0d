/* SPDX-License-Identifier: ISC */
/* report.c - what both halves of REPORT share: the scan items' lifetime. */
#include <stdlib.h>

#include "helper_report.h"

void scan_items_free(struct scan_item *items, size_t n)
{
	for (size_t i = 0; items && i < n; i++) {
		free(items[i].path);
		free(items[i].owner);
	}
	free(items);
}
