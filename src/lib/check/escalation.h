/* SPDX-License-Identifier: ISC */
/*
 * escalation.h - check 2: can the target run anything as somebody else
 * without a password? Judged from what the probes saw.
 */
#ifndef RUAS_ESCALATION_H
#define RUAS_ESCALATION_H

#include <stddef.h>

#include "ruas.h"

struct esc_evidence {
	/* As the target (ruas-exec): without a terminal and on a pty of its own. */
	int true_rc, tty_true_rc;
	int list_rc, tty_list_rc;
	const char *list, *tty_list;
	/* As root: `sudo -n -l -U TARGET`, exact whatever listpw says. */
	int root_ran;
	int root_rc;
	const char *root_list;
	/* A listing longer than what was kept of it. */
	int list_truncated, tty_list_truncated, root_truncated;
};

/*
 * Adds entry idx's escalation findings ("escalation") to rep. allowed is
 * NULL or a NULL-terminated list of commands (as sudo -l prints them) that
 * the operator accepts without a password: those are warnings. 0, or -1
 * when out of memory.
 */
int escalation_report(ruas_report *rep, size_t idx, const char *user,
		      const struct esc_evidence *ev, char *const *allowed);

#endif
