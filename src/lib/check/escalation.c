/* SPDX-License-Identifier: ISC */
/*
 * escalation.c - see escalation.h.
 *
 * Every way the probes can end is decided here, and "unsure" is fatal:
 *   - sudo -n true worked, with or without a terminal: fatal (the text is
 *     a contract since the first release);
 *   - root's listing (exact whatever listpw says), and the target's own
 *     (root's Defaults, runas_default for one, can change what root's
 *     shows): every rule that runs a command as another user or group
 *     without a password is fatal, unless target_sudo_allowed names that
 *     command and nothing lets the caller change what it runs (SETENV,
 *     CHROOT=, a wildcard CWD=);
 *   - no listing, because it needs a password: a warning, since listpw and
 *     !authenticate bound to a runas user or a command can hide rules
 *     from the target; root sees them all;
 *   - sudo missing or not executable for the target: nothing to find;
 *   - a probe killed by a signal (without root's listing), sudo that could
 *     not start for another reason, a listing cut short, anything else, or
 *     a listing that does not parse: fatal.
 */
#include "check/escalation.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/messages.h"
#include "check/report.h"
#include "strv.h"
#include "check/sudo_list.h"
#include "check/targetpw.h"

/* Rule lines already judged for this entry (copies), so that two listings add up. */
struct seen {
	char *lines[64];
	size_t n;
};

static int seen_before(const struct seen *s, const char *line)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->lines[i], line) == 0)
			return 1;
	return 0;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i]);
	s->n = 0;
}

/* Why an allowed command is a way up all the same, or NULL. */
static const char *allowance_void(const struct sudo_listing *l, const struct sudo_rule *rule,
				  const struct sudo_cmd *c)
{
	if (c->setenv || l->setenv_default)
		return "SETENV lets the agent set LD_PRELOAD and the like for it";
	if (rule->risky_options)
		return "CHROOT= or a wildcard CWD= lets the agent choose what it runs";
	return NULL;
}

static int judge_rule(ruas_report *rep, size_t idx, const char *user,
		      const struct sudo_listing *l, const struct sudo_rule *rule,
		      char *const *allowed)
{
	int fatal = 0, r = 0;
	const char *void_why = NULL;
	if (rule->self_only)
		return 0;
	for (size_t k = 0; k < rule->ncmds; k++) {
		const struct sudo_cmd *c = &rule->cmds[k];
		if (c->negated || !(c->nopasswd || l->authenticate_off))
			continue;
		const char *v = allowance_void(l, rule, c);
		if (strv_contains((const char *const *)allowed, c->text) && !v) {
			r |= report_add(rep, idx, RUAS_SEVERITY_WARNING, "escalation", user, NULL,
					msg_sudo_rule_allowed(user, rule->line, c->text));
			continue;
		}
		if (strv_contains((const char *const *)allowed, c->text))
			void_why = v;
		fatal = 1;
	}
	if (fatal)
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
				msg_sudo_rule(user, rule->line,
					      l->authenticate_off ? l->authenticate_line : NULL,
					      void_why));
	return r;
}

struct tp_ctx {
	ruas_report *rep;
	size_t idx;
	const char *user;
	int r;
};

static void tp_found(void *ctx, const char *runas, const char *line)
{
	struct tp_ctx *t = ctx;
	t->r |= report_add(t->rep, t->idx, RUAS_SEVERITY_FATAL, "escalation", t->user, NULL,
			   msg_targetpw_empty(t->user, runas, line));
}

/* Defaults targetpw and a runas user with an empty password (check/targetpw.h): root's listing only. */
static int judge_targetpw(ruas_report *rep, size_t idx, const char *user,
			  const struct sudo_listing *l)
{
	char **empty = l->targetpw || l->nbound_tp ? targetpw_empty_accounts(NULL) : NULL;
	struct tp_ctx t = {rep, idx, user, 0};
	targetpw_ways(l, user, empty, tp_found, &t);
	strv_free(empty);
	return t.r;
}

