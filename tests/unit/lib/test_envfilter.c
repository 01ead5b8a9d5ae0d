/* SPDX-License-Identifier: ISC */
/*
 * test_envfilter.c - which supervisor variables cross to the agent
 * (src/lib/spawn/envfilter.h): only allowlisted names that are set, in allowlist
 * order, values byte for byte, first definition wins; and ruas-exec, which
 * re-checks every name it is handed against the refusal table itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "env_rules.h"
#include "spawn/envfilter.h"
#include "channel.h"
#include "control.h"
#include "nss_env.h"
#include "payload.h"
#include "started.h"
#include "session.h"

#define NALLOW(a) (sizeof(a) / sizeof *(a) - 1)

static void test_only_allowlisted_in_allowlist_order(void **state)
{
	(void)state;
	const char *const env[] = {
		"PATH=/usr/bin", "TERM=xterm-256color", "HOME=/root",
		"ANTHROPIC_API_KEY=sk-ant-123", "LANG=C.UTF-8", "SECRET=x",
		"LD_PRELOAD=/evil.so", NULL};
	const char *const allow[] = {"LANG", "LC_ALL", "TERM",
				     "ANTHROPIC_API_KEY", NULL};
	const char *names[NALLOW(allow)], *values[NALLOW(allow)];
	memset(names, 0, sizeof names);
	memset(values, 0, sizeof values);
	size_t n = env_filter(env, allow, names, values);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "LANG");
	assert_string_equal(values[0], "C.UTF-8");
	assert_string_equal(names[1], "TERM");
	assert_string_equal(values[1], "xterm-256color");
	assert_string_equal(names[2], "ANTHROPIC_API_KEY");
	assert_string_equal(values[2], "sk-ant-123");
	/* Pointers into the arrays given, as documented. */
	assert_ptr_equal(names[0], allow[0]);
	assert_ptr_equal(values[0], env[4] + strlen("LANG="));
	assert_ptr_equal(values[2], env[3] + strlen("ANTHROPIC_API_KEY="));
}

static void test_values_byte_exact(void **state)
{
	(void)state;
	const char *const env[] = {
		"A=line1\nline2\n", "B=x=y==z", "C=$HOME", "D=", "E= lead and trail ",
		"F=\x01\x1b\x7f\xff", "G='\"\\*", NULL};
	const char *const allow[] = {"A", "B", "C", "D", "E", "F", "G", NULL};
	const char *names[NALLOW(allow)], *values[NALLOW(allow)];
	size_t n = env_filter(env, allow, names, values);
	assert_int_equal(n, 7);
	assert_string_equal(values[0], "line1\nline2\n");
	assert_string_equal(values[1], "x=y==z");
	assert_string_equal(values[2], "$HOME");
	assert_string_equal(values[3], "");
	assert_string_equal(values[4], " lead and trail ");
	assert_string_equal(values[5], "\x01\x1b\x7f\xff");
	assert_string_equal(values[6], "'\"\\*");
	for (size_t i = 0; i < n; i++)
		assert_string_equal(names[i], allow[i]);
}

static void test_prefix_names_not_confused(void **state)
{
	(void)state;
	/* LANGUAGE comes first and starts with LANG. */
	const char *const env[] = {"LANGUAGE=de:en", "LC_ALLX=no", "TERMINAL=no",
				   "LANG=en_GB.UTF-8", NULL};
	const char *const allow[] = {"LANG", "LC_ALL", "TERM", "LANGUAGE", NULL};
	const char *names[NALLOW(allow)], *values[NALLOW(allow)];
	size_t n = env_filter(env, allow, names, values);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "LANG");
	assert_string_equal(values[0], "en_GB.UTF-8");
	assert_string_equal(names[1], "LANGUAGE");
	assert_string_equal(values[1], "de:en");

	/* And the other way round: a longer allowlisted name, a shorter one set. */
	const char *const env2[] = {"LANG=C", NULL};
	const char *const allow2[] = {"LANGUAGE", "LAN", NULL};
	const char *names2[2], *values2[2];
	assert_int_equal(env_filter(env2, allow2, names2, values2), 0);
}

