/* SPDX-License-Identifier: ISC */
/*
 * test_messages.c - the findings' texts (src/lib/check/messages.h). The seed texts
 * are a contract with operators' scripts, so they are compared in full.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/anchors_report.h"
#include "check/messages.h"
#include "helper_report.h"
#include "spawn/sudo_call.h"

#include <sys/resource.h>

static const char sudo_seed[] =
	"ERROR: project \"claude\" requires passwordless sudo to user "
	"\"partseeker-coder\", but it is not configured.\n"
	"Add a sudoers rule that allows user \"partseeker-orchestrator\" to run "
	"commands as \"partseeker-coder\" without a password, for example:\n"
	"  partseeker-orchestrator ALL=(partseeker-coder) NOPASSWD: ALL\n"
	"Then restart ruas.\n";

static const char escalation_seed[] =
	"ERROR: target user \"partseeker-coder\" can run passwordless sudo.\n"
	"The user-spawn sandbox provides no isolation if the spawned agent can "
	"escalate non-interactively.\n"
	"Remove NOPASSWD sudo access for this user before starting ruas with this "
	"project.\n";

static const char scan_tail[] =
	"\nThe agent may fail with EACCES when accessing these paths. Fix "
	"ownership/permissions, narrow the project scope, or accept the risk if "
	"the inaccessible paths are intentionally out of bounds.\n";

static void assert_has(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("expected \"%s\" in:\n%s", part, text);
}

static void assert_starts(const char *text, const char *prefix)
{
	if (strncmp(text, prefix, strlen(prefix)) != 0)
		fail_msg("expected the text to start with:\n%s\nbut it is:\n%s", prefix,
			 text);
}

/* No raw control byte but the newlines that end lines. */
static void assert_no_raw_controls(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			fail_msg("raw control byte 0x%02x at offset %zu of:\n%s", *p,
				 (size_t)((const char *)p - text), text);
}

static char *first_line(const char *text)
{
	const char *nl = strchr(text, '\n');
	assert_non_null(nl);
	char *s = strndup(text, (size_t)(nl - text));
	assert_non_null(s);
	return s;
}

/* ------------------------------------------------------------- sudo */

static void test_sudo_not_configured_exact(void **state)
{
	(void)state;
	char *m = text_of(msg_sudo_not_configured("claude", "partseeker-coder",
					  "partseeker-orchestrator",
					  "sudo: a password is required\n"));
	assert_non_null(m);
	assert_string_equal(m, sudo_seed);
	free(m);

	/* Nothing said at all: the same seed. */
	m = text_of(msg_sudo_not_configured("claude", "partseeker-coder",
				    "partseeker-orchestrator", ""));
	assert_string_equal(m, sudo_seed);
	free(m);
}

static void test_sudo_not_configured_other_reason(void **state)
{
	(void)state;
	char *m = text_of(msg_sudo_not_configured("claude", "partseeker-coder",
					  "partseeker-orchestrator",
					  "sudo: sorry, you must have a tty to run sudo\n"));
	assert_starts(m, sudo_seed);
	assert_string_equal(m + strlen(sudo_seed),
			    "sudo said:\n  sudo: sorry, you must have a tty to run sudo\n");
	free(m);
}

