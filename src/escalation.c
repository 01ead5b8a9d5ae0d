/*
 * escalation.c - see escalation.h.
 *
 * Every way the probes can end is decided here, and "unsure" is fatal:
 *   - sudo -n true worked, with or without a terminal: fatal (the text is
 *     a contract since the first release);
 *   - a listing came back (root's first, then the target's own): every
 *     rule that runs a command as another user (or group) without a
 *     password is fatal, unless target_sudo_allowed names that command;
 *   - no listing, because it needs a password: a warning, since listpw can
 *     hide rules from the target; root sees them all;
 *   - the target cannot start sudo at all: nothing to find;
 *   - a probe killed by a signal (without root's listing), anything else,
 *     or a listing that does not parse: fatal.
 */
#include "escalation.h"

#include <string.h>

#include "messages.h"
#include "report.h"
#include "sudo_list.h"

static int allowed_cmd(char *const *allowed, const char *cmd)
{
	for (; allowed && *allowed; allowed++)
		if (strcmp(*allowed, cmd) == 0)
			return 1;
	return 0;
}

static int judge_rule(ruas_report *rep, size_t idx, const char *user,
		      const struct sudo_listing *l, const struct sudo_rule *rule,
		      char *const *allowed)
{
	int fatal = 0, r = 0;
	if (rule->self_only)
		return 0;
	for (size_t k = 0; k < rule->ncmds; k++) {
		const struct sudo_cmd *c = &rule->cmds[k];
		if (c->negated || !(c->nopasswd || l->authenticate_off))
			continue;
		if (allowed_cmd(allowed, c->text))
			r |= report_add(rep, idx, RUAS_SEVERITY_WARNING, "escalation",
					msg_sudo_rule_allowed(user, rule->line, c->text));
		else
			fatal = 1;
	}
	if (fatal)
		r |= report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation",
				msg_sudo_rule(user, rule->line,
					      l->authenticate_off ? l->authenticate_line : NULL));
	return r;
}

static int judge_listing(ruas_report *rep, size_t idx, const char *user,
			 const char *how, const char *text, char *const *allowed)
{
	struct sudo_listing l = {0};
	const char *why;
	if (sudo_listing_parse(text, user, &l, &why) < 0)
		return why && strcmp(why, "out of memory") == 0
			       ? -1
			       : report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation",
					    msg_sudo_list_unreadable(user, how, why, text));
	int r = 0;
	for (size_t i = 0; i < l.nrules; i++)
		r |= judge_rule(rep, idx, user, &l, &l.rules[i], allowed);
	sudo_listing_free(&l);
	return r;
}

/* Neither listing came back. */
static int judge_unlisted(ruas_report *rep, size_t idx, const char *user,
			  const struct esc_evidence *ev)
{
	const char *plain = ev->list ? ev->list : "", *tty = ev->tty_list ? ev->tty_list : "";
	if (ev->list_rc < 0 && ev->tty_list_rc < 0)
		return 0; /* the target cannot run sudo at all */
	if (sudo_says_password_required(plain) || sudo_says_password_required(tty))
		return report_add(rep, idx, RUAS_SEVERITY_WARNING, "escalation",
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
	return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation",
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
		return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation",
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
			return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation",
					  msg_sudo_list_unreadable(user, "the sudo probes",
								   "sudo was killed by a signal",
								   NULL));
	if (ev->root_ran) {
		if (ev->root_rc != 0)
			return report_add(rep, idx, RUAS_SEVERITY_FATAL, "escalation",
					  msg_sudo_list_unreadable(user, "sudo -l -U",
								   "it failed", ev->root_list));
		return judge_listing(rep, idx, user, "sudo -l -U", ev->root_list ? ev->root_list : "",
				     allowed);
	}
	if (ev->list_rc == 0)
		return judge_listing(rep, idx, user, "sudo -n -l", ev->list ? ev->list : "", allowed);
	if (ev->tty_list_rc == 0)
		return judge_listing(rep, idx, user, "sudo -n -l on a terminal",
				     ev->tty_list ? ev->tty_list : "", allowed);
	return judge_unlisted(rep, idx, user, ev);
}