static void test_first_definition_wins(void **state)
{
	(void)state;
	const char *const env[] = {"TERM=first", "LANG=one", "TERM=second",
				   "LANG=two", NULL};
	const char *const allow[] = {"TERM", "LANG", NULL};
	const char *names[2], *values[2];
	size_t n = env_filter(env, allow, names, values);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "TERM");
	assert_string_equal(values[0], "first");
	assert_string_equal(names[1], "LANG");
	assert_string_equal(values[1], "one");
}

static void test_malformed_and_empty_inputs(void **state)
{
	(void)state;
	/* An entry without '=' is no definition; nor is "=value". */
	const char *const env[] = {"TERM", "=x", "LANG", "TERM=vt100", NULL};
	const char *const allow[] = {"TERM", "LANG", NULL};
	const char *names[2], *values[2];
	size_t n = env_filter(env, allow, names, values);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "TERM");
	assert_string_equal(values[0], "vt100");

	const char *const empty_env[] = {NULL};
	assert_int_equal(env_filter(empty_env, allow, names, values), 0);
	assert_int_equal(env_filter(NULL, allow, names, values), 0);
	const char *const no_allow[] = {NULL};
	assert_int_equal(env_filter(env, no_allow, names, values), 0);
	assert_int_equal(env_filter(env, NULL, names, values), 0);
}

/* ------------------------------------------------------------ ruas-exec */

#define NOBODY 65534

/*
 * Runs the built ruas-exec in exec mode, as nobody when we are root (it
 * refuses root), with one variable name=value and the command /bin/true.
 * Returns its exit status (or -1); its stderr goes to err.
 */
/*
 * A copy of the built ruas-exec that nobody can execute: the build tree may
 * sit in a 0700 directory (root's home), which nobody cannot enter.
 */
static char helper_dir[64];
static char helper[4096];

