/* messages.c - see messages.h. Untrusted text is always escaped. */
#include "check/messages.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "quote.h"
#include "wire.h"

static void q(struct buf *b, const char *s)
{
	quote_display_dq(b, s);
}

/* Indents every line of untrusted tool output by two spaces, escaped. */
static void indent(struct buf *b, const char *text)
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

/* "ERROR: project "p": " or, without a project, "ERROR: ". */
static void prefix(struct buf *b, const char *severity, const char *project)
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

char *msg_sudo_not_configured(const char *project, const char *user,
			      const char *supervisor, const char *sudo_said)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but it is not configured.\n");
	sudoers_example(&b, user, supervisor);
	buf_adds(&b, "Then restart ruas.\n");
	if (sudo_said && *sudo_said && strcmp(sudo_said, "sudo: a password is required\n") != 0) {
		buf_adds(&b, "sudo said:\n");
		indent(&b, sudo_said);
	}
	return buf_detach(&b);
}

char *msg_user_missing(const char *project, const char *user,
		       const char *supervisor)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but user ");
	q(&b, user);
	buf_adds(&b, " does not exist.\n");
	buf_printf(&b, "Create it, for example with: ruas-setup useradd --target %s | sh\n", user);
	sudoers_example(&b, user, supervisor);
	buf_adds(&b, "Then restart ruas.\n");
	return buf_detach(&b);
}

char *msg_nologin(const char *project, const char *user, const char *shell)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but its login shell ");
	q(&b, shell);
	buf_adds(&b, " refuses logins, so sudo -i cannot run anything as it.\n");
	buf_printf(&b, "Give it a real login shell, for example:\n  usermod -s /bin/bash %s\n"
		       "Then restart ruas.\n", user);
	return buf_detach(&b);
}

char *msg_shell_missing(const char *project, const char *user, const char *shell)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but its login shell ");
	q(&b, shell);
	buf_adds(&b, " does not exist or is not executable, so sudo -i cannot work.\n");
	buf_printf(&b, "Give it a real login shell, for example:\n  usermod -s /bin/bash %s\n"
		       "Then restart ruas.\n", user);
	return buf_detach(&b);
}

char *msg_sudo_missing(const char *project, const char *user, const char *sudo,
		       const char *config)
{
	struct buf b = BUF_INIT;
	project_needs(&b, project, user);
	buf_adds(&b, ", but sudo is not installed: ");
	q(&b, sudo);
	buf_adds(&b, " cannot be executed.\n");
	buf_adds(&b, "Install it (apt-get install sudo), or set sudo = \"/path/to/sudo\" in ");
	quote_display(&b, config, 0);
	buf_adds(&b, ". Then restart ruas.\n");
	return buf_detach(&b);
}

char *msg_helper_failed(const char *project, const char *user,
			const char *helper, int status, const char *said)
{
	struct buf b = BUF_INIT;
	prefix(&b, "ERROR: ", project);
	buf_adds(&b, "sudo to user ");
	q(&b, user);
	buf_adds(&b, " works, but the ruas helper ");
	q(&b, helper);
	buf_printf(&b, " could not be run as that user (exit status %d).\n", status);
	buf_printf(&b, "Check that ruas is installed and that %s can search every "
		       "directory above the helper. Then restart ruas.\n", user);
	if (said && *said) {
		buf_adds(&b, "The login shell said:\n");
		indent(&b, said);
	}
	return buf_detach(&b);
}

char *msg_sudo_failed(const char *project, const char *user, int status,
		      int timed_out, unsigned int timeout_s, const char *said)
{
	struct buf b = BUF_INIT;
	prefix(&b, "ERROR: ", project);
	buf_adds(&b, "the checks run as user ");
	q(&b, user);
	if (timed_out)
		buf_printf(&b, " through sudo did not finish within %u seconds.\n", timeout_s);
	else
		buf_printf(&b, " through sudo failed (exit status %d) without a report.\n", status);
	buf_printf(&b, "Try it by hand: sudo -n -iu %s -- true\n"
		       "Fix what it shows (the target's ~/.profile or ~/.bash_profile "
		       "must not wait for input or exit). Then restart ruas.\n", user);
	if (said && *said) {
		buf_adds(&b, "It said:\n");
		indent(&b, said);
	}
	return buf_detach(&b);
}

