/* SPDX-License-Identifier: ISC */
/*
 * messages.h - every finding's text. Operators' scripts match these texts
 * (the first line of each, and the lines that name what to fix), so they are
 * a contract: change them only by adding lines.
 * Each returns its words (struct words: the block ending in '\n', NULL on
 * OOM, and apart from it the fix the block gives). They live in
 * messages.c (check 1 and the pam backend), messages_escalation.c (check 2),
 * messages_work_dir.c (check 3 and the scan), messages_groups.c,
 * messages_people.c (people on one instance, the audit) and
 * messages_lifetime.c (who owns the agent's tree, and what outlives a run).
 */
#ifndef RUAS_MESSAGES_H
#define RUAS_MESSAGES_H

#include <stddef.h>

#include "account.h"
#include "buf.h"
#include "helper_report.h"

/*
 * A finding's words, both malloc'd: text, the whole block ending in '\n'
 * (NULL: out of memory), and fix, what to do in the text's own words (its
 * fix sentences and commands, no "Fix: " and no "Then restart ruas."), or
 * NULL where the text gives none. The fix is built once, into the text, and
 * copied from there (msg_words()), never found again by reading the text.
 */
struct words {
	char *text;
	char *fix;
};

void words_free(struct words *w);

struct words msg_sudo_not_configured(const char *project, const char *user,
			      const char *supervisor, const char *sudo_said);
struct words msg_user_missing(const char *project, const char *user,
		       const char *supervisor);
/* sudo says "unknown user" of a user this process finds (uid): it could not read it. */
struct words msg_user_unread(const char *project, const char *user, unsigned long uid,
			     const char *sudo_said);
struct words msg_nologin(const char *project, const char *user, const char *shell);
struct words msg_shell_missing(const char *project, const char *user, const char *shell);
struct words msg_sudo_missing(const char *project, const char *user, const char *sudo,
		       const char *config);
struct words msg_helper_failed(const char *project, const char *user,
			const char *helper, int status, const char *said);
/* The helper that runs as user can be read by other users (helper_file.h; fatal). */
struct words msg_helper_readable(const char *project, const char *user, const char *helper,
			  unsigned int mode);
struct words msg_sudo_failed(const char *project, const char *user, int status,
		      int timed_out, unsigned int timeout_s, const char *said);
struct words msg_escalation(const char *user, const char *list);
/* A rule that runs something as another user without a password (fatal). */
struct words msg_sudo_rule(const char *user, const char *rule, const char *auth_line,
		    const char *allowed_but);
/* ... one whose command target_sudo_allowed names (a warning). */
struct words msg_sudo_rule_allowed(const char *user, const char *rule, const char *cmd);
/* The target's rules cannot be listed without a password (a warning). */
struct words msg_sudo_unlisted(const char *user);
/* A listing that cannot be understood (fatal); how: the command that made it. */
struct words msg_sudo_list_unreadable(const char *user, const char *how, const char *why,
			       const char *said);
struct words msg_work_dir_denied(const char *project, const char *work_dir,
			  const char *user, const struct dir_result *d);
struct words msg_work_dir_missing(const char *project, const char *work_dir,
			   const char *user, const struct dir_result *d,
			   const char *config);
/*
 * work_dir is (lies inside, lies above: how) a tree that root trusts
 * (trusted_tree.h), as written or as resolved (fatal).
 */
struct words msg_work_dir_trusted(const char *project, const char *work_dir, const char *resolved,
			   const char *how, const char *tree);
struct words msg_scan(const char *project, const char *work_dir, const char *user,
	       const struct scan_item *items, size_t nitems,
	       unsigned long long total);
struct words msg_scan_incomplete(const char *project, const char *work_dir,
			  unsigned long long entries, unsigned int seconds,
			  const char *config);
struct words msg_root_groups(const char *project, const char *user, const char *groups);
/*
 * The target has no password (passwd -S: NP), which PAM's nullok takes: fatal.
 * Or passwd -S did not say (rc: its exit code, or -errno), a warning. project
 * NULL: a target alone.
 */
struct words msg_password_empty(const char *project, const char *user);
struct words msg_password_unjudged(const char *project, const char *user, int rc, const char *said);
/* A PAM auth line that lets the target in without a password (check/pam_stack.h). */
/* Defaults targetpw and a runas user with an empty password (check/targetpw.h). */
struct words msg_targetpw_empty(const char *user, const char *runas, const char *rule);
/* A nopass rule of doas.conf to another user (check/doas_conf.h). */
struct words msg_doas_rule(const char *project, const char *user, const char *file, int line,
		    const char *text, const char *why);
/* A polkit rule or local authority entry (check/polkit.h) that lets the target act as root. */
struct words msg_polkit_way(const char *project, const char *user, const char *file, int line,
		     const char *text, const char *why);
