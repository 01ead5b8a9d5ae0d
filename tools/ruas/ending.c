/* SPDX-License-Identifier: ISC */
/* ending.c - see ending.h. */
#include <signal.h>

#include "ending.h"
#include "proc.h"

/* What the helper gets beyond the grace to end the tree by itself. */
#define ENDING_MARGIN_MS 5000LL

void ending_begin(struct ending *e, ruas_child *child, unsigned int grace)
{
	if (e->on)
		return;
	e->on = 1;
	ruas_child_terminate(child, NULL);
	e->kill_at = monotonic_ms() + 1000LL * grace + ENDING_MARGIN_MS;
}

void ending_kill_if_due(struct ending *e, ruas_child *child)
{
	if (!e->on || monotonic_ms() < e->kill_at)
		return;
	ruas_child_signal(child, SIGKILL, NULL);
	e->kill_at = monotonic_ms() + 3600 * 1000LL;
}