static int judge_listing(ruas_report *rep, size_t idx, const char *user, const char *how,
			 const char *text, int truncated, char *const *allowed,
			 struct seen *seen)
{
	struct sudo_listing l = {0};
	const char *why;
	if (truncated)
		return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
				  msg_sudo_list_unreadable(user, how,
							   "the listing is too long to read whole",
							   NULL));
	if (sudo_listing_parse(text, user, &l, &why) < 0)
		return why && strcmp(why, "out of memory") == 0
			       ? -1
			       : report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
					    msg_sudo_list_unreadable(user, how, why, text));
	int r = 0;
	for (size_t i = 0; i < l.nrules; i++) {
		if (seen_before(seen, l.rules[i].line))
			continue;
		r |= judge_rule(rep, idx, user, &l, &l.rules[i], allowed);
		/* Past 64 distinct lines a repeat is reported twice: noisy, not wrong. */
		if (seen->n < 64 && (seen->lines[seen->n] = strdup(l.rules[i].line)))
			seen->n++;
	}
	if (strcmp(how, "sudo -l -U") == 0)
		r |= judge_targetpw(rep, idx, user, &l);
	sudo_listing_free(&l);
	return r;
}

/* sudo itself is not there for the target, or the target may not run it. */
static int cannot_run_sudo(int rc)
{
	return rc == -ENOENT || rc == -EACCES;
}

/* Neither listing came back. */
static int judge_unlisted(ruas_report *rep, size_t idx, const char *user,
			  const struct esc_evidence *ev)
{
	const char *plain = ev->list ? ev->list : "", *tty = ev->tty_list ? ev->tty_list : "";
	if (cannot_run_sudo(ev->list_rc) && cannot_run_sudo(ev->tty_list_rc))
		return 0;
	if (ev->list_rc < 0 || ev->tty_list_rc < 0)
		return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
				  msg_sudo_list_unreadable(user, "the sudo probes",
							   strerror(-(ev->list_rc < 0 ? ev->list_rc
										    : ev->tty_list_rc)),
							   NULL));
	if (ev->list_rc == 1 && sudo_says_password_required(plain))
		return report_add(rep, idx, RUAS_SEVERITY_WARNING, "escalation", user, NULL,
				  msg_sudo_unlisted(user));
	/* "Sorry, user T may not run sudo on H." and the like: no rules at all. */
	struct sudo_listing l = {0};
	const char *why;
	if (sudo_listing_parse(plain, user, &l, &why) == 0) {
		int none = l.not_allowed && l.nrules == 0;
		sudo_listing_free(&l);
		if (none)
			return 0;
	}
	return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
			  msg_sudo_list_unreadable(user, "sudo -n -l",
						   "it failed without saying why",
						   *plain ? plain : tty));
}

int escalation_report(ruas_report *rep, size_t idx, const char *user,
		      const struct esc_evidence *ev, char *const *allowed)
{
	if (ev->true_rc == 0 || ev->tty_true_rc == 0) {
		const char *shown = ev->root_ran && ev->root_rc == 0 ? ev->root_list
				    : ev->list_rc == 0		    ? ev->list
				    : ev->tty_list_rc == 0	    ? ev->tty_list
								    : NULL;
		return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
				  msg_escalation(user, shown));
	}
	/*
	 * sudo does not die of a signal on its own. Another process of the
	 * target's uid can kill it in the instant before it becomes root's,
	 * and then write into the pty: what was left is not evidence.
	 */
	const int rcs[4] = {ev->true_rc, ev->tty_true_rc, ev->list_rc, ev->tty_list_rc};
	for (int i = 0; i < 4 && !ev->root_ran; i++)
		if (rcs[i] > 128)
			return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
					  msg_sudo_list_unreadable(user, "the sudo probes",
								   "sudo was killed by a signal",
								   NULL));
	struct seen seen = {{NULL}, 0};
	int r = 0;
	if (ev->root_ran) {
		if (ev->root_rc != 0)
			return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation", user, NULL,
					  msg_sudo_list_unreadable(user, "sudo -l -U", "it failed",
								   ev->root_list));
		r = judge_listing(rep, idx, user, "sudo -l -U", ev->root_list ? ev->root_list : "",
				  ev->root_truncated, allowed, &seen);
	}
	/* The target's own view too: it is what the agent gets. */
	if (ev->list_rc == 0)
		r |= judge_listing(rep, idx, user, "sudo -n -l", ev->list ? ev->list : "",
				   ev->list_truncated, allowed, &seen);
	else if (ev->tty_list_rc == 0)
		r |= judge_listing(rep, idx, user, "sudo -n -l on a terminal",
				   ev->tty_list ? ev->tty_list : "", ev->tty_list_truncated, allowed,
				   &seen);
	else if (!ev->root_ran)
		r |= judge_unlisted(rep, idx, user, ev);
	seen_free(&seen);
	return r;
}
