/* SPDX-License-Identifier: ISC */
/* messages_lifetime.c - lifetime texts: who owns the agent's tree, what outlives a run. */
#include "check/messages.h"

#include <string.h>

#include "buf.h"
#include "check/lifetime.h"
#include "check/messages_int.h"
#include "quote.h"

/* before, user as one shell word, after: every command of the fix names the user this way. */
static void cmd(struct buf *b, const char *before, const char *user, const char *after)
{
	buf_adds(b, before);
	quote_shell(b, user);
	buf_adds(b, after);
}

/* "  it may use crontab: /etc/cron.deny does not name it.", or nothing. */
static void sched_line(struct buf *b, const char *program, const char *none, const struct sched *s)
{
	if (s->verdict == SCHED_NO)
		return;
	buf_printf(b, "  it may use %s: ", program);
	switch (s->verdict) {
	case SCHED_ALLOW_LISTED:
		buf_printf(b, "%s names it.\n", s->file);
		break;
	case SCHED_DENY_UNLISTED:
		buf_printf(b, "%s does not name it.\n", s->file);
		break;
	case SCHED_UNREADABLE:
		buf_printf(b, "%s exists, but could not be read (ruas check as root can read it).\n",
			   s->file);
		break;
	default:
		buf_printf(b, "%s.\n", none);
		break;
	}
}

/* The fix of one verdict: off the allow file where it decides, else onto the deny file. */
static void sched_fix(struct buf *b, const char *user, const char *deny, const struct sched *s)
{
	int off_allow = s->verdict == SCHED_ALLOW_LISTED ||
			(s->verdict == SCHED_UNREADABLE && strcmp(s->file, deny) != 0);
	if (s->verdict == SCHED_NO)
		return;
	cmd(b, off_allow ? "  remove " : "  echo ", user, off_allow ? " from " : " >> ");
	buf_printf(b, "%s\n", off_allow ? s->file : deny);
	if (s->verdict == SCHED_UNREADABLE)
		buf_printf(b, "  chmod 0644 %s   (it holds only user names; then ruas check can "
			      "judge it)\n",
			   s->file);
}

static void lifetime_whys(struct buf *b, const char *user, const struct outlives *lt)
{
	if (lt->linger) {
		buf_adds(b, "  lingering is enabled (/var/lib/systemd/linger/");
		quote_display(b, user, 0);
		buf_adds(b, "): its systemd user manager runs whether or not it is logged in.\n");
	}
	if (lt->manager)
		buf_adds(b, "  a systemd user manager (systemd --user) is running for it: "
			    "systemd-run --user and systemctl --user start processes there. A login "
			    "through sudo -i or the ruas PAM service starts one where pam_systemd is in "
			    "its PAM stack.\n");
	sched_line(b, "crontab", "neither /etc/cron.allow nor /etc/cron.deny exists", &lt->cron);
	if (lt->crontab) {
		buf_adds(b, "  it has a crontab (/var/spool/cron/crontabs/");
		quote_display(b, user, 0);
		buf_adds(b, "), which cron runs.\n");
	}
	sched_line(b, "at", "neither /etc/at.allow nor /etc/at.deny exists", &lt->at);
}

struct words msg_lifetime(const char *user, const struct outlives *lt)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: target user ");
	q(&b, user);
	buf_adds(&b, " can hand processes to something that outlives a run:\n");
	lifetime_whys(&b, user, lt);
	buf_adds(&b, "ruas ends the agent's process tree when a run ends; what the agent hands to "
		     "these is not in that tree, and keeps running as ");
	q(&b, user);
	buf_adds(&b, " after it.\n");
	size_t fx = b.len;
	buf_adds(&b, "Turn off what it does not need, or accept the risk:\n");
	if (lt->linger)
		cmd(&b, "  loginctl disable-linger ", user, "\n");
	if (lt->manager) {
		cmd(&b, "  loginctl terminate-user ", user, "   (stops the running manager, and ");
		buf_adds(&b, "every process of ");
		q(&b, user);
		buf_adds(&b, ")\n");
	}
	sched_fix(&b, user, "/etc/cron.deny", &lt->cron);
	if (lt->crontab)
		cmd(&b, "  crontab -r -u ", user, "\n");
	sched_fix(&b, user, "/etc/at.deny", &lt->at);
	return msg_words(&b, fx, b.len);
}

/* What the subreaper leaves open, the same words wherever it is in force. */
static void residual_risk(struct buf *b, const char *user)
{
	buf_adds(b, "ruas-exec, which owns the agent's process tree, runs as user ");
	q(b, user);
	buf_adds(b, " like the agent, so the agent can kill or stop its own supervision (kill "
		    "-KILL or -STOP of its parent) and leave processes running after the run "
		    "has ended.\n");
}

struct words msg_lifetime_subreaper(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "lifetime = \"subreaper\": ");
	residual_risk(&b, user);
	size_t fx = b.len;
	buf_adds(&b, "Set lifetime = \"auto\" (the default) or \"pidns\" to run the agent in a PID "
		     "namespace of its own, which it can neither leave nor end early.\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_lifetime_sudo_allowed(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "lifetime = \"auto\" falls back to the subreaper on the sudo backend, because "
		     "of target_sudo_allowed: sudo, a set-user-ID program, cannot work in the user "
		     "namespace that the agent's PID namespace needs there. ");
	residual_risk(&b, user);
	size_t fx = b.len;
	buf_adds(&b, "Use the pam backend (a root supervisor), whose PID namespace keeps sudo "
		     "working, or set lifetime = \"pidns\" if the agent can do without sudo.\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_lifetime_unavailable(const char *project, const char *user, int pam, int required,
			       const char *why)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, required ? "ERROR: " : "WARNING: ", project);
	buf_adds(&b, required ? "lifetime = \"pidns\", but " : "lifetime = \"auto\" falls back to "
							       "the subreaper: ");
	buf_adds(&b, pam ? "root cannot make a PID namespace for the agent here"
			 : "no PID namespace can be made for the agent here (it needs unprivileged "
			   "user namespaces)");
	if (why && *why) {
		buf_adds(&b, ": ");
		quote_display(&b, why, 0);
	}
	if (required) {
		buf_adds(&b, ".\nEvery run of the project would be refused.\n");
	} else {
		buf_adds(&b, ".\n");
		residual_risk(&b, user);
	}
	size_t fx = b.len;
	buf_adds(&b, pam ? "Allow root to create namespaces (in a container: CAP_SYS_ADMIN and a "
			   "seccomp profile that allows unshare)"
			 : "Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 "
			   "and user.max_user_namespaces > 0; in a container, a seccomp profile that "
			   "allows unshare)");
	buf_adds(&b, required ? ", or set lifetime = \"auto\" to fall back to the subreaper.\n"
			      : ".");
	size_t fe = b.len;
	if (!required)
		buf_adds(&b, " Then restart ruas.\n");
	return msg_words(&b, fx, fe);
}

struct words msg_lifetime_no_sudo(const char *project)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "lifetime = \"pidns\" runs the agent in a user namespace on the sudo backend, "
		     "where sudo, a set-user-ID program, cannot work: the commands of "
		     "target_sudo_allowed will fail for the agent.\n");
	size_t fx = b.len;
	buf_adds(&b, "Use the pam backend (a root supervisor), or lifetime = \"auto\", which "
		     "keeps the subreaper for this project.\n");
	return msg_words(&b, fx, b.len);
}