char *msg_escalation(const char *user, const char *list)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: target user ");
	q(&b, user);
	buf_adds(&b, " can run passwordless sudo.\n"
		     "The user-spawn sandbox provides no isolation if the spawned agent "
		     "can escalate non-interactively.\n"
		     "Remove NOPASSWD sudo access for this user before starting ruas "
		     "with this project.\n");
	if (list && *list)
		indent(&b, list);
	return buf_detach(&b);
}

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

char *msg_work_dir_denied(const char *project, const char *work_dir,
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
	buf_adds(&b, ").\nGrant it, for example with:\n");
	buf_printf(&b, "  setfacl -m u:%s:%s ", user, d->missing);
	quote_shell(&b, d->path);
	buf_adds(&b, "\nor change the owner or mode of ");
	q(&b, d->path);
	buf_adds(&b, ". Then restart ruas.\n");
	return buf_detach(&b);
}

char *msg_work_dir_missing(const char *project, const char *work_dir,
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
	buf_adds(&b, "Create the directory, or correct work_dir in ");
	quote_display(&b, config, 0);
	buf_adds(&b, ". Then restart ruas.\n");
	return buf_detach(&b);
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

char *msg_scan(const char *project, const char *work_dir, const char *user,
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
	buf_adds(&b, "\nThe agent may fail with EACCES when accessing these paths. "
		     "Fix ownership/permissions, narrow the project scope, or accept "
		     "the risk if the inaccessible paths are intentionally out of "
		     "bounds.\n");
	return buf_detach(&b);
}

char *msg_scan_incomplete(const char *project, const char *work_dir,
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
	buf_adds(&b, "Raise scan_time_limit in ");
	quote_display(&b, config, 0);
	buf_adds(&b, ", or narrow the project scope with scan_prune.\n");
	return buf_detach(&b);
}

/* The contract line of the groups warning (issue 1); `groups` is ", "-separated. */
static void root_groups_line(struct buf *b, const char *project, const char *user,
			     const char *groups)
{
	prefix(b, "WARNING: ", project);
	buf_adds(b, "target user ");
	q(b, user);
	buf_printf(b, " is a member of %s, which give root or its equivalent "
		      "(some without a password).\n", groups);
}

char *msg_root_groups(const char *project, const char *user, const char *groups)
{
	struct buf b = BUF_INIT;
	root_groups_line(&b, project, user, groups);
	buf_printf(&b, "Remove it from them, for example: gpasswd -d %s GROUP\n", user);
	return buf_detach(&b);
}

/* "docker", or for gid 0 "root (gid 0)", or "gid 0" when it has no name. */
static void group_label(struct buf *b, const struct group_hit *h)
{
	if (h->name)
		quote_display(b, h->name, 0);
	if (h->gid == 0)
		buf_adds(b, h->name ? " (gid 0)" : "gid 0");
}

/* The hits of severity sev: "a, b" on one line, then "  a: why" lines. */
static size_t group_lines(struct buf *list, struct buf *whys, const struct group_hit *h,
			  size_t n, ruas_severity sev)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (h[i].severity != sev)
			continue;
		if (k++)
			buf_adds(list, ", ");
		group_label(list, &h[i]);
		buf_adds(whys, "  ");
		group_label(whys, &h[i]);
		buf_printf(whys, "%s: %s.\n",
			   h[i].primary   ? ", its primary group"
			   : h[i].session ? ", granted at login by PAM (pam_group?), not by the group database"
					  : "",
			   h[i].why);
	}
	return k;
}

char *msg_group_warning(const char *project, const char *user,
			const struct group_hit *h, size_t n)
{
	struct buf b = BUF_INIT, list = BUF_INIT, whys = BUF_INIT;
	group_lines(&list, &whys, h, n, RUAS_SEVERITY_WARNING);
	root_groups_line(&b, project, user, list.data ? list.data : "");
	buf_adds(&b, whys.data ? whys.data : "");
	buf_printf(&b, "Remove it from them, for example: gpasswd -d %s GROUP\n", user);
	if (list.oom || whys.oom)
		b.oom = 1;
	buf_free(&list);
	buf_free(&whys);
	return buf_detach(&b);
}

