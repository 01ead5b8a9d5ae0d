/* SPDX-License-Identifier: ISC */
/*
 * messages.c - see messages.h: the pieces every text is built from, and the
 * texts of check 1 (passwordless sudo to the target, or the pam backend).
 * Untrusted text is always escaped.
 */
#include "check/messages.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check/messages_int.h"
#include "pam_service.h"
#include "proc.h"
#include "spawn/sudo_call.h"
#include "quote.h"

void msg_indent(struct buf *b, const char *text)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		if (!line) {
			b->oom = 1;
			return;
		}
		buf_adds(b, "  ");
		quote_controls(b, line);
		buf_addc(b, '\n');
		free(line);
		p += n + (nl ? 1 : 0);
	}
}

/* A NULL project means a check of a target alone (ruas-setup check). */
static void project_needs(struct buf *b, const char *project, const char *user)
{
	if (!project) {
		buf_adds(b, "ERROR: passwordless sudo to user ");
		q(b, user);
		buf_adds(b, " is required");
		return;
	}
	buf_adds(b, "ERROR: project ");
	q(b, project);
	buf_adds(b, " requires passwordless sudo to user ");
	q(b, user);
}

void words_free(struct words *w)
{
	free(w->text);
	free(w->fix);
	w->text = w->fix = NULL;
}

struct words msg_words(struct buf *b, size_t from, size_t to)
{
	struct words w = {NULL, NULL};
	while (to > from && b->data && (b->data[to - 1] == '\n' || b->data[to - 1] == ' '))
		to--;
	if (!b->oom && b->data && to > from && !(w.fix = strndup(b->data + from, to - from)))
		b->oom = 1;
	if (b->oom) {
		buf_free(b);
		return w;
	}
	w.text = buf_detach(b);
	if (!w.text)
		words_free(&w);
	return w;
}

struct words msg_then_restart(struct buf *b, size_t from)
{
	size_t to = b->len;
	buf_adds(b, " Then restart ruas.\n");
	return msg_words(b, from, to);
}

void msg_prefix(struct buf *b, const char *severity, const char *project)
{
	buf_adds(b, severity);
	if (project) {
		buf_adds(b, "project ");
		q(b, project);
		buf_adds(b, ": ");
	}
}

static void sudoers_example(struct buf *b, const char *user, const char *supervisor)
{
	buf_adds(b, "Add a sudoers rule that allows user ");
	q(b, supervisor);
	buf_adds(b, " to run commands as ");
	q(b, user);
	buf_adds(b, " without a password, for example:\n  ");
	quote_display(b, supervisor, 0);
	buf_printf(b, " ALL=(%s) NOPASSWD: ALL\n", user);
}

struct words msg_sudo_not_configured(const char *project, const char *user,
				     const char *supervisor, const char *sudo_said)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but it is not configured.\n");
	size_t fx = b.len;
	sudoers_example(&b, user, supervisor);
	size_t fe = b.len;
	buf_adds(&b, "Then restart ruas.\n");
	if (sudo_said && *sudo_said && strcmp(sudo_said, "sudo: a password is required\n") != 0) {
		buf_adds(&b, "sudo said:\n");
		msg_indent(&b, sudo_said);
	}
	return msg_words(&b, fx, fe);
}

/* The first line when there is no such user, or sudo says so. */
static void user_does_not_exist(struct buf *b, const char *project, const char *user)
{
	project_needs(b, project, user);
	buf_adds(b, ", but user ");
	q(b, user);
	buf_adds(b, " does not exist.\n");
}

struct words msg_user_missing(const char *project, const char *user,
			      const char *supervisor)
{
	struct buf b = BUF_INIT;
	user_does_not_exist(&b, project, user);
	size_t fx = b.len;
	buf_printf(&b, "Create it, for example with: ruas-setup useradd --target %s | sh\n", user);
	sudoers_example(&b, user, supervisor);
	size_t fe = b.len;
	buf_adds(&b, "Then restart ruas.\n");
	return msg_words(&b, fx, fe);
}