static void helper_copy(void)
{
	const char *top = getenv("abs_top_builddir");
	if (!top)
		fail_msg("abs_top_builddir unset: run through make check");
	char built[4096];
	snprintf(built, sizeof built, "%s/ruas-exec", top);
	snprintf(helper_dir, sizeof helper_dir, "/tmp/ruas-envfilter.XXXXXX");
	assert_non_null(mkdtemp(helper_dir));
	assert_int_equal(chmod(helper_dir, 0755), 0);
	snprintf(helper, sizeof helper, "%s/ruas-exec", helper_dir);
	int in = open(built, O_RDONLY | O_CLOEXEC);
	int out = open(helper, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	assert_true(in >= 0 && out >= 0);
	char chunk[65536];
	ssize_t n;
	while ((n = read(in, chunk, sizeof chunk)) > 0)
		assert_int_equal(write(out, chunk, (size_t)n), n);
	assert_int_equal(n, 0);
	close(in);
	assert_int_equal(close(out), 0);
}

static int helper_remove(void **state)
{
	(void)state;
	if (helper_dir[0]) {
		unlink(helper);
		rmdir(helper_dir);
	}
	return 0;
}

/* How the payload reaches the helper: its argument, or the spawn channel (channel.h). */
enum via { VIA_ARGV, VIA_CHANNEL };
static int run_payload(const struct buf *body, int type, enum via via, struct buf *err);

/*
 * The helper's last word on the channel of the last run_payload() (its
 * EXIT, channel.h): exit_said is 1 when one came and decoded.
 */
static struct msg_exit exit_word;
static int exit_said;
/* Its STARTED before that (started.h): started_said is 1 when one came and decoded. */
static struct msg_started started_word;
static int started_said;
/* And whether it said HELLO first, which it does once the channel is known to be its. */
static int hello_said;

static int run_helper(const char *name, struct buf *err)
{
	char *names[] = {(char *)name, NULL}, *values[] = {(char *)"x", NULL};
	char *argv[] = {(char *)"/bin/true", NULL};
	char *deny[] = {NULL};
	struct payload p = {.kind = PAYLOAD_EXEC, .user = (char *)"nobody", .helper = helper,
			    .work_dir = (char *)"/",
			    .scope = (char *)"", .env_names = names, .env_values = values, .nenv = 1,
			    .argv = argv, .argc = 1, .person = (char *)"", .deny = deny};
	struct buf body = BUF_INIT;
	assert_int_equal(payload_encode(&p, &body), 0);
	int rc = run_payload(&body, CHANNEL_PAYLOAD, VIA_CHANNEL, err);
	buf_free(&body);
	return rc;
}

/*
 * Runs the copy of ruas-exec on a message body, as nobody when root; its
 * exit status, stderr in err. Over the channel as ruas-session hands it
 * down: one end of a socketpair as descriptor 3, the body as a message of
 * type with the agent's stdio (here /dev/null, /dev/null and the stderr
 * pipe) attached to an exec payload. On the command line: the body in
 * hex, as an older library would have put it there.
 */
static int run_payload(const struct buf *body, int type, enum via via, struct buf *err)
{
	static const char digits[] = "0123456789abcdef";
	struct buf hex = BUF_INIT;
	for (size_t i = 0; i < body->len; i++) {
		assert_int_equal(buf_addc(&hex, digits[(unsigned char)body->data[i] >> 4]), 0);
		assert_int_equal(buf_addc(&hex, digits[(unsigned char)body->data[i] & 15]), 0);
	}
	int fds[2], sv[2] = {-1, -1};
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	if (via == VIA_CHANNEL)
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	/* A caller that is not root is the channel's peer as the user who "ran sudo". */
	char uid[32];
	snprintf(uid, sizeof uid, "%u", (unsigned)getuid());
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (dup2(fds[1], 2) < 0 || (via == VIA_CHANNEL && dup2(sv[1], 3) < 0))
			_exit(98);
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0))
			_exit(97);
		if (getuid() != 0 && setenv("SUDO_UID", uid, 1) < 0)
			_exit(95);
		if (via == VIA_CHANNEL)
			execl(helper, "ruas-exec", "--channel-fd", "3", (char *)NULL);
		else
			execl(helper, "ruas-exec", hex.data ? hex.data : "", (char *)NULL);
		_exit(96);
	}
	if (via == VIA_CHANNEL) {
		close(sv[1]);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		assert_true(null >= 0);
		int stdio[3] = {null, null, fds[1]};
		int exec = body->len > 5 && body->data[5] == PAYLOAD_EXEC;
		assert_int_equal(channel_send(sv[0], type, body->data, body->len, stdio, exec ? 3 : 0),
				 0);
		close(null);
	}
	close(fds[1]);
	buf_free(&hex);
	char chunk[1024];
	ssize_t n;
	while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		assert_true(n > 0);
		buf_add(err, chunk, (size_t)n);
	}
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	/*
	 * The helper has ended: its HELLO (it took the channel) and its EXIT,
	 * if it said them, are all that is left on the channel.
	 */
	exit_said = hello_said = started_said = 0;
	free(started_word.reason);
	memset(&started_word, 0, sizeof started_word);
	if (sv[0] >= 0) {
		struct buf word = BUF_INIT;
		int t = 0, r = channel_recv(sv[0], &t, &word, NULL, NULL);
		unsigned int v = 0;
		if (r == 1 && t == CHANNEL_HELLO && payload_hello_decode(word.data, word.len, &v) == 0 &&
		    v == PAYLOAD_VERSION) {
			hello_said = 1;
			buf_free(&word);
			word = (struct buf)BUF_INIT;
			r = channel_recv(sv[0], &t, &word, NULL, NULL);
		}
		if (r == 1 && t == CHANNEL_STARTED &&
		    msg_started_decode(word.data, word.len, &started_word) == 0) {
			started_said = 1;
			buf_free(&word);
			word = (struct buf)BUF_INIT;
			r = channel_recv(sv[0], &t, &word, NULL, NULL);
		}
		if (r == 1 && t == CHANNEL_EXIT && msg_exit_decode(word.data, word.len, &exit_word) == 0)
			exit_said = 1;
		buf_free(&word);
		close(sv[0]);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A payload that names a refused variable gets nothing run (exit 125). */
static void test_helper_refuses_table(void **state)
{
	(void)state;
	struct buf err = BUF_INIT;
	helper_copy();
	/* The control: an allowed name runs the command. */
	int rc = run_helper("GIT_AUTHOR_NAME", &err);
	char said[1024];
	snprintf(said, sizeof said, "%s", err.data ? err.data : "");
	buf_free(&err);
	if (rc != 0)
		fail_msg("ruas-exec with GIT_AUTHOR_NAME: exit %d: %s", rc, said);
	/* Its HELLO first, STARTED (it runs), then its EXIT: the agent's program exited 0. */
	assert_true(hello_said);
	assert_true(started_said);
	assert_int_equal(started_word.ok, 1);
	assert_true(exit_said);
	assert_int_equal(exit_word.how, EXIT_HOW_EXITED);
	assert_int_equal(exit_word.value, 0);
	assert_int_equal(exit_word.started, 1);

	size_t n;
	const struct env_rule *rules = env_rules(&n);
	for (size_t i = 0; i < n; i++) {
		char name[96], want[512];
		snprintf(name, sizeof name, "%s%s", rules[i].name, rules[i].prefix ? "Y" : "");
		snprintf(want, sizeof want, "ruas-exec: refusing variable \"%s\": %s\n", name,
			 rules[i].why);
		struct buf e = BUF_INIT;
		rc = run_helper(name, &e);
		/*
		 * Nothing ran: the helper says so in its STARTED (the helper's
		 * stage, its complaint as the reason) and in its EXIT too.
		 */
		want[strlen(want) - 1] = '\0';
		int ok = rc == 125 && e.data && strstr(e.data, want) && exit_said &&
			 exit_word.how == EXIT_HOW_HELPER && exit_word.value == 125 &&
			 exit_word.started == 0 && started_said && !started_word.ok &&
			 started_word.stage == STARTED_STAGE_HELPER &&
			 strcmp(started_word.reason, want + strlen("ruas-exec: ")) == 0;
		snprintf(said, sizeof said, "%s", e.data ? e.data : "");
		buf_free(&e);
		if (!ok)
			fail_msg("ruas-exec with %s: exit %d, started %d/%d/%d \"%s\", stderr: %s",
				 name, rc, started_said, started_word.ok, started_word.stage,
				 started_word.reason ? started_word.reason : "", said);
	}
}

/*
 * Every program here refuses what it does not expect: a SESSION is
 * ruas-session's. ruas-exec refuses it on its command line, as a message
 * of its own type on the channel, and as a PAYLOAD message (its body is no
 * payload), and runs nothing (exit 125).
 */
static void test_helper_refuses_session_payload(void **state)
{
	(void)state;
	helper_copy();
	struct session s = {.user = (char *)"nobody", .service = (char *)"ruas",
			    .ruser = (char *)"root", .tty = (char *)"", .mode = SESSION_CHECK,
			    .helper = (char *)"/usr/libexec/ruas/ruas-exec",
			    .lifetime = LIFETIME_SUBREAPER};
	struct buf body = BUF_INIT;
	assert_int_equal(session_encode(&s, &body), 0);
	static const struct {
		enum via via;
		int type;
		const char *want;
	} ways[] = {
		{VIA_ARGV, CHANNEL_SESSION,
		 "refusing a payload on the command line: it comes only over the channel"},
		{VIA_CHANNEL, CHANNEL_SESSION, "ruas-exec: no payload from the supervisor: bad message"},
		{VIA_CHANNEL, CHANNEL_PAYLOAD, "ruas-exec: bad payload: payload kind unknown"},
	};
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		struct buf err = BUF_INIT;
		int rc = run_payload(&body, ways[i].type, ways[i].via, &err);
		char said[1024];
		snprintf(said, sizeof said, "%s", err.data ? err.data : "");
		buf_free(&err);
		if (rc != 125 || !strstr(said, ways[i].want))
			fail_msg("ruas-exec on a session payload (way %zu): exit %d, stderr: %s", i, rc,
				 said);
		/* Over the channel, its EXIT says the helper ended it before anything started. */
		if (ways[i].via == VIA_CHANNEL) {
			assert_true(hello_said);
			assert_true(exit_said);
			assert_int_equal(exit_word.how, EXIT_HOW_HELPER);
			assert_int_equal(exit_word.value, 125);
			assert_int_equal(exit_word.started, 0);
		}
	}
	buf_free(&body);
}

