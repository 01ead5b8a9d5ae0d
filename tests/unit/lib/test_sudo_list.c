/* SPDX-License-Identifier: ISC */
/*
 * test_sudo_list.c - the reading of `sudo -l` output (src/lib/check/sudo_list.h) on
 * listings recorded from sudo 1.9.13p3 (tests/unit/listings/), the
 * judgement built on it (src/lib/check/escalation.h), and what target_sudo_allowed
 * may name (src/lib/config/sudo_allowed.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check/escalation.h"
#include "check/report.h"
#include "ruas.h"
#include "config/sudo_allowed.h"
#include "check/sudo_list.h"

static char *listing(const char *name)
{
	const char *top = getenv("abs_top_srcdir");
	if (!top)
		fail_msg("abs_top_srcdir is not set; run this through make check");
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/unit/listings/%s", top, name);
	FILE *f = fopen(path, "re");
	if (!f)
		fail_msg("cannot open %s", path);
	struct buf b = BUF_INIT;
	char tmp[4096];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	assert_false(b.oom);
	return buf_detach(&b);
}

static void parse_ok(const char *name, const char *user, struct sudo_listing *l)
{
	char *text = listing(name);
	const char *why = NULL;
	if (sudo_listing_parse(text, user, l, &why) != 0)
		fail_msg("%s: refused: %s", name, why ? why : "?");
	free(text);
}

static void assert_cmd(const struct sudo_rule *r, size_t k, const char *text, int nopasswd,
		       int negated)
{
	assert_true(k < r->ncmds);
	assert_string_equal(r->cmds[k].text, text);
	assert_int_equal(r->cmds[k].nopasswd, nopasswd);
	assert_int_equal(r->cmds[k].negated, negated);
}

static void check_mixed(const struct sudo_listing *l)
{
	assert_int_equal(l->nrules, 3);
	assert_false(l->not_allowed);
	/* Defaults!/usr/bin/id !authenticate: fail closed, every command counts as passwordless. */
	assert_true(l->authenticate_off);
	assert_string_equal(l->authenticate_line, "Defaults!/usr/bin/id !authenticate");
	const struct sudo_rule *r = &l->rules[0];
	assert_string_equal(r->runas, "root");
	assert_false(r->self_only);
	assert_int_equal(r->ncmds, 3);
	assert_cmd(r, 0, "/usr/bin/id", 1, 0);
	assert_cmd(r, 1, "/usr/bin/whoami", 1, 0);
	assert_cmd(r, 2, "/bin/ls", 0, 0);
	assert_string_equal(r->line, "(root) NOPASSWD: /usr/bin/id, /usr/bin/whoami, PASSWD: /bin/ls");
	r = &l->rules[1];
	assert_string_equal(r->runas, "tb");
	assert_cmd(r, 0, "/usr/bin/true", 0, 0);
	r = &l->rules[2];
	assert_string_equal(r->runas, "tc : td");
	assert_int_equal(r->ncmds, 5);
	assert_cmd(r, 0, "/usr/bin/env", 1, 0);
	assert_cmd(r, 3, "/usr/bin/cccccccccccccccccccccccccccc x\\,y \"a b\"", 1, 0);
	assert_cmd(r, 4, "/usr/bin/dddddddd !/bin/sh", 1, 0);
	assert_true(strstr(r->line, "/usr/bin/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, /usr/bin/ccc"));
}

