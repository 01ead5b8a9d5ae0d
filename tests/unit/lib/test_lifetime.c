/* SPDX-License-Identifier: ISC */
/*
 * test_lifetime.c - what outlives a run (src/lib/check/lifetime.c): lingering,
 * a running systemd user manager, crontab and at, probed beneath a fake root
 * directory; and the text of the warning (messages_lifetime.c).
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
#include <sys/stat.h>
#include <unistd.h>

#include "check/lifetime.h"
#include "check/messages.h"
#include "fixture.h"

#define UID 1501u

struct fix {
	char root[64];
};

/* mkdir -p root/rel's parent, then root/rel with text (NULL: a directory). */
static void put(const struct fix *f, const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", f->root, rel);
	for (char *p = path + strlen(f->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	if (!text) {
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		return;
	}
	write_file(path, text, 0644);
}

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	strcpy(f->root, "/tmp/ruas-lifetime.XXXXXX");
	if (!mkdtemp(f->root)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	rm_rf(f->root);
	free(f);
	return 0;
}

static struct outlives probe(const struct fix *f, const char *user, uid_t uid)
{
	struct outlives lt;
	memset(&lt, 0x5a, sizeof lt); /* every field must be set */
	lifetime_probe(f->root, user, uid, &lt);
	return lt;
}

/* s says verdict v, decided by file (NULL: none). */
static void assert_sched(const struct sched *s, enum sched_verdict v, const char *file)
{
	assert_int_equal(s->verdict, v);
	if (file)
		assert_string_equal(s->file, file);
	else
		assert_null(s->file);
}

/* ------------------------------------------------------------- the probe */

static void test_clean_host(void **state)
{
	const struct fix *f = *state;
	put(f, "etc/passwd", "root:x:0:0::/root:/bin/sh\n");
	put(f, "var/lib/systemd/linger", NULL);
	put(f, "proc/1/status", "Name:\tsystemd\nUmask:\t0000\nState:\tS (sleeping)\n"
				"Uid:\t0\t0\t0\t0\n");
	/* cron.deny and at.deny would allow it, but neither program is installed. */
	put(f, "etc/cron.deny", "daemon\n");
	put(f, "etc/at.deny", "daemon\n");
	struct outlives lt = probe(f, "t1", UID);
	assert_false(lt.linger);
	assert_false(lt.manager);
	assert_sched(&lt.cron, SCHED_NO, NULL);
	assert_int_equal(lt.at.verdict, SCHED_NO);
	assert_false(lt.crontab);
	assert_false(lifetime_any(&lt));

	/* A root that does not exist: nothing, and no crash. */
	struct outlives none;
	lifetime_probe("/nonexistent/ruas-lifetime", "t1", UID, &none);
	assert_false(lifetime_any(&none));
}

static void test_linger(void **state)
{
	const struct fix *f = *state;
	put(f, "var/lib/systemd/linger/t1", "");
	struct outlives lt = probe(f, "t1", UID);
	assert_true(lt.linger);
	assert_true(lifetime_any(&lt));
	assert_false(probe(f, "t2", UID + 1).linger);
	/* logind tests only that the name exists: a dangling symlink counts. */
	char path[512];
	snprintf(path, sizeof path, "%s/var/lib/systemd/linger/t3", f->root);
	assert_int_equal(symlink("/nonexistent", path), 0);
	assert_true(probe(f, "t3", UID + 2).linger);
}

static void test_manager_cgroup(void **state)
{
	const struct fix *f = *state;
	put(f, "sys/fs/cgroup/user.slice/user-1501.slice/user@1501.service", NULL);
	put(f, "sys/fs/cgroup/unified/user.slice/user-1502.slice/user@1502.service", NULL);
	put(f, "sys/fs/cgroup/systemd/user.slice/user-1503.slice/user@1503.service", NULL);
	/* The slice alone (a session, no manager) is not a manager. */
	put(f, "sys/fs/cgroup/user.slice/user-1504.slice/session-3.scope", NULL);
	assert_true(probe(f, "t1", 1501).manager);
	assert_true(probe(f, "t2", 1502).manager);
	assert_true(probe(f, "t3", 1503).manager);
	assert_false(probe(f, "t4", 1504).manager);
	assert_false(probe(f, "t5", 15010).manager);
}

static void test_manager_process(void **state)
{
	const struct fix *f = *state;
	/* Real uid 0, effective 1501: not the target's manager. */
	put(f, "proc/10/status", "Name:\tsystemd\nUid:\t0\t1501\t1501\t1501\n");
	/* The target's, under other names. */
	put(f, "proc/11/status", "Name:\tsystemd-journal\nUid:\t1501\t1501\t1501\t1501\n");
	put(f, "proc/12/status", "Name:\t(sd-pam)\nUid:\t1501\t1501\t1501\t1501\n");
	put(f, "proc/13/status", "Name:\tsleep\nUid:\t1501\t1501\t1501\t1501\n");
	/* Not a pid. */
	put(f, "proc/self/status", "Name:\tsystemd\nUid:\t1501\t1501\t1501\t1501\n");
	put(f, "proc/0x1/status", "Name:\tsystemd\nUid:\t1501\t1501\t1501\t1501\n");
	assert_false(probe(f, "t1", 1501).manager);
	/* Another uid whose decimal starts the same. */
	put(f, "proc/20/status", "Name:\tsystemd\nUid:\t15010\t15010\t15010\t15010\n");
	assert_false(probe(f, "t1", 1501).manager);
	assert_true(probe(f, "t9", 15010).manager);
	/* systemd --user of the target, Name not on the first line. */
	put(f, "proc/4242/status", "Umask:\t0022\nName:\tsystemd\nState:\tS (sleeping)\n"
				   "Tgid:\t4242\nUid:\t1501\t1501\t1501\t1501\nGid:\t1501\n");
	assert_true(probe(f, "t1", 1501).manager);
	assert_false(probe(f, "t2", 1502).manager);
}

static void test_cron(void **state)
{
	const struct fix *f = *state;
	struct outlives lt;
	put(f, "usr/bin/crontab", "");
	/* Neither file: every user may (Debian's crontab(1)). */
	lt = probe(f, "t1", UID);
	assert_sched(&lt.cron, SCHED_NO_FILES, NULL);
	assert_true(lifetime_any(&lt));

	put(f, "etc/cron.deny", "daemon\nt10\n t1\nt1 \n");
	lt = probe(f, "t1", UID);
	assert_sched(&lt.cron, SCHED_DENY_UNLISTED, "/etc/cron.deny");
	/* A last line without its newline does not count in a deny file. */
	put(f, "etc/cron.deny", "daemon\nt1");
	assert_int_equal(probe(f, "t1", UID).cron.verdict, SCHED_DENY_UNLISTED);
	put(f, "etc/cron.deny", "daemon\nt1\nbin\n");
	assert_int_equal(probe(f, "t1", UID).cron.verdict, SCHED_NO);
	assert_false(lifetime_any(&(struct outlives){0}));

	/* The allow file decides when it exists: the deny file is not read. */
	put(f, "etc/cron.allow", "t2\n");
	put(f, "etc/cron.deny", "daemon\n");
	assert_int_equal(probe(f, "t1", UID).cron.verdict, SCHED_NO);
	lt = probe(f, "t2", UID + 1);
	assert_sched(&lt.cron, SCHED_ALLOW_LISTED, "/etc/cron.allow");
	/* ... where a last line without its newline counts. */
	put(f, "etc/cron.allow", "t2\nt1");
	assert_int_equal(probe(f, "t1", UID).cron.verdict, SCHED_ALLOW_LISTED);
	/* An empty allow file allows nobody. */
	put(f, "etc/cron.allow", "");
	assert_int_equal(probe(f, "t1", UID).cron.verdict, SCHED_NO);
}

/* A file that exists but cannot be read (a directory: root reads any file). */
static void test_unreadable(void **state)
{
	const struct fix *f = *state;
	struct outlives lt;
	put(f, "usr/bin/crontab", "");
	put(f, "usr/bin/at", "");
	put(f, "etc/cron.allow", NULL);
	put(f, "etc/at.deny", NULL);
	lt = probe(f, "t1", UID);
	assert_sched(&lt.cron, SCHED_UNREADABLE, "/etc/cron.allow");
	assert_sched(&lt.at, SCHED_UNREADABLE, "/etc/at.deny");
}

static void test_at(void **state)
{
	const struct fix *f = *state;
	struct outlives lt;
	put(f, "usr/bin/at", "");
	/* Neither file: only root may (at.allow(5)). */
	assert_int_equal(probe(f, "t1", UID).at.verdict, SCHED_NO);
	/* An empty at.deny: everyone may. */
	put(f, "etc/at.deny", "");
	lt = probe(f, "t1", UID);
	assert_sched(&lt.at, SCHED_DENY_UNLISTED, "/etc/at.deny");
	assert_int_equal(lt.cron.verdict, SCHED_NO); /* crontab is not installed */
	put(f, "etc/at.deny", "daemon\nt1\n");
	assert_int_equal(probe(f, "t1", UID).at.verdict, SCHED_NO);
	put(f, "etc/at.allow", "t1\n");
	lt = probe(f, "t1", UID);
	assert_sched(&lt.at, SCHED_ALLOW_LISTED, "/etc/at.allow");
}

static void test_crontab_spool(void **state)
{
	const struct fix *f = *state;
	put(f, "var/spool/cron/crontabs/t1", "* * * * * true\n");
	assert_true(probe(f, "t1", UID).crontab);
	assert_false(probe(f, "t2", UID + 1).crontab);
	assert_true(lifetime_any(&(struct outlives){.crontab = 1}));
}

/* ------------------------------------------------------------- the text */

static void test_text_everything(void **state)
{
	(void)state;
	struct outlives lt = {1, 1, {SCHED_DENY_UNLISTED, "/etc/cron.deny"},
			      {SCHED_ALLOW_LISTED, "/etc/at.allow"}, 1};
	char *m = text_of(msg_lifetime("t1", &lt));
	assert_non_null(m);
	assert_string_equal(
		m,
		"WARNING: target user \"t1\" can hand processes to something that outlives a run:\n"
		"  lingering is enabled (/var/lib/systemd/linger/t1): its systemd user manager "
		"runs whether or not it is logged in.\n"
		"  a systemd user manager (systemd --user) is running for it: systemd-run --user "
		"and systemctl --user start processes there. A login through sudo -i or the ruas "
		"PAM service starts one where pam_systemd is in its PAM stack.\n"
		"  it may use crontab: /etc/cron.deny does not name it.\n"
		"  it has a crontab (/var/spool/cron/crontabs/t1), which cron runs.\n"
		"  it may use at: /etc/at.allow names it.\n"
		"ruas ends the agent's process tree when a run ends; what the agent hands to "
		"these is not in that tree, and keeps running as \"t1\" after it.\n"
		"Turn off what it does not need, or accept the risk:\n"
		"  loginctl disable-linger t1\n"
		"  loginctl terminate-user t1   (stops the running manager, and every process of "
		"\"t1\")\n"
		"  echo t1 >> /etc/cron.deny\n"
		"  crontab -r -u t1\n"
		"  remove t1 from /etc/at.allow\n");
	free(m);
}

/* Only what lt holds, each with its own fix. */
static void test_text_each(void **state)
{
	(void)state;
	struct outlives lt = {0};
	lt.linger = 1;
	char *m = text_of(msg_lifetime("t1", &lt));
	assert_non_null(strstr(m, "\n  lingering is enabled (/var/lib/systemd/linger/t1)"));
	assert_non_null(strstr(m, "\n  loginctl disable-linger t1\n"));
	assert_null(strstr(m, "manager (systemd --user)"));
	assert_null(strstr(m, "terminate-user"));
	assert_null(strstr(m, "crontab"));
	assert_null(strstr(m, "at.deny"));
	free(m);

	lt = (struct outlives){0};
	lt.cron.verdict = SCHED_NO_FILES;
	m = text_of(msg_lifetime("t1", &lt));
	assert_non_null(strstr(m, "\n  it may use crontab: neither /etc/cron.allow nor "
				  "/etc/cron.deny exists.\n"));
	assert_non_null(strstr(m, "\n  echo t1 >> /etc/cron.deny\n"));
	assert_null(strstr(m, "linger"));
	free(m);

	lt = (struct outlives){0};
	lt.cron = (struct sched){SCHED_UNREADABLE, "/etc/cron.allow"};
	lt.at = (struct sched){SCHED_UNREADABLE, "/etc/at.deny"};
	m = text_of(msg_lifetime("t1", &lt));
	assert_non_null(strstr(m, "\n  it may use crontab: /etc/cron.allow exists, but could not "
				  "be read (ruas check as root can read it).\n"));
	assert_non_null(strstr(m, "\n  it may use at: /etc/at.deny exists, but could not be read "
				  "(ruas check as root can read it).\n"));
	assert_non_null(strstr(m, "\n  remove t1 from /etc/cron.allow\n  chmod 0644 "
				  "/etc/cron.allow   (it holds only user names; then ruas check "
				  "can judge it)\n"));
	assert_non_null(strstr(m, "\n  echo t1 >> /etc/at.deny\n  chmod 0644 /etc/at.deny   "));
	assert_null(strstr(m, "echo t1 >> /etc/cron.deny"));
	free(m);
}

/* Names in the first line are quoted and escaped like every name in a text. */
static void test_text_escaped(void **state)
{
	(void)state;
	struct outlives lt = {.manager = 1};
	char *m = text_of(msg_lifetime("a\"b\n", &lt));
	assert_non_null(m);
	assert_non_null(strstr(m, "WARNING: target user \"a\\\"b\\n\" can hand"));
	assert_non_null(strstr(m, "keeps running as \"a\\\"b\\n\" after it.\n"));
	/* ... and in commands, one shell word on one line. */
	assert_non_null(strstr(m, "\n  loginctl terminate-user $'a\"b\\n'   (stops"));
	lt = (struct outlives){.linger = 1, .crontab = 1, .cron = {SCHED_NO_FILES, NULL}};
	free(m);
	m = text_of(msg_lifetime("x'$(id)", &lt));
	assert_non_null(strstr(m, "(/var/lib/systemd/linger/x'$(id)):"));
	assert_non_null(strstr(m, "\n  loginctl disable-linger 'x'\\''$(id)'\n"));
	assert_non_null(strstr(m, "\n  echo 'x'\\''$(id)' >> /etc/cron.deny\n"));
	assert_non_null(strstr(m, "\n  crontab -r -u 'x'\\''$(id)'\n"));
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_linger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_manager_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_manager_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cron, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_at, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crontab_spool, setup, teardown),
		cmocka_unit_test(test_text_everything),
		cmocka_unit_test(test_text_each),
		cmocka_unit_test(test_text_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
