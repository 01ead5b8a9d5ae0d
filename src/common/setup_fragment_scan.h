/* SPDX-License-Identifier: ISC */
/*
 * setup_fragment_scan.h - which of ruas-setup's fragments in a sudoers.d
 * directory are stray, judged the same way for ruas check and ruas-setup
 * prune (docs/ruas-setup.md "Uninstalling").
 *
 * A fragment (setup_fragment.h) is current when its supervisor is a current
 * one and every target it grants is the run_as_user of a project. It is
 * stray, and prune removes it, when its supervisor is another (a renamed
 * supervisor's) or none of its targets is in a project; it is mixed,
 * reported with the fix of regenerating it, when some are and some are not.
 * Files sudo skips ('.' in the name, a trailing '~'), symlinks and anything
 * but regular files are never looked at, so never removed.
 */
#ifndef RUAS_SETUP_FRAGMENT_SCAN_H
#define RUAS_SETUP_FRAGMENT_SCAN_H

#include <stddef.h>

#include "setup_fragment.h"

enum fragment_verdict {
	FRAGMENT_CURRENT = 0,
	FRAGMENT_OTHER_SUPERVISOR, /* stray: another supervisor's */
	FRAGMENT_NO_PROJECT,	   /* stray: none of its targets in a project */
	FRAGMENT_MIXED,		   /* some targets in no project: regenerate it */
	FRAGMENT_NOT_UNDERSTOOD,   /* headed, not understood: left, reported */
};

struct fragment_entry {
	char *name;
	struct setup_fragment f;
	enum fragment_verdict verdict;
};

struct fragment_scan {
	struct fragment_entry *e; /* ruas-setup's files only, in strcmp order */
	size_t n;
	/* The supervisors taken as current, NULL-terminated (never NULL after a scan). */
	char **current;
	size_t ncurrent;
	int guessed; /* no supervisor was given: current are those that grant users of projects */
	size_t unreadable; /* files sudo reads that this process may not (EACCES): not judged */
};

/*
 * Reads the directory dfd (not closed; read through a duplicate) and judges
 * each of ruas-setup's files. supervisor: the configured one; NULL to take
 * as current every supervisor of a fragment that grants a user of
 * project_users (NULL-terminated). 0, or -1 with errno (ENOMEM, or the
 * directory's read error).
 */
int fragment_scan(int dfd, const char *supervisor, const char *const *project_users,
		  struct fragment_scan *out);
void fragment_scan_free(struct fragment_scan *s);

/* The targets of e that are (in_project 1) or are not (0) in project_users, as "a, b". NULL on OOM. */
char *fragment_targets_text(const struct fragment_entry *e,
			    const char *const *project_users, int in_project);

#endif