struct words msg_user_unread(const char *project, const char *user, unsigned long uid,
			     const char *sudo_said)
{
	struct buf b = BUF_INIT;
	user_does_not_exist(&b, project, user);
	/* The line above is what sudo said; this process knows better. */
	buf_adds(&b, "That is what sudo says, but this process finds user ");
	q(&b, user);
	buf_printf(&b, " (uid %lu): sudo could not read its passwd entry.\n", uid);
	size_t fx = b.len;
	buf_adds(&b, "Make the user database readable to sudo: check /etc/nsswitch.conf and the "
		     "services it names (sudo reads them as root, with this process's limits), "
		     "then try it by hand: ");
	buf_printf(&b, "sudo -n -u %s -- true\n", user);
	size_t fe = b.len;
	buf_adds(&b, "Then restart ruas.\n");
	if (sudo_said && *sudo_said) {
		buf_adds(&b, "sudo said:\n");
		msg_indent(&b, sudo_said);
	}
	return msg_words(&b, fx, fe);
}

/* The fix of a login shell that sudo -i cannot use. */
static struct words login_shell_fix(struct buf *b, const char *user)
{
	size_t fx = b->len;
	buf_printf(b, "Give it a real login shell, for example:\n  usermod -s /bin/bash %s\n",
		   user);
	size_t fe = b->len;
	buf_adds(b, "Then restart ruas.\n");
	return msg_words(b, fx, fe);
}

struct words msg_nologin(const char *project, const char *user, const char *shell)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but its login shell ");
	q(&b, shell);
	buf_adds(&b, " refuses logins, so sudo -i cannot run anything as it.\n");
	return login_shell_fix(&b, user);
}

struct words msg_shell_missing(const char *project, const char *user, const char *shell)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but its login shell ");
	q(&b, shell);
	buf_adds(&b, " does not exist or is not executable, so sudo -i cannot work.\n");
	return login_shell_fix(&b, user);
}

struct words msg_sudo_missing(const char *project, const char *user, const char *sudo,
			      const char *config)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but sudo is not installed: ");
	q(&b, sudo);
	buf_adds(&b, " cannot be executed.\n");
	size_t fx = b.len;
	buf_adds(&b, "Install it (apt-get install sudo), or set sudo = \"/path/to/sudo\" in ");
	quote_display(&b, config, 0);
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}

struct words msg_helper_failed(const char *project, const char *user,
			       const char *helper, int status, const char *said)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "sudo to user ");
	q(&b, user);
	buf_adds(&b, " works, but the ruas helper ");
	q(&b, helper);
	buf_printf(&b, " could not be run as that user (exit status %d).\n", status);
	size_t fx = b.len;
	buf_printf(&b, "Check that ruas is installed and that %s can search every "
		       "directory above the helper.", user);
	size_t fe = b.len;
	buf_adds(&b, " Then restart ruas.\n");
	if (said && *said) {
		buf_adds(&b, "sudo said:\n");
		msg_indent(&b, said);
	}
	return msg_words(&b, fx, fe);
}

struct words msg_helper_readable(const char *project, const char *user, const char *helper,
				 unsigned int mode)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "the ruas helper ");
	q(&b, helper);
	buf_printf(&b, " can be read by other users (mode %04o): until its first instruction it "
		       "runs open to ptrace as user ", mode);
	q(&b, user);
	buf_adds(&b, ", whose processes may stop it and take the spawn channel (the payload's "
		     "secrets, the check's report).\nFix: ");
	size_t fx = b.len;
	buf_adds(&b, "chmod 0711 ");
	q(&b, helper);
	buf_adds(&b, " (make install and the Debian package leave it so).");
	return msg_then_restart(&b, fx);
}

struct words msg_sudo_failed(const char *project, const char *user, int status,
			     int timed_out, unsigned int timeout_s, const char *said)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "the checks run as user ");
	q(&b, user);
	if (timed_out)
		buf_printf(&b, " through sudo did not finish within %u seconds.\n", timeout_s);
	else if (status > 128)
		buf_printf(&b,
			   " through sudo ended by signal %d without a report.\n"
			   "The signal ended sudo or the ruas helper it ran: sudo ends by the "
			   "signal that ended its command.\n",
			   status - 128);
	else
		buf_printf(&b, " through sudo failed (exit status %d) without a report.\n", status);
	size_t fx = b.len;
	buf_printf(&b, "Try it by hand: sudo -n -u %s -- true\n", user);
	if (sudo_failed_itself(said, user)) {
		char why[SUDO_WORDS_MAX];
		buf_adds(&b, sudo_failure_words(said, why, sizeof why));
		buf_adds(&b, ".");
	} else {
		buf_adds(&b, "Fix what it shows (sudo, its PAM session, or the ruas helper; no login "
			     "file of the target runs in a check).");
	}
	size_t fe = b.len;
	buf_adds(&b, " Then restart ruas.\n");
	if (said && *said) {
		buf_adds(&b, "It said:\n");
		msg_indent(&b, said);
	}
	return msg_words(&b, fx, fe);
}