static void test_other_sudo_outcomes(void **state)
{
	(void)state;
	char *m = text_of(msg_user_missing("claude", "partseeker-coder", "partseeker-orchestrator"));
	assert_starts(m, "ERROR: project \"claude\" requires passwordless sudo to user "
			 "\"partseeker-coder\", but user \"partseeker-coder\" does not exist.\n");
	assert_has(m, "  partseeker-orchestrator ALL=(partseeker-coder) NOPASSWD: ALL\n");
	free(m);

	m = text_of(msg_nologin("claude", "partseeker-coder", "/usr/sbin/nologin"));
	assert_starts(m, "ERROR: project \"claude\" requires passwordless sudo to user "
			 "\"partseeker-coder\", but its login shell \"/usr/sbin/nologin\" "
			 "refuses logins, so sudo -i cannot run anything as it.\n");
	free(m);

	m = text_of(msg_shell_missing("claude", "partseeker-coder", "/bin/zsh"));
	assert_starts(m, "ERROR: project \"claude\" requires passwordless sudo to user "
			 "\"partseeker-coder\", but its login shell \"/bin/zsh\" does not "
			 "exist or is not executable");
	free(m);

	m = text_of(msg_sudo_missing("claude", "partseeker-coder", "/usr/bin/sudo",
			     "/etc/ruas/ruas.conf"));
	assert_starts(m, "ERROR: project \"claude\" requires passwordless sudo to user "
			 "\"partseeker-coder\", but sudo is not installed: "
			 "\"/usr/bin/sudo\" cannot be executed.\n");
	assert_has(m, "/etc/ruas/ruas.conf");
	free(m);

	m = text_of(msg_helper_failed("claude", "partseeker-coder", "/usr/libexec/ruas/ruas-exec",
			      127, "-bash: /usr/libexec/ruas/ruas-exec: No such file\n"));
	assert_starts(m, "ERROR: project \"claude\": sudo to user \"partseeker-coder\" "
			 "works, but the ruas helper \"/usr/libexec/ruas/ruas-exec\" could "
			 "not be run as that user (exit status 127).\n");
	assert_has(m, "\n  -bash: /usr/libexec/ruas/ruas-exec: No such file\n");
	free(m);

	m = text_of(msg_sudo_failed("claude", "partseeker-coder", 0, 1, 120, ""));
	assert_starts(m, "ERROR: project \"claude\": the checks run as user "
			 "\"partseeker-coder\" through sudo did not finish within 120 "
			 "seconds.\n");
	free(m);
	m = text_of(msg_sudo_failed("claude", "partseeker-coder", 3, 0, 120, "boom\n"));
	assert_has(m, "failed (exit status 3) without a report");
	assert_has(m, "It said:\n  boom\n");
	free(m);
}

/* ------------------------------------------------------- escalation */

static void test_escalation(void **state)
{
	(void)state;
	const char *list = "User x may run the following commands on host:\n"
			   "    (ALL) NOPASSWD: ALL\n";
	char *m = text_of(msg_escalation("partseeker-coder", list));
	assert_non_null(m);
	assert_starts(m, escalation_seed);
	assert_string_equal(m + strlen(escalation_seed),
			    "  User x may run the following commands on host:\n"
			    "      (ALL) NOPASSWD: ALL\n");
	free(m);

	m = text_of(msg_escalation("partseeker-coder", "User x may run...\n"));
	assert_starts(m, escalation_seed);
	assert_string_equal(m + strlen(escalation_seed), "  User x may run...\n");
	free(m);

	/* A listing without a final newline still ends the block with one. */
	m = text_of(msg_escalation("partseeker-coder", "last"));
	assert_string_equal(m + strlen(escalation_seed), "  last\n");
	free(m);

	/* No listing: the seed alone. */
	m = text_of(msg_escalation("partseeker-coder", ""));
	assert_string_equal(m, escalation_seed);
	free(m);

	/* Terminal escapes in the listing are not passed on. */
	m = text_of(msg_escalation("partseeker-coder", "evil \x1b]0;title\x07 here\r\n"));
	assert_no_raw_controls(m);
	assert_has(m, "\\x1b");
	free(m);

	/* A rule as another user: the rule indented, escapes neutralised. */
	m = text_of(msg_sudo_rule("partseeker-coder", "(root) NOPASSWD: /usr/bin/apt \x1b[2J", NULL, NULL));
	assert_starts(m, "ERROR: target user \"partseeker-coder\" can run commands as another "
			 "user without a password:\n  (root) NOPASSWD: /usr/bin/apt \\x1b[2J\n");
	assert_no_raw_controls(m);
	free(m);
	m = text_of(msg_sudo_unlisted("partseeker-coder"));
	assert_has(m, "ruas-setup check --target partseeker-coder");
	assert_has(m, "Defaults:partseeker-coder listpw=never");
	free(m);
}

/* --------------------------------------------------------- work_dir */