char *msg_group_fatal(const char *project, const char *user,
		      const struct group_hit *h, size_t n)
{
	struct buf b = BUF_INIT, list = BUF_INIT, whys = BUF_INIT;
	group_lines(&list, &whys, h, n, RUAS_SEVERITY_FATAL);
	prefix(&b, "ERROR: ", project);
	buf_adds(&b, "target user ");
	q(&b, user);
	buf_printf(&b, " is a member of %s, which give root without a password.\n",
		   list.data ? list.data : "");
	buf_adds(&b, whys.data ? whys.data : "");
	buf_adds(&b, "The user-spawn sandbox provides no isolation if the spawned agent "
		     "can become root. Take the user out of them:\n");
	for (size_t i = 0; i < n; i++) {
		if (h[i].severity != RUAS_SEVERITY_FATAL)
			continue;
		if (h[i].member && h[i].name) {
			buf_printf(&b, "  gpasswd -d %s ", user);
			quote_shell(&b, h[i].name);
			buf_addc(&b, '\n');
		} else if (h[i].member) {
			buf_printf(&b, "  remove %s from group %lu in the group database\n",
				   user, h[i].gid);
		}
		if (h[i].session) {
			buf_adds(&b, "  remove what grants ");
			group_label(&b, &h[i]);
			buf_printf(&b, " to %s at login (pam_group: /etc/security/group.conf, "
				       "or another PAM module of the sudo-i or ruas service)\n",
				   user);
		}
		if (h[i].primary)
			buf_printf(&b, "  usermod -g %s %s   (a group of its own as the "
				       "primary group; create it first with groupadd %s if "
				       "there is none)\n",
				   user, user, user);
	}
	if (list.oom || whys.oom)
		b.oom = 1;
	buf_free(&list);
	buf_free(&whys);
	return buf_detach(&b);
}

char *msg_internal(const char *project, const char *user, const char *what)
{
	struct buf b = BUF_INIT;
	prefix(&b, "ERROR: ", project);
	buf_adds(&b, "could not check user ");
	q(&b, user);
	buf_printf(&b, ": %s.\n", what);
	return buf_detach(&b);
}

static void runs_through_pam(struct buf *b, const char *project, const char *user)
{
	buf_adds(b, "ERROR: project ");
	q(b, project);
	buf_adds(b, " runs as user ");
	q(b, user);
	buf_adds(b, " through PAM");
}

char *msg_pam_account(const char *project, const char *user, const char *service,
		      const char *reason)
{
	struct buf b = BUF_INIT;
	runs_through_pam(&b, project, user);
	buf_adds(&b, " (service ");
	q(&b, service);
	buf_adds(&b, "), but PAM refused the account: ");
	quote_display(&b, reason, 0);
	buf_printf(&b, ".\nFix the account (for example: chage -E -1 %s; usermod -U %s) "
		       "or the account stack of /etc/pam.d/", user, user);
	quote_display(&b, service, 0);
	buf_adds(&b, ". Then restart ruas.\n");
	return buf_detach(&b);
}

char *msg_pam_unusable(const char *project, const char *user, const char *what,
		       const char *fix)
{
	struct buf b = BUF_INIT;
	runs_through_pam(&b, project, user);
	buf_printf(&b, ", but %s.\n%s Then restart ruas.\n", what, fix);
	return buf_detach(&b);
}

char *msg_pam_failed(const char *project, const char *user, const char *path,
		     int status, int not_installed, const char *said)
{
	struct buf b = BUF_INIT;
	runs_through_pam(&b, project, user);
	buf_adds(&b, ", but the pam backend's helper ");
	q(&b, path);
	if (not_installed)
		buf_adds(&b, " cannot be executed.\nInstall ruas, or set session_helper "
			     "in the configuration. Then restart ruas.\n");
	else
		buf_printf(&b, " failed (exit status %d).\nCheck that ruas is installed, "
			       "that the supervisor runs as root, and that the ruas helper "
			       "can be run by the target. Then restart ruas.\n", status);
	if (said && *said) {
		buf_adds(&b, "It said:\n");
		indent(&b, said);
	}
	return buf_detach(&b);
}

char *msg_escape(const char *project, const char *work_dir, const char *person,
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
	buf_adds(&b, ".\nPoint work_dir at a real directory inside the person's scope, with no "
		     "\"..\" or symlink that leaves it and no absolute symlink. Then restart ruas.\n");
	return buf_detach(&b);
}

