/* SPDX-License-Identifier: ISC */
/* messages_escalation.c - the texts of check 2: the target can escalate through sudo. */
#include "check/messages.h"

#include <string.h>

#include "buf.h"
#include "check/messages_int.h"
#include "proc.h"
#include "quote.h"

struct words msg_escalation(const char *user, const char *list)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: target user ");
	q(&b, user);
	buf_adds(&b, " can run passwordless sudo.\n"
		     "The user-spawn sandbox provides no isolation if the spawned agent "
		     "can escalate non-interactively.\n");
	size_t fx = b.len;
	buf_adds(&b, "Remove NOPASSWD sudo access for this user before starting ruas "
		     "with this project.\n");
	size_t fe = b.len;
	if (list && *list)
		msg_indent(&b, list);
	return msg_words(&b, fx, fe);
}

/* ------------------------------------------------ sudo rules of a target */

static const char no_isolation[] =
	"The user-spawn sandbox provides no isolation if the spawned agent "
	"can escalate non-interactively.\n";

struct words msg_sudo_rule(const char *user, const char *rule, const char *auth_line,
		    const char *allowed_but)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: target user ");
	q(&b, user);
	buf_adds(&b, " can run commands as another user without a password:\n");
	msg_indent(&b, rule);
	if (auth_line) {
		buf_adds(&b, "sudo asks it for no password at all, because of this Defaults entry:\n");
		msg_indent(&b, auth_line);
	}
	if (allowed_but)
		buf_printf(&b, "target_sudo_allowed names its command, but %s.\n", allowed_but);
	buf_adds(&b, no_isolation);
	size_t fx = b.len;
	buf_adds(&b, "Remove NOPASSWD (and !authenticate) from this rule for ");
	q(&b, user);
	buf_adds(&b, "; or, for a narrow command that cannot give a shell or write "
		     "a file, list its exact command in target_sudo_allowed.\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_sudo_rule_allowed(const char *user, const char *rule, const char *cmd)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: target user ");
	q(&b, user);
	buf_adds(&b, " can run ");
	q(&b, cmd);
	buf_adds(&b, " as another user without a password, which target_sudo_allowed "
		     "permits:\n");
	msg_indent(&b, rule);
	size_t fx = b.len;
	buf_adds(&b, "Make sure that no argument, environment variable or file it "
		     "reads lets the agent turn it into a shell.\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_sudo_unlisted(const char *user)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: the sudo rules of target user ");
	q(&b, user);
	buf_adds(&b, " could not be listed without a password (sudo -n -l: a password "
		     "is required).\n"
		     "Under sudo's default (listpw=any) that means none of them has NOPASSWD, "
		     "but listpw=always or listpw=all would hide one, and so would a "
		     "!authenticate bound to a runas user or a command (Defaults>USER, "
		     "Defaults!CMD).\n");
	size_t fx = b.len;
	buf_adds(&b, "To be sure, check as root, which reads every rule: ruas-setup check "
		     "--target ");
	quote_display(&b, user, 0);
	buf_adds(&b, " (or run ruas check as root); or let the target list its own "
		     "rules: Defaults:");
	quote_display(&b, user, 0);
	buf_adds(&b, " listpw=never (ruas-setup install writes it).\n");
	return msg_words(&b, fx, b.len);
}

struct words msg_sudo_list_unreadable(const char *user, const char *how, const char *why,
			       const char *said)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: the sudo rules of target user ");
	q(&b, user);
	buf_printf(&b, " could not be understood (%s: %s), so ruas cannot tell "
		       "whether it can escalate.\n", how, why);
	size_t fx = b.len;
	buf_adds(&b, "Look at them as root with: sudo -l -U ");
	quote_display(&b, user, 0);
	size_t fe = b.len;
	buf_adds(&b, "\n");
	if (said && *said) {
		buf_adds(&b, "sudo said:\n");
		msg_indent(&b, said);
	}
	return msg_words(&b, fx, fe);
}

/* SEVERITY, the project when there is one, and `target user "U"`. */
static void target_user(struct buf *b, const char *severity, const char *project,
			const char *user)
{
	msg_prefix(b, severity, project);
	buf_adds(b, "target user ");
	q(b, user);
}

struct words msg_password_empty(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	target_user(&b, "ERROR: ", project, user);
	buf_printf(&b, " has no password (passwd -S says NP). PAM takes an empty answer for it "
		       "(pam_unix's nullok, which Debian's common-auth sets), so every sudo rule of "
		       "\"%s\" that asks for a password asks for nothing, and su lets any local "
		       "user become it.\nFix: ", user);
	size_t fx = b.len;
	buf_printf(&b, "passwd -l %s (lock it; ruas-setup useradd makes its users locked).", user);
	return msg_then_restart(&b, fx);
}