static void test_work_dir_denied(void **state)
{
	(void)state;
	struct dir_result d;
	memset(&d, 0, sizeof d);
	d.state = DIR_DENIED;
	d.path = "/srv";
	strcpy(d.missing, "x");
	d.mode = 0700;
	d.owner = "root";
	char *m = text_of(msg_work_dir_denied("claude", "/srv/partseeker", "partseeker-coder", &d));
	assert_string_equal(
		m,
		"ERROR: project \"claude\" work_dir \"/srv/partseeker\" is not "
		"accessible to user \"partseeker-coder\".\n"
		"Missing: search (x) permission on \"/srv\" (mode 700 owner root).\n"
		"Grant it, for example with:\n"
		"  setfacl -m u:partseeker-coder:x /srv\n"
		"or change the owner or mode of \"/srv\". Then restart ruas.\n");
	free(m);

	/* The work_dir itself, unreadable and unsearchable, with a space. */
	d.path = "/srv/part seeker";
	strcpy(d.missing, "rx");
	d.mode = 0750;
	m = text_of(msg_work_dir_denied("claude", "/srv/part seeker", "partseeker-coder", &d));
	assert_starts(m, "ERROR: project \"claude\" work_dir \"/srv/part seeker\" is "
			 "not accessible to user \"partseeker-coder\"");
	assert_has(m, "read and search (rx) permission on \"/srv/part seeker\" "
		      "(mode 750 owner root)");
	assert_has(m, "\n  setfacl -m u:partseeker-coder:rx '/srv/part seeker'\n");
	free(m);

	strcpy(d.missing, "r");
	d.path = "/srv/partseeker";
	m = text_of(msg_work_dir_denied("claude", "/srv/partseeker", "partseeker-coder", &d));
	assert_has(m, "Missing: read (r) permission on \"/srv/partseeker\"");
	assert_has(m, "setfacl -m u:partseeker-coder:r /srv/partseeker\n");
	free(m);
}

static void test_work_dir_missing(void **state)
{
	(void)state;
	struct dir_result d;
	memset(&d, 0, sizeof d);
	d.state = DIR_MISSING;
	d.path = "/srv/partseeker";
	d.errnum = ENOENT;
	char *m = text_of(msg_work_dir_missing("claude", "/srv/partseeker", "partseeker-coder",
				       &d, "/etc/ruas/ruas.conf"));
	assert_starts(m, "ERROR: project \"claude\" work_dir \"/srv/partseeker\" is not "
			 "accessible to user \"partseeker-coder\".\n");
	assert_has(m, "Missing: \"/srv/partseeker\" cannot be reached (");
	assert_has(m, "/etc/ruas/ruas.conf");
	free(m);

	d.errnum = ENOTDIR;
	m = text_of(msg_work_dir_missing("claude", "/srv/partseeker", "partseeker-coder", &d,
				 "/etc/ruas/ruas.conf"));
	assert_has(m, "\"/srv/partseeker\" is not a directory");
	free(m);
}

/* ------------------------------------------------------------- scan */

static const char scan_head[] =
	"WARNING: project \"claude\" work_dir \"/home/leigh/workspace\" contains "
	"paths that user \"partseeker-coder\" may not be able to access cleanly:\n";

static void test_scan_exact(void **state)
{
	(void)state;
	struct scan_item items[2] = {
		{"/home/leigh/workspace/some-repo/secret.env", SCAN_NOT_READABLE, 0600,
		 0, "leigh"},
		{"/home/leigh/workspace/another-repo/data.db",
		 SCAN_NOT_READABLE | SCAN_NOT_WRITABLE, 0600, 0, "leigh"},
	};
	char *m = text_of(msg_scan("claude", "/home/leigh/workspace", "partseeker-coder", items,
			   2, 19));
	assert_string_equal(
		m,
		"WARNING: project \"claude\" work_dir \"/home/leigh/workspace\" contains "
		"paths that user \"partseeker-coder\" may not be able to access cleanly:\n"
		"  /home/leigh/workspace/some-repo/secret.env (not readable, mode 600 "
		"owner leigh)\n"
		"  /home/leigh/workspace/another-repo/data.db (not readable, not "
		"writable, mode 600 owner leigh)\n"
		"  ... and 17 more\n"
		"\n"
		"The agent may fail with EACCES when accessing these paths. Fix "
		"ownership/permissions, narrow the project scope, or accept the risk if "
		"the inaccessible paths are intentionally out of bounds.\n");
	free(m);
}