static void test_mixed(void **state)
{
	(void)state;
	struct sudo_listing l;
	parse_ok("mixed.txt", "ta", &l);
	check_mixed(&l);
	/* secure_path, unescaped: its directories are trust anchors. */
	assert_string_equal(l.secure_path, "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	sudo_listing_free(&l);
}

/* The same rules through a pty: CRLF, and lines wrapped at 80 columns. */
static void test_wrapped_pty(void **state)
{
	(void)state;
	struct sudo_listing l, plain;
	parse_ok("mixed-pty.txt", "ta", &l);
	check_mixed(&l);
	parse_ok("mixed.txt", "ta", &plain);
	for (size_t i = 0; i < l.nrules; i++)
		assert_string_equal(l.rules[i].line, plain.rules[i].line);
	sudo_listing_free(&l);
	sudo_listing_free(&plain);
}

static void test_negated_and_runas_lists(void **state)
{
	(void)state;
	struct sudo_listing l;
	parse_ok("negated.txt", "te", &l);
	assert_int_equal(l.nrules, 1);
	assert_string_equal(l.rules[0].runas, "ALL, !root");
	assert_false(l.rules[0].self_only);
	assert_cmd(&l.rules[0], 0, "ALL", 1, 0);
	assert_cmd(&l.rules[0], 1, "!/usr/bin/true", 1, 1);
	assert_false(l.authenticate_off);
	sudo_listing_free(&l);
}

static void test_global_no_authenticate_and_options(void **state)
{
	(void)state;
	struct sudo_listing l;
	parse_ok("noauth.txt", "tf", &l);
	assert_true(l.authenticate_off);
	assert_string_equal(l.authenticate_line,
			    "env_reset, mail_badpass, "
			    "secure_path=/usr/local/sbin\\:/usr/local/bin\\:/usr/sbin\\:/usr/bin\\:/sbin\\:/bin, "
			    "use_pty, !authenticate, !syslog");
	/* CWD= is an option and NOEXEC: a tag: neither is part of the command. */
	assert_cmd(&l.rules[0], 0, "/usr/bin/id", 0, 0);
	sudo_listing_free(&l);
}

static void test_runas_defaults_digest_sudoedit(void **state)
{
	(void)state;
	struct sudo_listing l;
	parse_ok("runas-default.txt", "tb", &l);
	assert_true(l.authenticate_off);
	assert_string_equal(l.authenticate_line, "Defaults>tc !authenticate");
	assert_int_equal(l.nrules, 2);
	assert_string_equal(l.rules[0].runas, "ALL : ALL");
	assert_cmd(&l.rules[0], 0,
		   "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef /usr/bin/e",
		   1, 0);
	assert_cmd(&l.rules[0], 1, "sudoedit /etc/motd", 1, 0);
	assert_cmd(&l.rules[1], 0, "/usr/bin/f", 0, 0);
	sudo_listing_free(&l);
}

/* Each privilege line starts over: tags in force are printed again (sudo does). */
static void test_many_runas_specs(void **state)
{
	(void)state;
	struct sudo_listing l;
	parse_ok("many-runas.txt", "ta", &l);
	assert_int_equal(l.nrules, 7);
	assert_cmd(&l.rules[1], 0, "ALL", 0, 0);
	assert_string_equal(l.rules[3].runas, "tb");
	assert_cmd(&l.rules[3], 0, "/usr/bin/b", 1, 0);
	/* (ta : tc): itself, but with another group: not self only. */
	assert_string_equal(l.rules[4].runas, "ta : tc");
	assert_false(l.rules[4].self_only);
	assert_cmd(&l.rules[5], 0, "/usr/bin/d", 0, 0);
	assert_int_equal(l.rules[6].ncmds, 2);
	assert_cmd(&l.rules[6], 1, "/usr/bin/x2", 1, 0);
	sudo_listing_free(&l);
}

static void test_self_and_none(void **state)
{
	(void)state;
	struct sudo_listing l;
	parse_ok("self.txt", "t1", &l);
	assert_true(l.rules[0].self_only);
	sudo_listing_free(&l);
	parse_ok("self.txt", "t2", &l);
	assert_false(l.rules[0].self_only);
	sudo_listing_free(&l);
	parse_ok("not-allowed.txt", "nobody", &l);
	assert_true(l.not_allowed);
	assert_int_equal(l.nrules, 0);
	sudo_listing_free(&l);
	parse_ok("sorry.txt", "ta", &l);
	assert_true(l.not_allowed);
	sudo_listing_free(&l);
}

static void test_refuses_what_it_does_not_understand(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"",
		"sudo: a password is required\n",
		"sudo: sorry, you must have a tty to run sudo\n",
		"    (root) NOPASSWD: ALL\n",
		"User t may run the following commands on h:\n    garbage\n",
		"User t may run the following commands on h:\n    (root NOPASSWD: ALL\n",
		"User t may run the following commands on h:\n    (root) NOPASSWD: /a, (tb) /b\n",
		"User t may run the following commands on h:\n    (root) NOPASSWD: \n",
		"User t may run the following commands on h:\n    (root) NOPASSWD: /a,\n",
		"User t may run the following commands on h:\n        (root) ALL\n",
		"User t may run the following commands on h:\n    (root) ALL\nWelcome!\n",
		"Matching Defaults entries for t on h:\n    env_reset\n",
		NULL};
	for (const char *const *b = bad; *b; b++) {
		struct sudo_listing l;
		const char *why = NULL;
		if (sudo_listing_parse(*b, "t", &l, &why) == 0)
			fail_msg("accepted: %s", *b);
		assert_non_null(why);
		assert_null(l.rules);
	}
}