struct words msg_pam_way(const char *project, const char *user, const char *service, const char *file,
		  int line, const char *text, const char *why);
/* doas -n true succeeded as the target: a nopass rule to root (fatal); project NULL: a target alone. */
struct words msg_doas_root(const char *project, const char *user);
/* root has no password (password.h root_password_empty()); project NULL: a target alone. */
struct words msg_root_password_empty(const char *project);
/*
 * The groups findings of a user, from account_group_risks(): the warning
 * (msg_root_groups' text, with a line per group saying why) covers the
 * RUAS_SEVERITY_WARNING hits, the error the RUAS_SEVERITY_FATAL ones, each
 * with why and the command that undoes it (gpasswd -d, or usermod -g for a
 * primary group).
 */
struct words msg_group_warning(const char *project, const char *user,
			const struct group_hit *h, size_t n);
struct words msg_group_fatal(const char *project, const char *user,
		      const struct group_hit *h, size_t n);
struct words msg_internal(const char *project, const char *user, const char *what);
/*
 * The same, with the errno of the system call that failed (0: none): its
 * words, and for EMFILE or ENFILE the descriptor limit (proc.h), so that
 * running out of descriptors is never taken for sudo's or the target's
 * fault.
 */
struct words msg_internal_errno(const char *project, const char *user, const char *what,
				int errnum);

struct outlives;
/*
 * The lifetime warning of a user: a line for each of lingering, a running
 * user manager, crontab and at that lt holds (lifetime_any() must be true),
 * the residual risk, and a fix for each.
 */
struct words msg_lifetime(const char *user, const struct outlives *lt);

/* The pam backend's own failures. */
struct words msg_pam_account(const char *project, const char *user, const char *service,
		      const char *reason);
/* The service file PAM would read is missing or not ruas's (why: pam_service.h's). */
struct words msg_pam_service(const char *project, const char *user, const char *service,
		      const char *why);
struct words msg_pam_unusable(const char *project, const char *user, const char *what,
		       const char *fix);
struct words msg_pam_failed(const char *project, const char *user, const char *path,
		     int status, int not_installed, const char *said);

/* People on one instance. */
struct words msg_escape(const char *project, const char *work_dir, const char *person,
		 const char *why);
struct words msg_bwrap(const char *project, const char *user, const char *said);
struct words msg_shared_user(const char *project, const char *person, const char *user,
		      const char *others, int bwrap);

struct words msg_audit_readable(const char *person, const char *user, const char *path,
			 int supervisor_secret);
struct words msg_audit_shared(const char *person, const char *other, const char *user, int bwrap);

/*
 * Who owns the agent's tree (messages_lifetime.c): the subreaper as
 * configured, or picked by auto for target_sudo_allowed on the sudo backend
 * (warnings); no PID namespace to be had (fatal when required, else a
 * warning; pam: root's); lifetime = "pidns" with target_sudo_allowed on
 * the sudo backend (a warning).
 */
struct words msg_lifetime_subreaper(const char *project, const char *user);
struct words msg_lifetime_sudo_allowed(const char *project, const char *user);
struct words msg_lifetime_unavailable(const char *project, const char *user, int pam, int required,
			       const char *why);
struct words msg_lifetime_no_sudo(const char *project);

/* "not readable, not writable" for a scan item's flags. */
void msg_scan_reasons(struct buf *b, unsigned int flags);

/*
 * messages_limits.c: a project's open_files_max or file_size_max above the
 * hard limit its runs get (limits_item, limits_value: the limits.conf line
 * that would raise it; a warning where the check saw the limits before the
 * PAM session, before_session), and hard limits that no report gave (fatal).
 */
struct words msg_limit_above_hard(const char *project, const char *user, const char *key,
				  unsigned long long value, const char *resource,
				  unsigned long long hard, const char *limits_item,
				  unsigned long long limits_value, int before_session);
struct words msg_limit_unjudged(const char *project, const char *user);
/*
 * The cgroup limits `keys` ("memory_max, tasks_max") of a project cannot be
 * held: place_why when where runs go could not even be found (pl as far as
 * it got), else the judge's verdict on it.
 */
struct cgroup_place;
struct cgroup_judgement;
struct words msg_cgroup_unusable(const char *project, const char *keys,
				 const struct cgroup_place *pl, const char *place_why,
				 const struct cgroup_judgement *j, unsigned long supervisor_uid);
/* The same as one line without its project, "KEYS need ...: what. Fix: ...", for the spawn's refusal; NULL on OOM. */
char *msg_cgroup_unusable_line(const char *keys, const struct cgroup_place *pl,
			       const char *place_why, const struct cgroup_judgement *j,
			       unsigned long supervisor_uid);

#endif