/*
 * An exec payload carries the agent's arguments and secrets: a command line
 * would show them to every local user and to sudo's log. ruas-exec takes
 * one only over the channel (a check payload too: its paths are the
 * target's business); on its command line it refuses it, runs nothing
 * (exit 125), and says where it belongs.
 */
static void test_helper_refuses_exec_payload_on_argv(void **state)
{
	(void)state;
	helper_copy();
	char *names[] = {(char *)"ANTHROPIC_API_KEY", NULL}, *values[] = {(char *)"sk-x", NULL};
	char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)"echo ran $ANTHROPIC_API_KEY >&2",
			NULL};
	char *deny[] = {NULL};
	struct payload p = {.kind = PAYLOAD_EXEC, .user = (char *)"nobody", .helper = helper,
			    .work_dir = (char *)"/",
			    .scope = (char *)"", .env_names = names, .env_values = values, .nenv = 1,
			    .argv = argv, .argc = 3, .person = (char *)"", .deny = deny};
	struct buf body = BUF_INIT;
	assert_int_equal(payload_encode(&p, &body), 0);
	struct buf err = BUF_INIT;
	int rc = run_payload(&body, CHANNEL_PAYLOAD, VIA_ARGV, &err);
	char said[1024];
	snprintf(said, sizeof said, "%s", err.data ? err.data : "");
	buf_free(&err);
	if (rc != 125 ||
	    !strstr(said, "refusing a payload on the command line: it comes only over the channel") ||
	    strstr(said, "ran"))
		fail_msg("ruas-exec on an exec payload in argv: exit %d, stderr: %s", rc, said);
	/* The control: the same payload over the channel runs, with its variable set. */
	struct buf ok = BUF_INIT;
	rc = run_payload(&body, CHANNEL_PAYLOAD, VIA_CHANNEL, &ok);
	snprintf(said, sizeof said, "%s", ok.data ? ok.data : "");
	buf_free(&ok);
	buf_free(&body);
	if (rc != 0 || strcmp(said, "ran sk-x\n") != 0)
		fail_msg("ruas-exec on the channel: exit %d, stderr: %s", rc, said);
	assert_true(exit_said);
	assert_int_equal(exit_word.how, EXIT_HOW_EXITED);
	assert_int_equal(exit_word.started, 1);
}