struct words msg_internal(const char *project, const char *user, const char *what)
{
	return msg_internal_errno(project, user, what, 0);
}

struct words msg_internal_errno(const char *project, const char *user, const char *what,
				int errnum)
{
	struct buf b = BUF_INIT;
	msg_prefix(&b, "ERROR: ", project);
	buf_adds(&b, "could not check user ");
	q(&b, user);
	buf_printf(&b, ": %s", what);
	if (errnum) {
		char words[256];
		buf_printf(&b, ": %s%s", strerror(errnum),
			   descriptor_limit_words(errnum, words, sizeof words));
	}
	buf_adds(&b, ".\n");
	size_t fx = b.len;
	buf_adds(&b, "Find what kept ruas from checking it (the system log may say), fix it, and "
		     "check again.");
	return msg_then_restart(&b, fx);
}

static void runs_through_pam(struct buf *b, const char *project, const char *user)
{
	buf_adds(b, "ERROR: project ");
	q(b, project);
	buf_adds(b, " runs as user ");
	q(b, user);
	buf_adds(b, " through PAM");
}

/* "ERROR: project P runs as user U through PAM (service S), but " */
static void through_service_but(struct buf *b, const char *project, const char *user,
				const char *service)
{
	runs_through_pam(b, project, user);
	buf_adds(b, " (service ");
	q(b, service);
	buf_adds(b, "), but ");
}

struct words msg_pam_account(const char *project, const char *user, const char *service,
			     const char *reason)
{
	struct buf b = BUF_INIT;
	through_service_but(&b, project, user, service);
	buf_adds(&b, "PAM refused the account: ");
	quote_display(&b, reason, 0);
	buf_adds(&b, ".\n");
	size_t fx = b.len;
	buf_printf(&b, "Fix the account (for example: chage -E -1 %s; usermod -U %s) "
		       "or the account stack of /etc/pam.d/", user, user);
	quote_display(&b, service, 0);
	buf_adds(&b, ".");
	return msg_then_restart(&b, fx);
}

struct words msg_pam_service(const char *project, const char *user, const char *service,
			     const char *why)
{
	struct buf b = BUF_INIT;
	through_service_but(&b, project, user, service);
	quote_display(&b, why, 0);
	buf_adds(&b, ".\nFix: ");
	size_t fx = b.len;
	buf_printf(&b, "%s.", pam_service_fix(service));
	return msg_then_restart(&b, fx);
}

struct words msg_pam_unusable(const char *project, const char *user, const char *what,
			      const char *fix)
{
	struct buf b = BUF_INIT;
	runs_through_pam(&b, project, user);
	buf_printf(&b, ", but %s.\n", what);
	size_t fx = b.len;
	buf_adds(&b, fix);
	return msg_then_restart(&b, fx);
}

struct words msg_pam_failed(const char *project, const char *user, const char *path,
			    int status, int not_installed, const char *said)
{
	struct buf b = BUF_INIT;
	runs_through_pam(&b, project, user);
	buf_adds(&b, ", but the pam backend's helper ");
	q(&b, path);
	if (not_installed)
		buf_adds(&b, " cannot be executed.\n");
	else
		buf_printf(&b, " failed (exit status %d).\n", status);
	size_t fx = b.len;
	buf_adds(&b, not_installed ? "Install ruas, or set session_helper in the configuration."
				   : "Check that ruas is installed, that the supervisor runs as "
				     "root, and that the ruas helper can be run by the target.");
	size_t fe = b.len;
	buf_adds(&b, " Then restart ruas.\n");
	if (said && *said) {
		buf_adds(&b, "It said:\n");
		msg_indent(&b, said);
	}
	return msg_words(&b, fx, fe);
}