static void test_scan_without_more(void **state)
{
	(void)state;
	struct scan_item items[2] = {
		{"/w/dir", SCAN_NOT_READABLE | SCAN_NOT_SEARCHABLE, 0700, 0, "root"},
		{"/w/x", SCAN_NOT_SEARCHABLE, 0600, 0, "1234"},
	};
	char *m = text_of(msg_scan("claude", "/home/leigh/workspace", "partseeker-coder", items,
			   2, 2));
	assert_non_null(m);
	assert_null(strstr(m, "... and"));
	struct {
		const char *s;
	} parts[] = {{scan_head},
		     {"  /w/dir (not readable, not searchable, mode 700 owner root)\n"},
		     {"  /w/x (not searchable, mode 600 owner 1234)\n"},
		     {scan_tail}};
	size_t off = 0;
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		assert_starts(m + off, parts[i].s);
		off += strlen(parts[i].s);
	}
	assert_int_equal(strlen(m), off);
	free(m);

	/* total 51 with 50 items: "... and 1 more". */
	struct scan_item one = {"/w/a", SCAN_NOT_WRITABLE, 0444, 0, "root"};
	m = text_of(msg_scan("claude", "/home/leigh/workspace", "partseeker-coder", &one, 1, 2));
	assert_has(m, "  /w/a (not writable, mode 444 owner root)\n  ... and 1 more\n\n");
	free(m);
}