int main(int argc, char **argv)
{
	/*
	 * ruas-exec runs the agent below the target's login shell, which it
	 * takes from the user database: a fake one (nss_wrapper, which the
	 * helper inherits) gives the target, nobody when the test is root and
	 * the caller when not, a shell that runs (nobody's own refuses logins).
	 */
	char passwd[256], group[128];
	if (geteuid() == 0) {
		snprintf(passwd, sizeof passwd, "root:x:0:0:root:/root:/bin/sh\n"
						 "nobody:x:%d:%d:nobody:/:/bin/sh\n",
			 NOBODY, NOBODY);
		snprintf(group, sizeof group, "root:x:0:\nnogroup:x:%d:\n", NOBODY);
	} else {
		snprintf(passwd, sizeof passwd, "tester:x:%u:%u:tester:/:/bin/sh\n",
			 (unsigned)getuid(), (unsigned)getgid());
		snprintf(group, sizeof group, "tester:x:%u:\n", (unsigned)getgid());
	}
	nss_env_reexec(argc, argv, passwd, group);
	/* The fake database's directory is root's 0700: nobody must read it too. */
	const char *db = getenv("NSS_WRAPPER_PASSWD");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", db ? db : "");
	char *slash = strrchr(dir, '/');
	if (geteuid() == 0 && slash) {
		*slash = '\0';
		if (chmod(dir, 0755) < 0) {
			perror("test_envfilter: chmod of the fake user database");
			return 99;
		}
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only_allowlisted_in_allowlist_order),
		cmocka_unit_test(test_values_byte_exact),
		cmocka_unit_test(test_prefix_names_not_confused),
		cmocka_unit_test(test_first_definition_wins),
		cmocka_unit_test(test_malformed_and_empty_inputs),
		cmocka_unit_test_teardown(test_helper_refuses_table, helper_remove),
		cmocka_unit_test_teardown(test_helper_refuses_session_payload, helper_remove),
		cmocka_unit_test_teardown(test_helper_refuses_exec_payload_on_argv, helper_remove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
