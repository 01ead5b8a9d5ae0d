/* SPDX-License-Identifier: ISC */
/* ending.h - the end of a run that ruas was told to end (SIGTERM). */
#ifndef RUAS_TOOLS_ENDING_H
#define RUAS_TOOLS_ENDING_H

#include "ruas.h"

/*
 * After a terminate the tree gets the grace period, then a margin in which
 * the helper's own SIGKILL should have ended it; past that, SIGKILL goes
 * to it from here (the helper then sees its parent die and kills what is
 * left). One piece for the plain wait (run.c) and the pty relay (relay.c).
 */
struct ending {
	int on;            /* a terminate was sent */
	long long kill_at; /* monotonic ms: when SIGKILL is due */
};

/* Terminates the child's tree, once; later calls do nothing. */
void ending_begin(struct ending *e, ruas_child *child, unsigned int grace);

/* SIGKILL to the child's tree once the deadline is past (then again an hour later). */
void ending_kill_if_due(struct ending *e, ruas_child *child);

#endif