struct words msg_password_unjudged(const char *project, const char *user, int rc, const char *said)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "WARNING: ", project);
	buf_adds(&b, "whether ");
	target_user(&b, "", NULL, user);
	buf_adds(&b, " has an empty password could not be judged: passwd -S, run as it, ");
	if (rc < 0)
	{
		char words[256];
		buf_printf(&b, "did not start (errno %d)%s", -rc,
			   descriptor_limit_words(-rc, words, sizeof words));
	}
	else
		buf_printf(&b, "exited %d", rc);
	buf_adds(&b, " and said: ");
	quote_display(&b, said && *said ? said : "nothing", 0);
	buf_adds(&b, ".\n");
	size_t fx = b.len;
	buf_printf(&b, "Check it as root: passwd -S %s (NP means no password; lock it with "
		       "passwd -l %s).\n", user, user);
	return msg_words(&b, fx, b.len);
}

struct words msg_root_password_empty(const char *project)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "root has no password. PAM takes an empty answer for it (pam_unix's nullok, "
		     "which Debian's common-auth sets), so su makes any local user root, every "
		     "agent included.\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "passwd -l root (or give root a password).");
	return msg_then_restart(&b, fx);
}

struct words msg_doas_root(const char *project, const char *user)
{
	struct buf b = BUF_INIT;
	target_user(&b, "ERROR: ", project, user);
	buf_adds(&b, " can run commands as root with doas without a password (doas -n true "
		     "succeeded as it): a rule of /etc/doas.conf permits it with nopass.\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "remove that rule, or drop its nopass (doas.conf(5)), so that doas asks ");
	q(&b, user);
	buf_adds(&b, " for a password it does not have.");
	return msg_then_restart(&b, fx);
}

struct words msg_targetpw_empty(const char *user, const char *runas, const char *rule)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: target user ");
	q(&b, user);
	buf_adds(&b, " can run commands as ");
	q(&b, runas);
	buf_adds(&b, " with sudo by giving that user's password, which is empty: Defaults "
		     "targetpw is in force for it, so the rule ");
	q(&b, rule);
	buf_adds(&b, " asks for the runas user's password, and pam_unix's nullok (Debian's "
		     "common-auth) takes an empty answer.\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "passwd -l ");
	quote_shell(&b, runas);
	buf_adds(&b, " (or give it a password), or drop targetpw for ");
	q(&b, user);
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}

struct words msg_doas_rule(const char *project, const char *user, const char *file, int line,
		    const char *text, const char *why)
{
	struct buf b = BUF_INIT;
	target_user(&b, "ERROR: ", project, user);
	buf_adds(&b, " can run commands as another user with doas without a password (");
	quote_display(&b, file, 0);
	buf_printf(&b, " line %d: ", line);
	q(&b, text);
	buf_adds(&b, "): ");
	quote_display(&b, why, 0);
	buf_adds(&b, ".\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "remove that rule, or drop its nopass (doas.conf(5)), as root.");
	return msg_then_restart(&b, fx);
}

struct words msg_polkit_way(const char *project, const char *user, const char *file, int line,
		     const char *text, const char *why)
{
	struct buf b = BUF_INIT;
	target_user(&b, "ERROR: ", project, user);
	buf_adds(&b, " is let act as root without a password by polkit (");
	quote_display(&b, file, 0);
	buf_printf(&b, " line %d: ", line);
	q(&b, text);
	buf_adds(&b, "): ");
	quote_display(&b, why, 0);
	buf_adds(&b, ". pkexec, systemctl and every D-Bus service that asks polkit take it as "
		     "leave.\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "remove that rule or entry (or take the user out of its group), as root.");
	return msg_then_restart(&b, fx);
}

struct words msg_pam_way(const char *project, const char *user, const char *service, const char *file,
		  int line, const char *text, const char *why)
{
	struct buf b = BUF_INIT;
	target_user(&b, "ERROR: ", project, user);
	buf_adds(&b, " passes the PAM auth stack of ");
	q(&b, service);
	buf_adds(&b, " without a password (");
	quote_display(&b, file, 0);
	buf_printf(&b, " line %d: ", line);
	q(&b, text);
	buf_adds(&b, "): ");
	quote_display(&b, why, 0);
	buf_adds(&b, ". Whatever asks it for a password through that service (su, a sudo rule, "
		     "doas, pkexec) asks for nothing.\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "remove that line, as root.");
	return msg_then_restart(&b, fx);
}