char *msg_bwrap(const char *project, const char *user, const char *said)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: project ");
	q(&b, project);
	buf_adds(&b, ": people.enforce = \"bwrap\", but bubblewrap cannot run as user ");
	q(&b, user);
	buf_adds(&b, ".\nInstall it (apt-get install bubblewrap) and allow unprivileged user "
		     "namespaces (sysctl kernel.unprivileged_userns_clone=1), or set enforce = "
		     "\"none\" and rely on deny rules alone. Then restart ruas.\n");
	if (said && *said) {
		buf_adds(&b, "bwrap said:\n");
		indent(&b, said);
	}
	return buf_detach(&b);
}

char *msg_shared_user(const char *project, const char *person, const char *user,
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
			   : "deny rules handed to the agent are their only barrier.\n"
			     "Give each person their own run_as_user, or set people.enforce = "
			     "\"bwrap\".\n");
	return buf_detach(&b);
}

char *msg_audit_readable(const char *person, const char *user, const char *path,
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
	buf_adds(&b, supervisor_secret ? "Make the supervisor's home private: chmod 0700 on it.\n"
				       : "Make it unreadable to that user (chmod 0700, or give each "
					 "person their own run_as_user), or set people.enforce = "
					 "\"bwrap\".\n");
	return buf_detach(&b);
}

char *msg_audit_shared(const char *person, const char *other, const char *user, int bwrap)
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
	return buf_detach(&b);
}

/* ------------------------------------------------ sudo rules of a target */

static const char no_isolation[] =
	"The user-spawn sandbox provides no isolation if the spawned agent "
	"can escalate non-interactively.\n";

char *msg_sudo_rule(const char *user, const char *rule, const char *auth_line,
		    const char *allowed_but)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: target user ");
	q(&b, user);
	buf_adds(&b, " can run commands as another user without a password:\n");
	indent(&b, rule);
	if (auth_line) {
		buf_adds(&b, "sudo asks it for no password at all, because of this Defaults entry:\n");
		indent(&b, auth_line);
	}
	if (allowed_but)
		buf_printf(&b, "target_sudo_allowed names its command, but %s.\n", allowed_but);
	buf_adds(&b, no_isolation);
	buf_adds(&b, "Remove NOPASSWD (and !authenticate) from this rule for ");
	q(&b, user);
	buf_adds(&b, "; or, for a narrow command that cannot give a shell or write "
		     "a file, list its exact command in target_sudo_allowed.\n");
	return buf_detach(&b);
}

char *msg_sudo_rule_allowed(const char *user, const char *rule, const char *cmd)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: target user ");
	q(&b, user);
	buf_adds(&b, " can run ");
	q(&b, cmd);
	buf_adds(&b, " as another user without a password, which target_sudo_allowed "
		     "permits:\n");
	indent(&b, rule);
	buf_adds(&b, "Make sure that no argument, environment variable or file it "
		     "reads lets the agent turn it into a shell.\n");
	return buf_detach(&b);
}

char *msg_sudo_unlisted(const char *user)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "WARNING: the sudo rules of target user ");
	q(&b, user);
	buf_adds(&b, " could not be listed without a password (sudo -n -l: a password "
		     "is required).\n"
		     "Under sudo's default (listpw=any) that means none of them has NOPASSWD, "
		     "but listpw=always or listpw=all would hide one, and so would a "
		     "!authenticate bound to a runas user or a command (Defaults>USER, "
		     "Defaults!CMD).\n"
		     "To be sure, check as root, which reads every rule: ruas-setup check "
		     "--target ");
	quote_display(&b, user, 0);
	buf_adds(&b, " (or run ruas check as root); or let the target list its own "
		     "rules: Defaults:");
	quote_display(&b, user, 0);
	buf_adds(&b, " listpw=never (ruas-setup install writes it).\n");
	return buf_detach(&b);
}

char *msg_sudo_list_unreadable(const char *user, const char *how, const char *why,
			       const char *said)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ERROR: the sudo rules of target user ");
	q(&b, user);
	buf_printf(&b, " could not be understood (%s: %s), so ruas cannot tell "
		       "whether it can escalate.\n", how, why);
	buf_adds(&b, "Look at them as root with: sudo -l -U ");
	quote_display(&b, user, 0);
	buf_adds(&b, "\n");
	if (said && *said) {
		buf_adds(&b, "sudo said:\n");
		indent(&b, said);
	}
	return buf_detach(&b);
}
