/* SPDX-License-Identifier: ISC */
/* messages_limits.c - the texts of the "limits" check: a limit a run cannot be given. */
#include "check/messages.h"

#include "buf.h"
#include "check/messages_int.h"

struct words msg_limit_above_hard(const char *project, const char *user, const char *key,
				  unsigned long long value, const char *resource,
				  unsigned long long hard, const char *limits_item,
				  unsigned long long limits_value, int before_session)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, before_session ? "WARNING: " : "ERROR: ", project);
	buf_printf(&b, "%s %llu is above the hard %s (%llu) that runs as user ", key, value,
		   resource, hard);
	q(&b, user);
	buf_adds(&b, " get from sudo or PAM, so no run of it would start: ruas sets limits, it "
		     "cannot raise them.\n");
	if (before_session)
		buf_adds(&b, "On the pam backend this check runs before the PAM session, whose "
			     "pam_limits may set other hard limits: if they do not admit it either, "
			     "every run is refused as it starts.\n");
	size_t fx = b.len;
	buf_printf(&b, "Lower %s to %llu or less, or raise the hard limit of ", key, hard);
	q(&b, user);
	buf_printf(&b, " (pam_limits, for example in /etc/security/limits.conf: %s hard %s %llu).",
		   user, limits_item, limits_value);
	return msg_then_restart(&b, fx);
}

struct words msg_limit_unjudged(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "the hard limits that runs as user ");
	q(&b, user);
	buf_adds(&b, " get could not be read (the helper did not report them), so its "
		     "open_files_max or file_size_max cannot be judged.\n");
	size_t fx = b.len;
	buf_adds(&b, "Install the ruas-exec of this version of ruas (make install, or the "
		     "package).");
	return msg_then_restart(&b, fx);
}