static void test_scan_reasons(void **state)
{
	(void)state;
	struct {
		unsigned int flags;
		const char *want;
	} cases[] = {
		{SCAN_NOT_READABLE, "not readable"},
		{SCAN_NOT_WRITABLE, "not writable"},
		{SCAN_NOT_SEARCHABLE, "not searchable"},
		{SCAN_NOT_READABLE | SCAN_NOT_WRITABLE, "not readable, not writable"},
		{SCAN_NOT_READABLE | SCAN_NOT_SEARCHABLE, "not readable, not searchable"},
		{SCAN_NOT_WRITABLE | SCAN_NOT_SEARCHABLE, "not writable, not searchable"},
		{7, "not readable, not writable, not searchable"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct buf b = BUF_INIT;
		msg_scan_reasons(&b, cases[i].flags);
		assert_string_equal(b.data, cases[i].want);
		buf_free(&b);
	}
}

static void test_scan_incomplete_and_groups(void **state)
{
	(void)state;
	char *m = text_of(msg_scan_incomplete("claude", "/srv/partseeker", 123456, 60,
				      "/etc/ruas/ruas.conf"));
	assert_starts(m, "WARNING: project \"claude\" work_dir \"/srv/partseeker\": "
			 "scan incomplete after 123456 entries (time limit of 60 seconds");
	assert_has(m, "or a tree deeper than 256 levels); paths beyond were not checked.\n");
	assert_has(m, "Raise scan_time_limit in /etc/ruas/ruas.conf");
	free(m);

	m = text_of(msg_root_groups("claude", "partseeker-coder", "docker, sudo"));
	assert_starts(m, "WARNING: project \"claude\": target user \"partseeker-coder\" "
			 "is a member of docker, sudo, which give root");
	assert_has(m, "gpasswd -d partseeker-coder GROUP\n");
	free(m);

	m = text_of(msg_internal("claude", "partseeker-coder", "out of memory"));
	assert_string_equal(m, "ERROR: project \"claude\": could not check user "
			       "\"partseeker-coder\": out of memory.\n"
			       "Find what kept ruas from checking it (the system log may say), "
			       "fix it, and check again. Then restart ruas.\n");
	free(m);
}

/* --------------------------------------------------- hostile values */

static void test_hostile_work_dir_escaped(void **state)
{
	(void)state;
	const char *wd = "/srv/evil\nERROR: forged line\x1b[2J\"q\\";
	const char *want_line =
		"WARNING: project \"claude\" work_dir \"/srv/evil\\nERROR: forged "
		"line\\x1b[2J\\\"q\\\\\" contains paths that user \"partseeker-coder\" "
		"may not be able to access cleanly:";
	struct scan_item it = {"/srv/evil\nERROR: forged line\x1b[2J/f\tg",
			       SCAN_NOT_READABLE, 0600, 0, "own\ner"};
	char *m = text_of(msg_scan("claude", wd, "partseeker-coder", &it, 1, 1));
	char *line = first_line(m);
	assert_string_equal(line, want_line);
	free(line);
	assert_no_raw_controls(m);
	assert_has(m, "\n  /srv/evil\\nERROR: forged line\\x1b[2J/f\\tg (not readable, "
		      "mode 600 owner own\\ner)\n");
	/* No line of the message starts with the forged "ERROR:". */
	assert_null(strstr(m, "\nERROR:"));
	free(m);

	struct dir_result d;
	memset(&d, 0, sizeof d);
	d.state = DIR_DENIED;
	d.path = (char *)wd;
	strcpy(d.missing, "x");
	d.mode = 0700;
	d.owner = "ro\x1bot";
	m = text_of(msg_work_dir_denied("claude", wd, "partseeker-coder", &d));
	line = first_line(m);
	assert_string_equal(line, "ERROR: project \"claude\" work_dir \"/srv/evil\\nERROR: "
				  "forged line\\x1b[2J\\\"q\\\\\" is not accessible to user "
				  "\"partseeker-coder\".");
	free(line);
	assert_no_raw_controls(m);
	/* The shell command stays on one line and quotes the path. */
	assert_has(m, "\n  setfacl -m u:partseeker-coder:x $'/srv/evil\\nERROR: forged "
		      "line\\x1b[2J\"q\\\\'\n");
	free(m);

	d.state = DIR_MISSING;
	d.errnum = ENOENT;
	m = text_of(msg_work_dir_missing("claude", wd, "partseeker-coder", &d, "/etc/r\nuas.conf"));
	assert_no_raw_controls(m);
	assert_null(strstr(m, "\nERROR: forged"));
	free(m);

	m = text_of(msg_scan_incomplete("claude", wd, 5, 60, "/etc/ruas.conf"));
	line = first_line(m);
	assert_has(line, "\"/srv/evil\\nERROR: forged line\\x1b[2J\\\"q\\\\\": scan incomplete");
	free(line);
	assert_no_raw_controls(m);
	free(m);
}

static void test_hostile_tool_output_escaped(void **state)
{
	(void)state;
	char *m = text_of(msg_sudo_not_configured("claude", "partseeker-coder",
					  "partseeker-orchestrator",
					  "sudo: \x1b[31mred\x1b[0m\rforged\n"));
	assert_starts(m, sudo_seed);
	assert_no_raw_controls(m);
	free(m);

	m = text_of(msg_helper_failed("claude", "partseeker-coder", "/h", 126,
			      "a\x1b]0;t\x07\nb\n"));
	assert_no_raw_controls(m);
	assert_has(m, "\n  b\n");
	free(m);
}

/* An ERROR's words: a fix, which is the text's own, apart from its "Then restart ruas.". */
static void fatal_fix(struct words w, const char *want)
{
	assert_non_null(w.text);
	assert_starts(w.text, "ERROR: ");
	if (!w.fix || !*w.fix)
		fail_msg("no fix for:\n%s", w.text);
	if (want)
		assert_string_equal(w.fix, want);
	free(text_of(w));
}

static void test_every_error_has_a_fix(void **state)
{
	(void)state;
	struct dir_result d = {.path = "/srv", .missing = "x", .mode = 0700, .owner = "root"};
	struct group_hit g = {.name = "docker", .gid = 999, .member = 1,
			      .severity = RUAS_SEVERITY_FATAL, .why = "docker is root"};
	struct anchor_hit a = {.path = "/etc/x", .how = 'w', .mode = 0666, .owner = "root",
			       .group = "root", .anchor = "/etc/x"};
	const char *P = "p", *U = "t1";
	fatal_fix(msg_sudo_not_configured(P, U, "sup", NULL),
		  "Add a sudoers rule that allows user \"sup\" to run commands as \"t1\" "
		  "without a password, for example:\n  sup ALL=(t1) NOPASSWD: ALL");
	fatal_fix(msg_user_missing(P, U, "sup"), NULL);
	fatal_fix(msg_nologin(P, U, "/usr/sbin/nologin"),
		  "Give it a real login shell, for example:\n  usermod -s /bin/bash t1");
	fatal_fix(msg_shell_missing(P, U, "/bin/nope"), NULL);
	fatal_fix(msg_sudo_missing(P, U, "/usr/bin/sudo", "/etc/ruas.conf"),
		  "Install it (apt-get install sudo), or set sudo = \"/path/to/sudo\" in "
		  "/etc/ruas.conf.");
	fatal_fix(msg_helper_failed(P, U, "/h", 1, "said"), NULL);
	fatal_fix(msg_helper_readable(P, U, "/h", 0755),
		  "chmod 0711 \"/h\" (make install and the Debian package leave it so).");
	fatal_fix(msg_sudo_failed(P, U, 1, 0, 5, "x"), NULL);
	fatal_fix(msg_sudo_failed(P, U, 1, 1, 5, NULL), NULL);
	fatal_fix(msg_escalation(U, "(ALL) NOPASSWD: ALL"),
		  "Remove NOPASSWD sudo access for this user before starting ruas with this "
		  "project.");
	fatal_fix(msg_sudo_rule(U, "(ALL) NOPASSWD: ALL", "Defaults !authenticate", "why"), NULL);
	fatal_fix(msg_sudo_list_unreadable(U, "sudo -n -l", "why", "said"),
		  "Look at them as root with: sudo -l -U t1");
	fatal_fix(msg_work_dir_denied(P, "/srv/p", U, &d), NULL);
	d.errnum = ENOENT;
	fatal_fix(msg_work_dir_missing(P, "/srv/p", U, &d, "/etc/ruas.conf"), NULL);
	fatal_fix(msg_work_dir_trusted(P, "/etc/p", "/etc/p", "is inside", "/etc"),
		  "Use a directory of the project's own, such as /srv/ruas/p.");
	fatal_fix(msg_password_empty(P, U),
		  "passwd -l t1 (lock it; ruas-setup useradd makes its users locked).");
	fatal_fix(msg_targetpw_empty(U, "r", "(r) ALL"), NULL);
	fatal_fix(msg_doas_rule(P, U, "/etc/doas.conf", 1, "permit nopass t1", "why"),
		  "remove that rule, or drop its nopass (doas.conf(5)), as root.");
	fatal_fix(msg_polkit_way(P, U, "/etc/polkit-1/rules.d/x", 1, "t", "why"), NULL);
	fatal_fix(msg_pam_way(P, U, "su", "/etc/pam.d/su", 1, "t", "why"),
		  "remove that line, as root.");
	fatal_fix(msg_doas_root(P, U), NULL);
	fatal_fix(msg_root_password_empty(NULL), "passwd -l root (or give root a password).");
	fatal_fix(msg_group_fatal(P, U, &g, 1), "Take the user out of them:\n  gpasswd -d t1 docker");
	fatal_fix(msg_internal(P, U, "why"), NULL);
	fatal_fix(msg_pam_account(P, U, "ruas", "expired"), NULL);
	fatal_fix(msg_pam_service(P, U, "ruas", "it is missing"), NULL);
	fatal_fix(msg_pam_unusable(P, U, "what", "Do this."), "Do this.");
	fatal_fix(msg_pam_failed(P, U, "/s", 1, 0, NULL), NULL);
	fatal_fix(msg_pam_failed(P, U, "/s", 1, 1, NULL),
		  "Install ruas, or set session_helper in the configuration.");
	fatal_fix(msg_escape(P, "/srv/p", "leigh", "a symlink"), NULL);
	fatal_fix(msg_bwrap(P, U, "no"), NULL);
	fatal_fix(msg_lifetime_unavailable(P, U, 0, 1, "EPERM"), NULL);
	fatal_fix(msg_anchor(U, "sup", &a), "chmod go-w /etc/x.");
	for (const char *h = "cht"; *h; h++) {
		a.how = *h;
		fatal_fix(msg_anchor(U, "sup", &a), NULL);
	}
	a.how = 'u';
	fatal_fix(msg_anchor(U, "sup", &a), NULL);
	fatal_fix(msg_anchors_more(U, 3), "Fix those, then run ruas check again to see the rest.");
	/* A warning may have none. */
	struct words w = msg_audit_shared("a", "b", U, 1);
	assert_null(w.fix);
	free(text_of(w));
}

/*
 * sudo's own failures: each gets its own words, and names a limit only
 * where it can be the cause (issue 26: RLIMIT_NOFILE was named for every
 * one, "a PAM account management error" and EAGAIN included).
 */
static void test_sudo_own_failure_words(void **state)
{
	(void)state;
	struct rlimit nofile, nproc, lowered;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &nofile), 0);
	assert_int_equal(getrlimit(RLIMIT_NPROC, &nproc), 0);
	lowered = nofile;
	lowered.rlim_cur = nofile.rlim_max < 777 ? nofile.rlim_max : 777;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &lowered), 0);
	char nofile_words[64];
	snprintf(nofile_words, sizeof nofile_words, "RLIMIT_NOFILE %llu;",
		 (unsigned long long)lowered.rlim_cur);
	lowered = nproc;
	lowered.rlim_cur = nproc.rlim_max < 4321 ? nproc.rlim_max : 4321;
	assert_int_equal(setrlimit(RLIMIT_NPROC, &lowered), 0);
	char nproc_words[64];
	snprintf(nproc_words, sizeof nproc_words, "RLIMIT_NPROC allows (%llu",
		 (unsigned long long)lowered.rlim_cur);
	static const struct {
		const char *said;
		int errnum;
		const char *has, *also;
		int names_nofile; /* as the cause ("raise it"), or not at all (-1) */
	} cases[] = {
		{"sudo: pipe: Too many open files\n", EMFILE, "ran out of file descriptors", "raise it", 1},
		{"sudo: Too many open files in system\n", ENFILE, "the host ran out of file descriptors",
		 "fs.file-max", -1},
		{"sudo: unable to allocate memory\n", ENOMEM, "ran out of memory", "RLIMIT_AS", -1},
		{"sudo: unable to initialize PAM: Cannot allocate memory\n", ENOMEM, "ran out of memory",
		 "RLIMIT_AS", -1},
		{"sudo: PAM account management error: Authentication service cannot retrieve "
		 "authentication info\n",
		 -1, "its PAM stack failed", "auth log", 0},
		{"sudo: unable to initialize PAM: Critical error - immediate abort\n", -1,
		 "its PAM stack failed", "names the module", 0},
		{"sudo: unknown uid 1001: who are you?\n", -1, "passwd entry of the user it runs as",
		 "nsswitch.conf", -1},
		{"sudo: unable to fork: Resource temporarily unavailable\n", -1, "could not fork",
		 "pids cgroup", -1},
		{"sudo: unable to execute /x: Resource temporarily unavailable\n", -1,
		 "resource ran out (EAGAIN)", "the user it switches to", -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(sudo_failed_itself(cases[i].said, NULL), cases[i].errnum);
		char why[SUDO_WORDS_MAX];
		const char *w = sudo_failure_words(cases[i].said, why, sizeof why);
		assert_ptr_equal(w, why);
		assert_starts(w, "sudo failed by itself, not by its rules: ");
		assert_has(w, cases[i].has);
		assert_has(w, cases[i].also);
		if (cases[i].names_nofile > 0)
			assert_has(w, nofile_words);
		if (cases[i].names_nofile < 0 && strstr(w, "RLIMIT_NOFILE"))
			fail_msg("\"%s\" named RLIMIT_NOFILE: %s", cases[i].said, w);
		if (strstr(cases[i].has, "EAGAIN") || strstr(cases[i].has, "fork"))
			assert_has(w, strstr(cases[i].has, "fork") ? nproc_words : "RLIMIT_NPROC allows (");
		if (strlen(w) + 1 >= sizeof why)
			fail_msg("the words were cut: %s", w);
	}
	/* A refusal by the rules is not sudo's own failure. */
	assert_int_equal(sudo_failed_itself("sudo: a password is required\n", NULL), 0);
	assert_int_equal(sudo_failed_itself("sudo: unknown user ruas-no-such-user\n",
					    "ruas-no-such-user"),
			 0);
	/* "unknown user" of a user this process finds (root) is a failure to read it. */
	assert_int_equal(sudo_failed_itself("sudo: unknown user root\n", "root"), -1);
	char why[SUDO_WORDS_MAX];
	assert_has(sudo_failure_words("sudo: unknown user root\n", why, sizeof why),
		   "could not read the target's passwd entry, which this process reads");
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &nofile), 0);
	assert_int_equal(setrlimit(RLIMIT_NPROC, &nproc), 0);
}