static void test_password_required(void **state)
{
	(void)state;
	assert_true(sudo_says_password_required("sudo: a password is required\n"));
	assert_true(sudo_says_password_required(
		"sudo: a terminal is required to read the password; either use the -S option\n"));
	assert_false(sudo_says_password_required("Sorry, user t may not run sudo on h.\n"));
}

/* ----------------------------------------------------- escalation_report */

static ruas_report *judge(const char *user, const char *list, char *const *allowed)
{
	const char *names[] = {"p", NULL};
	ruas_report *rep = report_new(names, 1);
	assert_non_null(rep);
	struct esc_evidence ev = {1, 1, 0, 1, list, "sudo: a password is required\n", 0, 0, NULL, 0, 0, 0};
	assert_int_equal(escalation_report(rep, 0, user, &ev, allowed), 0);
	return rep;
}

static void test_judgement(void **state)
{
	(void)state;
	char *list = listing("many-runas.txt");
	ruas_report *rep = judge("ta", list, NULL);
	/* Every passwordless line but none of the password ones. */
	assert_int_equal(ruas_report_item_count(rep, 0), 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(ruas_report_item_severity(rep, 0, i), RUAS_SEVERITY_FATAL);
	assert_true(strstr(ruas_report_item_text(rep, 0, 2), "  (tb) NOPASSWD: /usr/bin/b\n"));
	ruas_report_free(rep);

	char *allowed[] = {"/usr/bin/id", "/usr/bin/a", "/usr/bin/b", "/usr/bin/c", "/usr/bin/x1", NULL};
	rep = judge("ta", list, allowed);
	/* x2 shares a line with x1 and is not allowed: that line stays fatal. */
	size_t fatal = 0, warn = 0;
	for (size_t i = 0; i < ruas_report_item_count(rep, 0); i++)
		ruas_report_item_severity(rep, 0, i) == RUAS_SEVERITY_FATAL ? fatal++ : warn++;
	assert_int_equal(fatal, 1);
	assert_int_equal(warn, 5);
	ruas_report_free(rep);
	free(list);

	/* (ALL : ALL) ALL with a password, but !authenticate for runas tc: fatal, naming it. */
	list = listing("runas-default.txt");
	rep = judge("tb", list, NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 2);
	assert_true(strstr(ruas_report_item_text(rep, 0, 1),
			   "because of this Defaults entry:\n  Defaults>tc !authenticate\n"));
	ruas_report_free(rep);
	free(list);

	list = listing("human.txt");
	rep = judge("leigh", list, NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
	free(list);

	list = listing("self.txt");
	rep = judge("t1", list, NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
	free(list);
}

/* sudo -n true worked on the pty only (requiretty): the contract text. */
static void test_tty_only_true(void **state)
{
	(void)state;
	const char *names[] = {"p", NULL};
	ruas_report *rep = report_new(names, 1);
	struct esc_evidence ev = {1, 0, 1, 0, "sudo: sorry, you must have a tty to run sudo\n",
				  "User t may run the following commands on h:\r\n    (ALL) NOPASSWD: ALL\r\n",
				  0, 0, NULL, 0, 0, 0};
	assert_int_equal(escalation_report(rep, 0, "t", &ev, NULL), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	assert_int_equal(ruas_report_item_severity(rep, 0, 0), RUAS_SEVERITY_FATAL);
	assert_true(strncmp(ruas_report_item_text(rep, 0, 0),
			    "ERROR: target user \"t\" can run passwordless sudo.\n", 50) == 0);
	ruas_report_free(rep);

	/* Only the pty listing came back: it is judged. */
	rep = report_new(names, 1);
	struct esc_evidence ev2 = {1, 1, 1, 0, "sudo: sorry, you must have a tty to run sudo\n",
				   "User t may run the following commands on h:\r\n    (root) NOPASSWD: /bin/sh\r\n",
				   0, 0, NULL, 0, 0, 0};
	assert_int_equal(escalation_report(rep, 0, "t", &ev2, NULL), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	assert_true(strstr(ruas_report_item_text(rep, 0, 0), "  (root) NOPASSWD: /bin/sh\n"));
	ruas_report_free(rep);

	/* The target cannot start sudo at all: nothing to find. */
	rep = report_new(names, 1);
	struct esc_evidence ev3 = {-13, -13, -13, -13, "", "", 0, 0, NULL, 0, 0, 0};
	assert_int_equal(escalation_report(rep, 0, "t", &ev3, NULL), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);

	/* The list probe was killed (by another process of the target) and the pty says "password": fatal. */
	rep = report_new(names, 1);
	struct esc_evidence ev5 = {1, 1, 1, 137, "sudo: sorry, you must have a tty to run sudo\n",
				   "sudo: a password is required\n", 0, 0, NULL, 0, 0, 0};
	assert_int_equal(escalation_report(rep, 0, "t", &ev5, NULL), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	assert_int_equal(ruas_report_item_severity(rep, 0, 0), RUAS_SEVERITY_FATAL);
	assert_true(strstr(ruas_report_item_text(rep, 0, 0), "sudo was killed by a signal"));
	ruas_report_free(rep);

	/* Root's listing failed: fatal, never silent. */
	rep = report_new(names, 1);
	struct esc_evidence ev4 = {1, 1, 1, 1, "", "", 1, 1, "sudo: something\n", 0, 0, 0};
	assert_int_equal(escalation_report(rep, 0, "t", &ev4, NULL), 0);
	assert_int_equal(ruas_report_item_severity(rep, 0, 0), RUAS_SEVERITY_FATAL);
	ruas_report_free(rep);
}

/* Found by a hostile review: each once judged harmless. */
static ruas_report *judge_ev(const struct esc_evidence *ev, const char *user, char *const *allowed)
{
	const char *names[] = {"p", NULL};
	ruas_report *rep = report_new(names, 1);
	assert_non_null(rep);
	assert_int_equal(escalation_report(rep, 0, user, ev, allowed), 0);
	return rep;
}

static void assert_fatal_with(ruas_report *rep, const char *part)
{
	int found = 0;
	for (size_t i = 0; i < ruas_report_item_count(rep, 0); i++)
		found |= ruas_report_item_severity(rep, 0, i) == RUAS_SEVERITY_FATAL &&
			 strstr(ruas_report_item_text(rep, 0, i), part) != NULL;
	if (!found) {
		for (size_t i = 0; i < ruas_report_item_count(rep, 0); i++)
			print_message("%s", ruas_report_item_text(rep, 0, i));
		fail_msg("no fatal finding with \"%s\"", part);
	}
	ruas_report_free(rep);
}

#define LISTING(rules) "User t may run the following commands on h:\n" rules

static void test_review_findings(void **state)
{
	(void)state;
	/* 1. An option value with a bare space used to swallow the NOPASSWD tag. */
	struct esc_evidence ev = {1, 1, 0, 1, LISTING("    (other) CWD=/tmp/a b NOPASSWD: /bin/sh\n"),
				  "", 0, 0, NULL, 0, 0, 0};
	assert_fatal_with(judge_ev(&ev, "t", NULL), "(other) CWD=/tmp/a b NOPASSWD: /bin/sh");
	ev.list = LISTING("    (other) CWD=/tmp/a b /bin/sh\n");
	assert_fatal_with(judge_ev(&ev, "t", NULL), "could not be understood");

	/* 2. A listing cut short is no evidence. */
	ev.list = LISTING("    (root) /usr/bin/id\n");
	ev.list_truncated = 1;
	assert_fatal_with(judge_ev(&ev, "t", NULL), "too long to read whole");
	ev.list_truncated = 0;
	struct esc_evidence root = {1, 1, 1, 1, "", "", 1, 0, LISTING("    (root) /usr/bin/id\n"), 0, 0, 1};
	assert_fatal_with(judge_ev(&root, "t", NULL), "too long to read whole");

	/* 3. sudo that could not start (EAGAIN at the process limit) is not "no sudo". */
	struct esc_evidence eagain = {-EAGAIN, -EAGAIN, -EAGAIN, -EAGAIN, "", "", 0, 0, NULL, 0, 0, 0};
	assert_fatal_with(judge_ev(&eagain, "t", NULL), "could not be understood");
	struct esc_evidence enoent = {-ENOENT, -ENOENT, -ENOENT, -ENOENT, "", "", 0, 0, NULL, 0, 0, 0};
	ruas_report *rep = judge_ev(&enoent, "t", NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);

	/* 6. An allowed command that takes the caller's variables, or a chroot of its choosing. */
	char *allowed[] = {"/usr/bin/systemctl restart app", NULL};
	ev.list = LISTING("    (root) NOPASSWD: SETENV: /usr/bin/systemctl restart app\n");
	assert_fatal_with(judge_ev(&ev, "t", allowed), "target_sudo_allowed names its command, but SETENV");
	ev.list = "Matching Defaults entries for t on h:\n    env_reset, setenv\n\n"
		  LISTING("    (root) NOPASSWD: /usr/bin/systemctl restart app\n");
	assert_fatal_with(judge_ev(&ev, "t", allowed), "SETENV");
	ev.list = LISTING("    (root) CHROOT=/home/t NOPASSWD: /usr/bin/systemctl restart app\n");
	assert_fatal_with(judge_ev(&ev, "t", allowed), "CHROOT=");
	ev.list = LISTING("    (root) CWD=* NOPASSWD: /usr/bin/systemctl restart app\n");
	assert_fatal_with(judge_ev(&ev, "t", allowed), "CWD=");

	/* 7. Root's Defaults (runas_default) can make root's listing say (t): the target's own view counts too. */
	struct esc_evidence both = {1, 1, 0, 1, LISTING("    (root) NOPASSWD: /usr/bin/id\n"), "", 1, 0,
				    LISTING("    (t) NOPASSWD: /usr/bin/id\n"), 0, 0, 0};
	assert_fatal_with(judge_ev(&both, "t", NULL), "(root) NOPASSWD: /usr/bin/id");
	/* ... and a rule both listings show is reported once. */
	both.root_list = LISTING("    (root) NOPASSWD: /usr/bin/id\n");
	rep = judge_ev(&both, "t", NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	ruas_report_free(rep);
}

/* And the false positives it found: harmless setups that were fatal. */
static void test_review_false_positives(void **state)
{
	(void)state;
	/* (t : t), which sudo also prints for (:t): itself, with its own group. */
	struct esc_evidence ev = {1, 1, 0, 1, LISTING("    (t : t) NOPASSWD: ALL\n"), "", 0, 0, NULL, 0, 0, 0};
	ruas_report *rep = judge_ev(&ev, "t", NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
	/* Defaults>t !authenticate only drops the password for running as itself. */
	ev.list = "Runas and Command-specific defaults for t:\n    Defaults>t !authenticate\n\n"
		  LISTING("    (root) /usr/bin/id\n");
	rep = judge_ev(&ev, "t", NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
	/* ... but Defaults>root does. */
	ev.list = "Runas and Command-specific defaults for t:\n    Defaults>root !authenticate\n\n"
		  LISTING("    (root) /usr/bin/id\n");
	assert_fatal_with(judge_ev(&ev, "t", NULL), "Defaults>root !authenticate");
	/* sudo's own warnings on stderr say nothing about the rules. */
	ev.list = "sudo: unable to resolve host vm: Name or service not known\n"
		  LISTING("    (ALL : ALL) ALL\n");
	rep = judge_ev(&ev, "t", NULL);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	ruas_report_free(rep);
}

/* ---------------------------------------------------- target_sudo_allowed */

static void test_allowed_refusals(void **state)
{
	(void)state;
	static const char *const ok[] = {
		"/usr/bin/systemctl restart app", "/usr/sbin/service nginx reload",
		"sha256:00ff /usr/bin/backup --daily", "/usr/bin/shasum -a 256 /srv/x",
		"/opt/app/bin/deploy \"\"", NULL};
	for (const char *const *c = ok; *c; c++)
		if (sudo_allowed_problem(*c))
			fail_msg("refused %s: %s", *c, sudo_allowed_problem(*c));
	static const struct {
		const char *cmd, *part;
	} bad[] = {
		{"ALL", "ALL"},
		{"/usr/bin/foo ALL", "ALL"},
		{"/bin/sh", "shell"},
		{"/bin/bash -c id", "shell"},
		{"/usr/bin/busybox", "shell"},
		{"/usr/bin/python3.11 /srv/x.py", "interpreter"},
		{"/usr/bin/perl", "interpreter"},
		{"/usr/bin/awk", "interpreter"},
		{"/usr/bin/vim /etc/hosts", "editor"},
		{"/usr/bin/less /var/log/syslog", "pager"},
		{"sudoedit /etc/motd", "absolute"},
		{"/usr/bin/sudoedit", "editor"},
		{"/usr/bin/env", "env"},
		{"/usr/bin/env FOO=1 /usr/bin/id", "env"},
		{"/usr/bin/find / -name x", "runs other commands"},
		{"/usr/bin/systemctl *", "wildcard"},
		{"/usr/bin/", "directory"},
		{"usr/bin/id", "absolute"},
		{"!/usr/bin/id", "negation"},
		{"", "empty"},
		{"/usr/bin/id\n/bin/sh", "control"},
		{"/opt/app/bin/deploy", "no arguments"},
		{"/usr/bin/tee /etc/motd", "writes"},
		{"/bin/cp /srv/a /etc/a", "writes"},
		{"/usr/bin/journalctl -u app", "pager"},
		{"/usr/bin/apt-get install x", "writes"},
		{"/usr/bin/git pull", "runs other commands"},
		{"/usr/bin/sensible-pager /var/log/x", "pager"},
		{NULL, NULL},
	};
	for (size_t i = 0; bad[i].cmd; i++) {
		const char *why = sudo_allowed_problem(bad[i].cmd);
		if (!why || !strstr(why, bad[i].part))
			fail_msg("%s: %s (wanted \"%s\")", bad[i].cmd, why ? why : "accepted",
				 bad[i].part);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_wrapped_pty),
		cmocka_unit_test(test_negated_and_runas_lists),
		cmocka_unit_test(test_global_no_authenticate_and_options),
		cmocka_unit_test(test_runas_defaults_digest_sudoedit),
		cmocka_unit_test(test_many_runas_specs),
		cmocka_unit_test(test_self_and_none),
		cmocka_unit_test(test_refuses_what_it_does_not_understand),
		cmocka_unit_test(test_password_required),
		cmocka_unit_test(test_judgement),
		cmocka_unit_test(test_tty_only_true),
		cmocka_unit_test(test_allowed_refusals),
		cmocka_unit_test(test_review_findings),
		cmocka_unit_test(test_review_false_positives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
