/* SPDX-License-Identifier: ISC */
/* messages_people.c - the texts about people on one instance, and the audit's. */
#include "check/messages.h"

#include "buf.h"
#include "check/messages_int.h"
#include "quote.h"

struct words msg_escape(const char *project, const char *work_dir, const char *person,
		 const char *why)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: project ");
	q(&b, project);
	buf_adds(&b, " work_dir ");
	q(&b, work_dir);
	buf_adds(&b, " does not stay inside the scope of person ");
	q(&b, person);
	buf_adds(&b, ": ");
	quote_display(&b, why, 0);
	buf_adds(&b, ".\n");
	size_t fx = b.len;
	buf_adds(&b, "Point work_dir at a real directory inside the person's scope, with no "
		     "\"..\" or symlink that leaves it and no absolute symlink.");
	return msg_then_restart(&b, fx);
}

struct words msg_bwrap(const char *project, const char *user, const char *said)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: project ");
	q(&b, project);
	buf_adds(&b, ": people.enforce = \"bwrap\", but bubblewrap cannot run as user ");
	q(&b, user);
	buf_adds(&b, ".\n");
	size_t fx = b.len;
	buf_adds(&b, "Install it (apt-get install bubblewrap) and allow unprivileged user "
		     "namespaces (sysctl kernel.unprivileged_userns_clone=1), or set enforce = "
		     "\"none\" and rely on deny rules alone.");
	size_t fe = b.len;
	buf_adds(&b, " Then restart ruas.\n");
	if (said && *said) {
		buf_adds(&b, "bwrap said:\n");
		msg_indent(&b, said);
	}
	return msg_words(&b, fx, fe);
}

struct words msg_shared_user(const char *project, const char *person, const char *user,
		      const char *others, int bwrap)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: project ");
	q(&b, project);
	buf_adds(&b, ": person ");
	q(&b, person);
	buf_adds(&b, " shares run_as_user ");
	q(&b, user);
	buf_printf(&b, " with %s, so the OS does not keep them apart: ", others);
	buf_adds(&b, bwrap ? "bubblewrap masks each other's paths (enforce = \"bwrap\").\n"
			   : "deny rules handed to the agent are their only barrier.\n");
	size_t fx = b.len;
	if (!bwrap)
		buf_adds(&b, "Give each person their own run_as_user, or set people.enforce = "
			     "\"bwrap\".\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_audit_readable(const char *person, const char *user, const char *path,
			 int supervisor_secret)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: person ");
	q(&b, person);
	buf_adds(&b, " (user ");
	q(&b, user);
	buf_adds(&b, ") can read ");
	q(&b, path);
	buf_adds(&b, supervisor_secret ? ", one of the supervisor's secrets" : "");
	buf_adds(&b, ": isolation there rests on deny rules only.\n");
	size_t fx = b.len;
	buf_adds(&b, supervisor_secret ? "Make the supervisor's home private: chmod 0700 on it.\n"
				       : "Make it unreadable to that user (chmod 0700, or give each "
					 "person their own run_as_user), or set people.enforce = "
					 "\"bwrap\".\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_audit_shared(const char *person, const char *other, const char *user, int bwrap)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: persons ");
	q(&b, person);
	buf_adds(&b, " and ");
	q(&b, other);
	buf_adds(&b, " share run_as_user ");
	q(&b, user);
	buf_adds(&b, bwrap ? ": the OS does not keep them apart; bubblewrap masks each other's "
			     "deny paths.\n"
			   : ": the OS does not keep them apart; deny rules are their only "
			     "barrier.\n");
	return msg_words(&b, b.len, b.len);
}