/* Killed by a signal: sudo passes on the signal that ended its command. */
static void test_sudo_signal_may_be_the_helpers(void **state)
{
	(void)state;
	char *m = text_of(msg_sudo_failed("claude", "partseeker-coder", 128 + 11, 0, 0, ""));
	assert_starts(m, "ERROR: project \"claude\": the checks run as user \"partseeker-coder\" "
			 "through sudo ended by signal 11 without a report.\n"
			 "The signal ended sudo or the ruas helper it ran: sudo ends by the signal "
			 "that ended its command.\n");
	free(m);
	m = text_of(msg_sudo_failed("claude", "partseeker-coder", 3, 0, 0, ""));
	if (strstr(m, "The signal"))
		fail_msg("an exit status said as a signal: %s", m);
	free(m);
}

/* sudo's "unknown user" of a user this process finds: not "create it". */
static void test_sudo_unknown_user_found_here(void **state)
{
	(void)state;
	char *m = text_of(msg_user_unread("claude", "partseeker-coder", 1234,
					  "sudo: unknown user partseeker-coder\n"));
	assert_starts(m, "ERROR: project \"claude\" requires passwordless sudo to user "
			 "\"partseeker-coder\", but user \"partseeker-coder\" does not exist.\n"
			 "That is what sudo says, but this process finds user \"partseeker-coder\" "
			 "(uid 1234): sudo could not read its passwd entry.\n");
	assert_has(m, "/etc/nsswitch.conf");
	assert_has(m, "sudo -n -u partseeker-coder -- true\n");
	assert_has(m, "sudo said:\n  sudo: unknown user partseeker-coder\n");
	if (strstr(m, "useradd") || strstr(m, "Create it"))
		fail_msg("a user that exists is to be created: %s", m);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sudo_not_configured_exact),
		cmocka_unit_test(test_sudo_not_configured_other_reason),
		cmocka_unit_test(test_other_sudo_outcomes),
		cmocka_unit_test(test_sudo_own_failure_words),
		cmocka_unit_test(test_sudo_signal_may_be_the_helpers),
		cmocka_unit_test(test_sudo_unknown_user_found_here),
		cmocka_unit_test(test_escalation),
		cmocka_unit_test(test_work_dir_denied),
		cmocka_unit_test(test_work_dir_missing),
		cmocka_unit_test(test_scan_exact),
		cmocka_unit_test(test_scan_without_more),
		cmocka_unit_test(test_scan_reasons),
		cmocka_unit_test(test_scan_incomplete_and_groups),
		cmocka_unit_test(test_hostile_work_dir_escaped),
		cmocka_unit_test(test_hostile_tool_output_escaped),
		cmocka_unit_test(test_every_error_has_a_fix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
