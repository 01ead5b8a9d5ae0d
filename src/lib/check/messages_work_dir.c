/* SPDX-License-Identifier: ISC */
/* messages_work_dir.c - the texts of check 3 and the scan: the target's access to work_dir. */
#include "check/messages.h"

#include <errno.h>
#include <string.h>

#include "buf.h"
#include "check/messages_int.h"
#include "quote.h"
#include "helper_report.h"

static void not_accessible(struct buf *b, const char *project, const char *work_dir,
			   const char *user)
{
	buf_adds(b, "ERROR: project ");
	q(b, project);
	buf_adds(b, " work_dir ");
	q(b, work_dir);
	buf_adds(b, " is not accessible to user ");
	q(b, user);
	buf_adds(b, ".\n");
}

struct words msg_work_dir_denied(const char *project, const char *work_dir,
			  const char *user, const struct dir_result *d)
{
	struct buf b = BUF_INIT;
	const char *what = strcmp(d->missing, "x") == 0 ? "search (x) permission"
			   : strcmp(d->missing, "r") == 0 ? "read (r) permission"
							  : "read and search (rx) permission";
	not_accessible(&b, project, work_dir, user);
	buf_printf(&b, "Missing: %s on ", what);
	q(&b, d->path);
	buf_printf(&b, " (mode %03o owner ", d->mode);
	quote_display(&b, d->owner, 0);
	buf_adds(&b, ").\n");
	size_t fx = b.len;
	buf_adds(&b, "Grant it, for example with:\n");
	buf_printf(&b, "  setfacl -m u:%s:%s ", user, d->missing);
	quote_shell(&b, d->path);
	buf_adds(&b, "\nor change the owner or mode of ");
	q(&b, d->path);
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}

struct words msg_work_dir_missing(const char *project, const char *work_dir,
			   const char *user, const struct dir_result *d,
			   const char *config)
{
	struct buf b = BUF_INIT;
	not_accessible(&b, project, work_dir, user);
	buf_adds(&b, "Missing: ");
	q(&b, d->path);
	buf_printf(&b, " %s (%s).\n",
		   d->errnum == ENOTDIR ? "is not a directory" : "cannot be reached",
		   strerror(d->errnum));
	size_t fx = b.len;
	buf_adds(&b, "Create the directory, or correct work_dir in ");
	quote_display(&b, config, 0);
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}

void msg_scan_reasons(struct buf *b, unsigned int flags)
{
	const char *sep = "";
	if (flags & SCAN_NOT_READABLE) {
		buf_adds(b, "not readable");
		sep = ", ";
	}
	if (flags & SCAN_NOT_WRITABLE) {
		buf_printf(b, "%snot writable", sep);
		sep = ", ";
	}
	if (flags & SCAN_NOT_SEARCHABLE)
		buf_printf(b, "%snot searchable", sep);
}

struct words msg_scan(const char *project, const char *work_dir, const char *user,
	       const struct scan_item *items, size_t nitems,
	       unsigned long long total)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: project ");
	q(&b, project);
	buf_adds(&b, " work_dir ");
	q(&b, work_dir);
	buf_adds(&b, " contains paths that user ");
	q(&b, user);
	buf_adds(&b, " may not be able to access cleanly:\n");
	for (size_t i = 0; i < nitems; i++) {
		buf_adds(&b, "  ");
		quote_display(&b, items[i].path, 0);
		buf_adds(&b, " (");
		msg_scan_reasons(&b, items[i].flags);
		buf_printf(&b, ", mode %03o owner ", items[i].mode);
		quote_display(&b, items[i].owner, 0);
		buf_adds(&b, ")\n");
	}
	if (total > nitems)
		buf_printf(&b, "  ... and %llu more\n", total - nitems);
	buf_adds(&b, "\nThe agent may fail with EACCES when accessing these paths. ");
	size_t fx = b.len;
	buf_adds(&b, "Fix ownership/permissions, narrow the project scope, or accept "
		     "the risk if the inaccessible paths are intentionally out of "
		     "bounds.\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_scan_incomplete(const char *project, const char *work_dir,
			  unsigned long long entries, unsigned int seconds,
			  const char *config)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: project ");
	q(&b, project);
	buf_adds(&b, " work_dir ");
	q(&b, work_dir);
	buf_printf(&b, ": scan incomplete after %llu entries (time limit of %u "
		       "seconds reached, too many open directories, or a tree "
		       "deeper than %u levels); paths beyond were not checked.\n",
		   entries, seconds, SCAN_MAX_DEPTH);
	size_t fx = b.len;
	buf_adds(&b, "Raise scan_time_limit in ");
	quote_display(&b, config, 0);
	buf_adds(&b, ", or narrow the project scope with scan_prune.\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_work_dir_trusted(const char *project, const char *work_dir, const char *resolved,
			   const char *how, const char *tree)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: project ");
	q(&b, project);
	buf_adds(&b, " work_dir ");
	q(&b, work_dir);
	if (strcmp(resolved, work_dir) != 0) {
		buf_adds(&b, " (that is ");
		q(&b, resolved);
		buf_adds(&b, ")");
	}
	buf_printf(&b, " %s %s, which root and the system trust: an agent that may write there, "
		       "or a grant of it (ruas-setup acl), can change what root runs or reads.\n",
		   how, tree);
	size_t fx = b.len;
	buf_adds(&b, "Use a directory of the project's own, such as /srv/ruas/");
	quote_display(&b, project, 0);
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}
