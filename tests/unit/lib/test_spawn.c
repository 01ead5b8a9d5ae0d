/* SPDX-License-Identifier: ISC */
/*
 * test_spawn.c - starting a project's agent.
 *
 * With run_as_user: the exact sudo call (src/lib/spawn/spawn_int.h), which
 * names only the helper and the descriptor of the spawn channel (sudo's
 * stdin), and the payload sent over it, which must carry work_dir, argv
 * and the allowlisted variables byte for byte; and ruas_spawn() itself,
 * with a fake "sudo" script that records what it was given and reads the
 * first message of the channel on its stdin. Without run_as_user (legacy): the command runs for real, in
 * work_dir, with the given environment, no stray descriptors, a clean
 * signal state, and its exit status reported.
 *
 * The per-spawn values of the options (set_env, work_dir): checked before
 * anything starts, and seen in the payload; in legacy mode, for real.
 *
 * The target "ruas-test-nobody" exists only in a wrapped user database
 * (nss_wrapper): a spawn looks up its passwd entry, for the login shell
 * and home that the payload carries to the helper (which reads no user
 * database), and refuses a run_as_user that has none by then.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"
#include "config/config_int.h"
#include "fixture.h"
#include "nss_env.h"
#include "open_fails.h"
#include "payload.h"
#include "ruas.h"
#include "spawn/spawn_int.h"
#include "spawn/sudo_call.h"

#include "private_state.h"

#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

extern char **environ;

#define SUDO "/usr/bin/sudo"
#define HELPER "/usr/libexec/ruas/ruas-exec"
#define TARGET "ruas-test-nobody"
/* {sudo, -n, -u, USER, --, HELPER, --channel-fd, 0} (src/lib/spawn/sudo_call.h) */
#define SUDO_ARGC 8
#define STRAY_FD 42

/* ------------------------------------------------------------ helpers */

/* libconfig string escaping. */
static void cfg_str(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			buf_adds(b, "\\n");
		else if (*p < 0x20)
			buf_printf(b, "\\x%02x", *p);
		else
			buf_addc(b, (char)*p);
	}
	buf_addc(b, '"');
}

static ruas_config *load_text(const char *text)
{
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load_buffer(&cfg, text, strlen(text), "spawn.conf", NULL, &err) != 0)
		fail_msg("config refused: %s\n%s", ruas_error_message(err), text);
	return cfg;
}

static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	struct buf b = BUF_INIT;
	char tmp[4096];
	ssize_t n;
	while ((n = read(fd, tmp, sizeof tmp)) > 0)
		buf_add(&b, tmp, (size_t)n);
	close(fd);
	assert_false(b.oom);
	return buf_detach(&b);
}

static int wait_exit(ruas_child *c)
{
	int code = -1;
	ruas_error *err = NULL;
	if (ruas_child_wait(c, &code, &err) != 0)
		fail_msg("ruas_child_wait: %s", ruas_error_message(err));
	assert_null(err);
	return code;
}

/*
 * A spawn whose exec (or chdir) fails must return RUAS_ERR_START at the
 * stage with the errno. Under valgrind alone posix_spawn cannot report an
 * exec's failure: valgrind runs the child without CLONE_VM, so the error
 * glibc stores for the parent is lost, the spawn succeeds and the child
 * exits 127. Then we hold it to that, so the check still fails on anything
 * else.
 */
static void assert_exec_failed(int rc, ruas_child **cp, ruas_error **errp, int stage,
			       int want_errno, const char *needle)
{
	ruas_child *c = *cp;
	ruas_error *err = *errp;
	*cp = NULL;
	*errp = NULL;
	if (RUNNING_ON_VALGRIND && rc == 0) {
		assert_non_null(c);
		assert_int_equal(wait_exit(c), 127);
		ruas_child_free(c);
		return;
	}
	assert_int_equal(rc, RUAS_ERR_START);
	assert_null(c);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_START);
	assert_int_equal(ruas_error_stage(err), stage);
	assert_int_equal(ruas_error_errno(err), want_errno);
	if (needle)
		assert_non_null(strstr(ruas_error_message(err), needle));
	ruas_error_free(err);
}

/* ---------------------------------------------------------- fixture */

struct fix {
	char dir[128];   /* work_dir: has a space and both quotes */
	char real[PATH_MAX];
	char out[256];
	char fake_sudo[256];
	char fake_out[300];
	char fake_chan[300];
	ruas_config *cfg;
};

static const char legacy_script[] =
	"pwd -P > \"$OUT\"\n"
	"printf 'FOO=[%s]\\n' \"$FOO\" >> \"$OUT\"\n"
	"if [ -n \"${PARENT_ONLY+x}\" ]; then echo parent-only-set; else echo "
	"parent-only-unset; fi >> \"$OUT\"\n"
	"if [ -e /proc/$$/fd/42 ]; then echo fd42-open; else echo fd42-closed; fi >> "
	"\"$OUT\"\n"
	"printf '$0=[%s]\\n' \"$0\" >> \"$OUT\"\n"
	"for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done >> \"$OUT\"\n"
	"exit 0\n";

/* The helper's HELLO (payload.h), as a fake helper says it before the library sends PAYLOAD. */
#define FAKE_HELLO "printf '\\000\\000\\000\\005\\014RUAS\\023' >&0\n"
_Static_assert(PAYLOAD_VERSION == 19, "FAKE_HELLO names payload version 19 (\\023)");
/* STARTED (started.h) saying that the agent's exec succeeded, framed, as printf(1) octal escapes. */
#define FAKE_STARTED_OK                                                                        \
	"\\000\\000\\000\\020\\015\\001\\000\\000\\000\\000\\000\\000"                          \
	"\\000\\000\\000\\000\\000\\000\\000\\000\\000"


/*
 * The fake sudo: records its arguments, its exact environment, whether a
 * stray descriptor reached it and whether its stdin is a socket (the
 * channel); then says HELLO and reads the channel's first message as the helper would
 * (dd, byte by byte, so that nothing past it is read): its type into the
 * record, its body into "$0.chan"; says STARTED (the agent runs); and exits 42.
 */
static const char fake_sudo_script[] =
	"#!/bin/sh\n"
	"out=\"$0.out\"\n"
	"printf 'argc=%s\\n' \"$#\" > \"$out\"\n"
	"for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done >> \"$out\"\n"
	"printf 'env:' >> \"$out\"\n"
	"tr '\\0' '\\n' < /proc/$$/environ >> \"$out\"\n"
	"printf ':env\\n' >> \"$out\"\n"
	"if [ -e /proc/$$/fd/42 ]; then echo fd42-open; else echo fd42-closed; fi >> "
	"\"$out\"\n"
	"if [ -S /proc/$$/fd/0 ]; then echo stdin-socket; else echo stdin-other; fi >> "
	"\"$out\"\n"
	FAKE_HELLO
	"set -- $(dd bs=1 count=5 2>/dev/null | od -An -tu1)\n"
	"if [ $# -eq 5 ]; then\n"
	"  printf 'type=%s\\n' \"$5\" >> \"$out\"\n"
	"  dd bs=1 count=$(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 )) of=\"$0.chan\" "
	"2>/dev/null\n"
	"fi\n"
	"printf '" FAKE_STARTED_OK "' >&0\n"
	"exit 42\n";

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->dir, sizeof f->dir, "/tmp/ruas spawn 'q\"d.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	if (!realpath(f->dir, f->real)) {
		rmdir(f->dir);
		free(f);
		return -1;
	}
	snprintf(f->out, sizeof f->out, "%s/out", f->dir);
	snprintf(f->fake_sudo, sizeof f->fake_sudo, "%s/fake-sudo", f->dir);
	snprintf(f->fake_out, sizeof f->fake_out, "%s.out", f->fake_sudo);
	snprintf(f->fake_chan, sizeof f->fake_chan, "%s.chan", f->fake_sudo);

	struct buf b = BUF_INIT;
	buf_adds(&b, "backend = \"sudo\";\nsudo = ");
	cfg_str(&b, f->fake_sudo);
	buf_adds(&b, ";\nhelper = \"" HELPER "\";\nprojects = (\n");
	buf_adds(&b, "  { name = \"legacy\"; work_dir = ");
	cfg_str(&b, f->dir);
	buf_adds(&b, "; command = [\"/bin/sh\", \"-c\", ");
	cfg_str(&b, legacy_script);
	buf_adds(&b, ", \"sh-legacy\"]; env_allowlist = [\"FOO\"]; },\n");
	buf_adds(&b, "  { name = \"exit7\"; work_dir = \"/\"; command = [\"/bin/sh\", \"-c\", "
		     "\"exit 7\"]; },\n");
	buf_adds(&b, "  { name = \"term\"; work_dir = \"/\"; command = [\"/bin/sh\", \"-c\", "
		     "\"kill -TERM $$; exit 3\"]; },\n");
	buf_adds(&b, "  { name = \"sleeper\"; work_dir = \"/\"; command = [\"/bin/sh\", "
		     "\"-c\", \"exec sleep 30\"]; },\n");
	buf_adds(&b, "  { name = \"badcmd\"; work_dir = \"/\"; command = "
		     "[\"/nonexistent/ruas/cmd\"]; },\n");
	buf_adds(&b, "  { name = \"badwd\"; work_dir = \"/nonexistent/ruas/wd\"; command = "
		     "[\"/bin/true\"]; },\n");
	buf_adds(&b, "  { name = \"agent\"; run_as_user = \"" TARGET "\"; work_dir = ");
	cfg_str(&b, "/srv/x y/$HOME 'q\"\n\\z");
	buf_adds(&b, "; command = [\"claude\", \"\", \"$HOME\"]; "
		     "env_allowlist = [\"ANTHROPIC_API_KEY\"]; },\n");
	/* Its work_dir is real: per-spawn work_dirs beneath it (setup_tree). */
	buf_adds(&b, "  { name = \"rooted\"; run_as_user = \"" TARGET "\"; work_dir = ");
	cfg_str(&b, f->dir);
	buf_adds(&b, "; command = [\"claude\"]; "
		     "env_allowlist = [\"SESSION_TOKEN\", \"ANTHROPIC_API_KEY\"]; }\n");
	buf_adds(&b, ");\n");
	assert_false(b.oom);
	f->cfg = load_text(b.data);
	buf_free(&b);
	write_file(f->fake_sudo, fake_sudo_script, 0755);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	ruas_config_free(f->cfg);
	rm_rf(f->dir);
	free(f);
	return 0;
}

/* --------------------------------------------------- the sudo call */

static const char *const agent_args[] = {"", "$HOME", "a\nb", "'", "\"", "*",
					 "$(id)", "`id`", NULL};
static const char *const agent_env[] = {
	"LANG=C.UTF-8", "FOO=bar", "ANTHROPIC_API_KEY=sk-x\ny $HOME '\"", "TERM=",
	"LANGUAGE=xx", "PATH=/evil", "LANG=second", "LD_PRELOAD=/x.so",
	"HOME=/root", "LC_ALLX=no", NULL};

static void assert_agent_payload(const struct buf *body, const char *work_dir)
{
	struct payload p;
	const char *why = NULL;
	assert_false(body->oom);
	if (payload_decode(body->data, body->len, &p, &why) != 0)
		fail_msg("payload does not decode: %s", why);
	assert_int_equal(p.kind, PAYLOAD_EXEC);
	/* The helper's own path, which the login shell runs again inside the run. */
	assert_string_equal(p.helper, HELPER);
	assert_string_equal(p.work_dir, work_dir);
	/* The target's passwd entry, as the library found it: the helper reads no user database. */
	assert_string_equal(p.user, TARGET);
	assert_string_equal(p.shell, "/bin/sh");
	assert_string_equal(p.home, "/home/" TARGET);

	static const char *const want_argv[] = {"claude", "", "$HOME", "", "$HOME", "a\nb",
						"'", "\"", "*", "$(id)", "`id`"};
	size_t nargv = sizeof want_argv / sizeof *want_argv;
	assert_int_equal(p.argc, nargv);
	for (size_t i = 0; i < nargv; i++)
		assert_string_equal(p.argv[i], want_argv[i]);
	assert_null(p.argv[nargv]);

	/* Allowlist order: LANG LC_ALL LC_CTYPE LC_MESSAGES TERM ANTHROPIC_API_KEY. */
	assert_int_equal(p.nenv, 3);
	assert_string_equal(p.env_names[0], "LANG");
	assert_string_equal(p.env_values[0], "C.UTF-8");
	assert_string_equal(p.env_names[1], "TERM");
	assert_string_equal(p.env_values[1], "");
	assert_string_equal(p.env_names[2], "ANTHROPIC_API_KEY");
	assert_string_equal(p.env_values[2], "sk-x\ny $HOME '\"");
	payload_free(&p);
}

static void test_sudo_call_exact(void **state)
{
	struct fix *f = *state;
	const ruas_project *p = ruas_config_project_find(f->cfg, "agent");
	assert_non_null(p);
	struct sudo_call call;
	struct buf payload = BUF_INIT;
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, agent_args, agent_env, &call, &payload),
			 0);
	size_t argc = 0;
	while (call.argv[argc])
		argc++;
	assert_int_equal(argc, SUDO_ARGC);
	/* No -i (no login shell before the helper), no exec, no token: the channel is stdin. */
	assert_string_equal(call.argv[0], f->fake_sudo);
	assert_string_equal(call.argv[1], "-n");
	assert_string_equal(call.argv[2], "-u");
	assert_string_equal(call.argv[3], TARGET);
	assert_string_equal(call.argv[4], "--");
	assert_string_equal(call.argv[5], HELPER);
	assert_string_equal(call.argv[6], "--channel-fd");
	assert_string_equal(call.argv[7], "0");
	assert_agent_payload(&payload, "/srv/x y/$HOME 'q\"\n\\z");
	/* sudo's own environment is empty. */
	assert_null(sudo_call_envp[0]);
	buf_free(&payload);
}

static void test_sudo_call_env_edge_cases(void **state)
{
	struct fix *f = *state;
	const ruas_project *p = ruas_config_project_find(f->cfg, "agent");
	struct sudo_call call;
	struct payload pl;
	const char *why;

	struct buf body = BUF_INIT;
	/* No environment and no arguments: just the command. */
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, NULL, NULL, &call, &body), 0);
	assert_int_equal(payload_decode(body.data, body.len, &pl, &why), 0);
	buf_reset(&body);
	assert_int_equal(pl.nenv, 0);
	assert_int_equal(pl.argc, 3);
	payload_free(&pl);

	/* Nothing allowlisted is set: nothing crosses. */
	const char *const env[] = {"PATH=/bin", "HOME=/root", "SSH_AUTH_SOCK=/tmp/x", NULL};
	const char *const none[] = {NULL};
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, none, env, &call, &body), 0);
	assert_int_equal(payload_decode(body.data, body.len, &pl, &why), 0);
	assert_int_equal(pl.nenv, 0);
	payload_free(&pl);
	buf_free(&body);
}

/*
 * The payload travels over the channel, so the argv limit (about 64 KiB
 * through sudo -i) no longer binds it: an argument of 200 KB fits, and the
 * channel's own limit (CHANNEL_MAX_BODY bytes of binary body, exactly) is
 * kept, a byte more refused with RUAS_ERR_TOOLONG.
 */
static void test_sudo_call_too_long(void **state)
{
	struct fix *f = *state;
	const ruas_project *p = ruas_config_project_find(f->cfg, "agent");
	struct sudo_call call;
	struct buf body = BUF_INIT;
	size_t big = CHANNEL_MAX_BODY + 1;
	char *arg = malloc(big + 1);
	assert_non_null(arg);
	memset(arg, 'a', big);
	arg[big] = '\0';
	const char *args[] = {arg, NULL};
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, args, NULL, &call, &body),
			 RUAS_ERR_TOOLONG);
	buf_reset(&body);

	/* What the command line could not carry now fits, and stays off it. */
	arg[200000] = '\0';
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, args, NULL, &call, &body), 0);
	for (size_t i = 0; call.argv[i]; i++)
		assert_true(strlen(call.argv[i]) < 4096);
	assert_true(body.len > 200000);
	buf_reset(&body);

	/* The largest body the channel carries, and a byte more (binary: no hex doubling). */
	size_t fixed = 0;
	arg[0] = '\0';
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, args, NULL, &call, &body), 0);
	fixed = body.len; /* all but the argument's bytes */
	buf_reset(&body);
	memset(arg, 'a', big);
	arg[CHANNEL_MAX_BODY - fixed] = '\0';
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, args, NULL, &call, &body), 0);
	assert_int_equal(body.len, CHANNEL_MAX_BODY);
	buf_reset(&body);
	arg[CHANNEL_MAX_BODY - fixed] = 'a';
	arg[CHANNEL_MAX_BODY - fixed + 1] = '\0';
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, args, NULL, &call, &body),
			 RUAS_ERR_TOOLONG);
	buf_reset(&body);

	/* An allowlisted value counts too. */
	char *envs = NULL;
	memset(arg, 'v', big);
	arg[big] = '\0';
	assert_true(asprintf(&envs, "ANTHROPIC_API_KEY=%s", arg) > 0);
	const char *env[] = {envs, NULL};
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, NULL, env, &call, &body),
			 RUAS_ERR_TOOLONG);
	buf_free(&body);

	/* And through ruas_spawn: refused as the agent's exec would refuse it, nothing started. */
	ruas_child *c = (ruas_child *)0x1;
	ruas_error *err = NULL;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	assert_int_equal(ruas_spawn(&c, f->cfg, "agent", NULL, &o, &err), RUAS_ERR_TOOLONG);
	assert_null(c);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_TOOLONG);
	assert_int_equal(ruas_error_errno(err), E2BIG);
	assert_non_null(strstr(ruas_error_message(err), "project \"agent\": variable "
							 "ANTHROPIC_API_KEY is 16777235 bytes, "
							 "more than the 131071 that one string of an "
							 "exec may be (MAX_ARG_STRLEN)"));
	ruas_error_free(err);
	assert_int_equal(access(f->fake_out, F_OK), -1);
	free(envs);
	free(arg);
}

/* ruas_spawn with run_as_user runs "sudo" with exactly that call, an empty environment. */
static void test_spawn_runs_sudo_exactly(void **state)
{
	struct fix *f = *state;
	int fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, STRAY_FD), STRAY_FD); /* no O_CLOEXEC */
	close(fd);

	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = agent_env;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	int r = ruas_spawn(&c, f->cfg, "agent", agent_args, &o, &err);
	close(STRAY_FD);
	if (r != 0)
		fail_msg("ruas_spawn: %s", ruas_error_message(err));
	assert_true(ruas_child_pid(c) > 0);
	assert_int_equal(wait_exit(c), 42);
	ruas_child_free(c);

	/*
	 * Exactly the call, stdin a socket (the channel) and no stray
	 * descriptor; no byte of the arguments or of the allowlisted values is
	 * in it. The channel's first message is the PAYLOAD, the same body as
	 * the call's builder makes.
	 */
	char *got = read_file(f->fake_out);
	struct sudo_call call;
	struct buf body = BUF_INIT;
	const ruas_project *p = ruas_config_project_find(f->cfg, "agent");
	assert_int_equal(spawn_build_sudo_call(f->cfg, p, agent_args, agent_env, &call, &body), 0);
	struct buf want = BUF_INIT;
	buf_printf(&want, "argc=%d\n", SUDO_ARGC - 1);
	for (size_t i = 1; call.argv[i]; i++)
		buf_printf(&want, "[%s]\n", call.argv[i]);
	buf_printf(&want, "env::env\nfd42-closed\nstdin-socket\ntype=%d\n", CHANNEL_PAYLOAD);
	assert_string_equal(got, want.data);
	assert_null(strstr(got, "sk-x"));
	assert_null(strstr(got, "$(id)"));
	assert_null(strstr(got, "RUAS"));
	free(got);
	buf_free(&want);

	/* What came over the channel: the agent's payload (its supervisor's pid aside, the same). */
	char *sent = read_file(f->fake_chan);
	struct stat st;
	assert_int_equal(stat(f->fake_chan, &st), 0);
	struct buf chan = BUF_INIT;
	assert_int_equal(buf_add(&chan, sent, (size_t)st.st_size), 0);
	free(sent);
	assert_agent_payload(&chan, "/srv/x y/$HOME 'q\"\n\\z");
	struct payload a, b;
	const char *why = NULL;
	assert_int_equal(payload_decode(chan.data, chan.len, &a, &why), 0);
	assert_int_equal(payload_decode(body.data, body.len, &b, &why), 0);
	assert_string_equal(a.helper, b.helper);
	assert_int_equal(a.exec_flags, b.exec_flags);
	assert_int_equal(a.lifetime, b.lifetime);
	assert_int_equal(a.grace_seconds, b.grace_seconds);
	assert_int_equal(a.ndeny, b.ndeny);
	/* The spawn names its supervisor (this process) for the helper to watch. */
	assert_int_equal(a.supervisor_pid, (unsigned int)getpid());
	payload_free(&a);
	payload_free(&b);
	buf_free(&chan);
	buf_free(&body);
}

/* The end record's line of a spawn, from a callback sink. */
static void keep_end(const ruas_audit_record *r, void *payload)
{
	char **end = payload;
	if (strcmp(r->event, "end") == 0) {
		free(*end);
		*end = strdup(r->line);
	}
}

/*
 * The helper's words, which a fake sudo writes on its stdin, the channel,
 * once it has read the PAYLOAD, before it exits 1 itself: STARTED, then
 * EXIT (control.h). How the run ended is the helper's word, not sudo's
 * status, and so is whether the agent's program started, which the end
 * record says; a word out of range is no word, and sudo's status stands.
 * Without STARTED's "it runs" the spawn itself fails (RUAS_ERR_START,
 * stage helper), and the run's end is still recorded, as not started or
 * (no word at all) unknown.
 */
static void test_spawn_end_is_the_helpers_word(void **state)
{
	struct fix *f = *state;
	static const struct {
		const char *word; /* printf(1) octal escapes: STARTED and the framed EXIT, or none */
		int rc, code, sig;
		const char *end, *started, *survivors;
	} cases[] = {
		/* HELPER 125, survivors unknown, not started: no STARTED, the spawn fails */
		{"\\000\\000\\000\\012\\006\\003\\000\\000\\000\\175\\377\\377\\377\\377\\000",
		 RUAS_ERR_START, 125, 0, " exit=125 signal=- ", " started=no",
		 " survivors_killed=- "},
		/* SIGNALED 9, 2 survivors, started */
		{FAKE_STARTED_OK
		 "\\000\\000\\000\\012\\006\\002\\000\\000\\000\\011\\000\\000\\000\\002\\001",
		 0, 128 + 9, 9, " exit=- signal=SIGKILL ", " started=yes", " survivors_killed=2 "},
		/* EXITED 0, none left, started */
		{FAKE_STARTED_OK
		 "\\000\\000\\000\\012\\006\\001\\000\\000\\000\\000\\000\\000\\000\\000\\001",
		 0, 0, 0, " exit=0 signal=- ", " started=yes", " survivors_killed=0 "},
		/* SIGNALED before the agent started: the run ended by the signal, not started */
		{"\\000\\000\\000\\012\\006\\002\\000\\000\\000\\011\\000\\000\\000\\002\\000",
		 RUAS_ERR_START, 128 + 9, 9, " exit=- signal=SIGKILL ", " started=no",
		 " survivors_killed=2 "},
		/* an EXIT out of range (EXITED 256): none the helper may say; sudo's status stands */
		{FAKE_STARTED_OK
		 "\\000\\000\\000\\012\\006\\001\\000\\000\\001\\000\\000\\000\\000\\000\\001",
		 0, 1, 0, " exit=1 signal=- ", " started=yes", NULL},
		/* STARTED, then no EXIT: sudo's status */
		{FAKE_STARTED_OK, 0, 1, 0, " exit=1 signal=- ", " started=yes", NULL},
		/* no word at all: the spawn fails, and whether anything started is unknown */
		{"", RUAS_ERR_START, 1, 0, " exit=1 signal=- ", " started=-", NULL},
	};
	char sudo[300];
	snprintf(sudo, sizeof sudo, "%s/fake-sudo-word", f->dir);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf script = BUF_INIT, text = BUF_INIT;
		/* As the helper: the PAYLOAD first (header, then body), then its word. */
		buf_printf(&script,
			   "#!/bin/sh\n" FAKE_HELLO
			   "set -- $(dd bs=1 count=5 2>/dev/null | od -An -tu1)\n"
			   "dd bs=1 count=$(( ($1 << 24) + ($2 << 16) + ($3 << 8) + $4 )) "
			   "of=/dev/null 2>/dev/null\n"
			   "printf '%s' >&0\nexit 1\n",
			   cases[i].word);
		(void)unlink(sudo);
		write_file(sudo, script.data, 0755);
		buf_adds(&text, "backend = \"sudo\";\nsudo = ");
		cfg_str(&text, sudo);
		buf_adds(&text, ";\nhelper = \"" HELPER "\";\nprojects = ( { name = \"agent\"; "
				"run_as_user = \"" TARGET "\"; work_dir = \"/srv\"; command = "
				"[\"claude\"]; } );\n");
		ruas_config *cfg = load_text(text.data);
		char *end = NULL;
		ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
		sink.to = RUAS_AUDIT_TO_CALLBACK;
		sink.callback = keep_end;
		sink.payload = &end;
		ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
		o.pty = RUAS_PTY_NONE;
		o.audit = &sink;
		ruas_child *c = NULL;
		ruas_error *err = NULL;
		int rc = ruas_spawn(&c, cfg, "agent", NULL, &o, &err);
		if (rc != cases[i].rc)
			fail_msg("case %zu: ruas_spawn gave %d, expected %d: %s", i, rc, cases[i].rc,
				 ruas_error_message(err));
		if (rc == 0) {
			int code = wait_exit(c);
			if (code != cases[i].code)
				fail_msg("case %zu: exit %d, expected %d", i, code, cases[i].code);
			assert_int_equal(ruas_child_term_signal(c), cases[i].sig);
			ruas_child_free(c);
		} else {
			assert_null(c);
			assert_int_equal(ruas_error_stage(err), RUAS_STAGE_HELPER);
			assert_non_null(strstr(ruas_error_message(err), "project \"agent\""));
			ruas_error_free(err);
		}
		assert_non_null(end);
		if (!strstr(end, cases[i].end) || !strstr(end, cases[i].started) ||
		    (cases[i].survivors && !strstr(end, cases[i].survivors)))
			fail_msg("case %zu: end record \"%s\" lacks \"%s\", \"%s\" or \"%s\"", i,
				 end, cases[i].end, cases[i].started,
				 cases[i].survivors ? cases[i].survivors : "");
		free(end);
		ruas_config_free(cfg);
		buf_free(&script);
		buf_free(&text);
	}
}

/*
 * A helper that other users can read (helper_file.h) is not started: the
 * target's processes could take the channel from it before its first
 * instruction. RUAS_ERR_CONFIG naming the project, the helper, its mode
 * and the fix; sudo never runs. At 0711 (and 0700, 0710) it starts.
 */
static void test_spawn_refuses_readable_helper(void **state)
{
	struct fix *f = *state;
	char helper[300];
	snprintf(helper, sizeof helper, "%s/ruas-exec", f->dir);
	write_file(helper, "#!/bin/sh\nexit 0\n", 0755);
	static const struct {
		mode_t mode;
		int refused;
	} cases[] = {{0755, 1}, {0744, 1}, {0714, 1}, {0740, 1}, {0751, 1}, {0711, 0}, {0700, 0}, {0710, 0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(chmod(helper, cases[i].mode), 0);
		(void)unlink(f->fake_out);
		struct buf text = BUF_INIT;
		buf_adds(&text, "backend = \"sudo\";\nsudo = ");
		cfg_str(&text, f->fake_sudo);
		buf_adds(&text, ";\nhelper = ");
		cfg_str(&text, helper);
		buf_adds(&text, ";\nprojects = ( { name = \"agent\"; run_as_user = \"" TARGET
				"\"; work_dir = \"/srv\"; command = [\"claude\"]; } );\n");
		ruas_config *cfg = load_text(text.data);
		ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
		o.pty = RUAS_PTY_NONE;
		ruas_child *c = NULL;
		ruas_error *err = NULL;
		int r = ruas_spawn(&c, cfg, "agent", NULL, &o, &err);
		if (cases[i].refused) {
			char mode[16];
			snprintf(mode, sizeof mode, "(mode %04o)", (unsigned)cases[i].mode);
			const char *msg = ruas_error_message(err);
			if (r != RUAS_ERR_CONFIG || !strstr(msg, "project \"agent\"") ||
			    !strstr(msg, helper) || !strstr(msg, mode) || !strstr(msg, "chmod 0711"))
				fail_msg("mode %04o: %d, \"%s\"", (unsigned)cases[i].mode, r, msg);
			assert_null(c);
			/* Nothing started: the fake sudo never ran. */
			assert_int_equal(access(f->fake_out, F_OK), -1);
		} else {
			if (r != 0)
				fail_msg("mode %04o: ruas_spawn: %s", (unsigned)cases[i].mode,
					 ruas_error_message(err));
			assert_int_equal(wait_exit(c), 42);
			ruas_child_free(c);
			assert_int_equal(access(f->fake_out, F_OK), 0);
		}
		ruas_error_free(err);
		ruas_config_free(cfg);
		buf_free(&text);
	}
}

static void test_spawn_sudo_missing(void **state)
{
	struct fix *f = *state;
	struct buf b = BUF_INIT;
	buf_adds(&b, "backend = \"sudo\";\nsudo = \"/nonexistent/ruas/sudo\";\nprojects = (\n"
		     "  { name = \"agent\"; run_as_user = \"" TARGET "\"; work_dir = \"/srv\"; "
		     "command = [\"claude\"]; }\n);\n");
	ruas_config *cfg = load_text(b.data);
	buf_free(&b);
	ruas_child *c = (ruas_child *)0x1;
	ruas_error *err = NULL;
	int rc = ruas_spawn(&c, cfg, "agent", NULL, NULL, &err);
	assert_null(c);
	/*
	 * sudo that is not there is the supervisor's host, not the target's
	 * start: RUAS_ERR_SYSTEM. Under valgrind posix_spawn cannot tell (see
	 * assert_exec_failed()): the child exits 127 before any HELLO, which
	 * is a start that sudo refused.
	 */
	if (RUNNING_ON_VALGRIND && rc == RUAS_ERR_START) {
		assert_int_equal(ruas_error_stage(err), RUAS_STAGE_SUDO);
		assert_non_null(strstr(ruas_error_message(err), "(exit status 127)"));
	} else {
		assert_int_equal(rc, RUAS_ERR_SYSTEM);
		assert_int_equal(ruas_error_errno(err), ENOENT);
		assert_non_null(strstr(ruas_error_message(err), "/nonexistent/ruas/sudo"));
	}
	ruas_error_free(err);
	ruas_config_free(cfg);
	(void)f;
}

/* A run_as_user gone from the user database since the load: refused before sudo runs. */
static void test_spawn_user_gone(void **state)
{
	struct fix *f = *state;
	struct buf b = BUF_INIT;
	buf_adds(&b, "backend = \"sudo\";\nsudo = \"/nonexistent/ruas/sudo\";\nprojects = (\n"
		     "  { name = \"agent\"; run_as_user = \"ruas-test-gone\"; work_dir = \"/srv\"; "
		     "command = [\"claude\"]; }\n);\n");
	ruas_config *cfg = load_text(b.data);
	buf_free(&b);
	ruas_child *c = (ruas_child *)0x1;
	ruas_error *err = NULL;
	/* The sudo path does not exist: had it been tried, the error would be ENOENT's. */
	assert_int_equal(ruas_spawn(&c, cfg, "agent", NULL, NULL, &err), RUAS_ERR_CONFIG);
	assert_null(c);
	assert_string_equal(ruas_error_message(err),
			    "project \"agent\": run_as_user \"ruas-test-gone\" has no passwd entry "
			    "any more, so there is no login shell to start the agent in");
	ruas_error_free(err);
	ruas_config_free(cfg);
	(void)f;
}

/* ------------------------------------------------------------ legacy */

static void test_legacy_runs_in_work_dir_with_given_env(void **state)
{
	struct fix *f = *state;
	char *out_var = NULL;
	assert_true(asprintf(&out_var, "OUT=%s", f->out) > 0);
	const char *env[] = {out_var, "FOO=va lue\n$HOME 'q' \"d\"", "PATH=/usr/bin:/bin",
			     NULL};
	const char *args[] = {"a r g", "", "$HOME", "x\ny", "*", NULL};

	/* A descriptor the host left open without O_CLOEXEC. */
	int fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, STRAY_FD), STRAY_FD);
	close(fd);
	assert_int_equal(fcntl(STRAY_FD, F_GETFD) & FD_CLOEXEC, 0);
	/* In the host environment only: must not reach the child. */
	assert_int_equal(setenv("PARENT_ONLY", "1", 1), 0);

	/* Control: a plain posix_spawn of the same probe does see both. */
	pid_t pid;
	char *const probe[] = {"/bin/sh", "-c",
			       "[ -e /proc/$$/fd/42 ] && [ -n \"${PARENT_ONLY+x}\" ]", NULL};
	assert_int_equal(posix_spawn(&pid, "/bin/sh", NULL, NULL, probe, environ), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	int r = ruas_spawn(&c, f->cfg, "legacy", args, &o, &err);
	close(STRAY_FD);
	unsetenv("PARENT_ONLY");
	if (r != 0)
		fail_msg("ruas_spawn: %s", ruas_error_message(err));
	assert_int_equal(wait_exit(c), 0);
	ruas_child_free(c);

	struct buf want = BUF_INIT;
	buf_printf(&want,
		   "%s\n"
		   "FOO=[va lue\n$HOME 'q' \"d\"]\n"
		   "parent-only-unset\n"
		   "fd42-closed\n"
		   "$0=[sh-legacy]\n"
		   "[a r g]\n[]\n[$HOME]\n[x\ny]\n[*]\n",
		   f->real);
	char *got = read_file(f->out);
	assert_string_equal(got, want.data);
	free(got);
	buf_free(&want);
	free(out_var);
}

/*
 * A signal number the kernel does not know is refused, naming it, and sends
 * nothing; 0 sends nothing and succeeds, as kill(2)'s test (issue 26).
 */
static void test_signal_number_checked(void **state)
{
	struct fix *f = *state;
	const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, "exit7", NULL, &o, &err), 0);
	const int bad[] = {12345, -1, SIGRTMAX + 1};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(ruas_child_signal(c, bad[i], &err), RUAS_ERR_INVALID);
		assert_int_equal(ruas_error_code(err), RUAS_ERR_INVALID);
		assert_non_null(strstr(ruas_error_message(err), "is not a signal"));
		ruas_error_free(err);
		err = NULL;
	}
	assert_int_equal(ruas_child_signal(c, 0, &err), 0);
	assert_int_equal(wait_exit(c), 7);
	assert_int_equal(ruas_child_signal(c, 0, &err), 0);
	ruas_child_free(c);
}

static void test_exit_status(void **state)
{
	struct fix *f = *state;
	const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, "exit7", NULL, &o, &err), 0);
	assert_int_equal(wait_exit(c), 7);
	/* Waiting again gives the same answer; so does try_wait. */
	assert_int_equal(wait_exit(c), 7);
	int code = -1;
	assert_int_equal(ruas_child_try_wait(c, &code, &err), 0);
	assert_int_equal(code, 7);
	/* Signalling a reaped child is a no-op. */
	assert_int_equal(ruas_child_signal(c, SIGTERM, &err), 0);
	assert_null(err);
	ruas_child_free(c);
}

static void test_killed_by_signal_with_clean_signal_state(void **state)
{
	struct fix *f = *state;
	const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;

	/* The host blocks and ignores SIGTERM; the child must start clean. */
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	assert_int_equal(pthread_sigmask(SIG_BLOCK, &term, &old), 0);
	struct sigaction ign, old_act;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	assert_int_equal(sigaction(SIGTERM, &ign, &old_act), 0);

	ruas_child *c = NULL;
	ruas_error *err = NULL;
	int r = ruas_spawn(&c, f->cfg, "term", NULL, &o, &err);

	assert_int_equal(sigaction(SIGTERM, &old_act, NULL), 0);
	assert_int_equal(pthread_sigmask(SIG_SETMASK, &old, NULL), 0);
	if (r != 0)
		fail_msg("ruas_spawn: %s", ruas_error_message(err));
	assert_int_equal(wait_exit(c), 128 + SIGTERM);
	ruas_child_free(c);
}

static void test_signal_running_child(void **state)
{
	struct fix *f = *state;
	const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, "sleeper", NULL, &o, &err), 0);
	int code = -1;
	assert_int_equal(ruas_child_try_wait(c, &code, &err), 1);
	assert_int_equal(code, -1);
	assert_int_equal(ruas_child_signal(c, SIGKILL, &err), 0);
	assert_int_equal(wait_exit(c), 128 + SIGKILL);
	assert_int_equal(ruas_child_signal(c, SIGKILL, &err), 0);
	assert_null(err);
	ruas_child_free(c);
	ruas_child_free(NULL);
}

/*
 * Out of descriptors (the process at its RLIMIT_NOFILE): a spawn fails at
 * once, RUAS_ERR_SYSTEM with EMFILE and a message naming the limit and its
 * value, not the caller's descriptors, sudo or the target; and after the
 * descriptors are back, the same spawn runs. In a child, whose limit is
 * lowered for it.
 */
static void test_out_of_descriptors(void **state)
{
	struct fix *f = *state;
	/* valgrind keeps descriptors of its own under the limit: the plain run tests this. */
	if (RUNNING_ON_VALGRIND) {
		fprintf(stderr, "under valgrind: out of descriptors is left to the plain run\n");
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = {64, 64};
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			_exit(10);
		int fds[64], n = 0;
		while (n < 64 && (fds[n] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
			n++;
		if (n == 64 || errno != EMFILE)
			_exit(11);
		ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
		o.pty = RUAS_PTY_NONE;
		ruas_child *c = NULL;
		ruas_error *err = NULL;
		int r = ruas_spawn(&c, f->cfg, "exit7", NULL, &o, &err);
		const char *m = ruas_error_message(err);
		if (r != RUAS_ERR_SYSTEM || ruas_error_errno(err) != EMFILE || c ||
		    !strstr(m, "RLIMIT_NOFILE 64") || strstr(m, "not an open descriptor")) {
			fprintf(stderr, "out of descriptors: %d: %s\n", r, m);
			_exit(12);
		}
		ruas_error_free(err);
		while (n > 0)
			close(fds[--n]);
		err = NULL;
		if (ruas_spawn(&c, f->cfg, "exit7", NULL, &o, &err) != 0 || wait_exit(c) != 7)
			_exit(13);
		ruas_child_free(c);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/*
 * Out of descriptors as the pam backend opens its service file (another
 * thread of the supervisor took the last one): that is this process's
 * limit, RUAS_ERR_SYSTEM with the errno and the limit named, not a service
 * file that is wrong and must be put back. open() of that one file fails,
 * as the kernel would at the limit (open_fails.h): nothing else
 * about the spawn changes.
 */
static void test_pam_service_out_of_descriptors(void **state)
{
	struct fix *f = *state;
	char dir[PATH_MAX], svc[PATH_MAX + 8];
	snprintf(dir, sizeof dir, "%s/pam.d", f->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(svc, sizeof svc, "%s/ruas", dir);
	write_file(svc, "#%PAM-1.0\n# PAM service of ruas's pam backend\n", 0644);
	ruas_config *cfg = load_text("backend = \"pam\";\nhelper = \"" HELPER "\";\n"
				     "projects = ( { name = \"agent\"; run_as_user = \"" TARGET
				     "\"; work_dir = \"/\"; command = [\"/bin/true\"]; } );\n");
	cfg->pam_dir = dir;
	static const int errnos[] = {EMFILE, ENFILE};
	for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++) {
		ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
		o.pty = RUAS_PTY_NONE;
		ruas_child *c = NULL;
		ruas_error *err = NULL;
		open_fails_errno = errnos[i];
		open_fails_path = svc;
		int r = ruas_spawn(&c, cfg, "agent", NULL, &o, &err);
		open_fails_path = NULL;
		const char *m = ruas_error_message(err);
		if (r != RUAS_ERR_SYSTEM || ruas_error_errno(err) != errnos[i] || c ||
		    !strstr(m, errnos[i] == EMFILE ? "RLIMIT_NOFILE" : "fs.file-max") ||
		    !strstr(m, "project \"agent\"") || strstr(m, "put back") ||
		    strstr(m, "refusing"))
			fail_msg("errno %d: %d: %s", errnos[i], r, m);
		ruas_error_free(err);
	}
	ruas_config_free(cfg);
	rm_rf(dir);
}

static void test_spawn_errors(void **state)
{
	struct fix *f = *state;
	const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	ruas_child *c = (ruas_child *)0x1;
	ruas_error *err = NULL;

	assert_int_equal(ruas_spawn(&c, f->cfg, "no-such-project", NULL, &o, &err),
			 RUAS_ERR_NOTFOUND);
	assert_null(c);
	assert_int_equal(ruas_error_code(err), RUAS_ERR_NOTFOUND);
	assert_non_null(strstr(ruas_error_message(err), "no-such-project"));
	ruas_error_free(err);
	err = NULL;

	c = (ruas_child *)0x1;
	assert_exec_failed(ruas_spawn(&c, f->cfg, "badcmd", NULL, &o, &err), &c, &err,
			   RUAS_STAGE_EXEC, ENOENT, "(exec): cannot run \"/nonexistent/ruas/cmd\"");
	assert_exec_failed(ruas_spawn(&c, f->cfg, "badwd", NULL, &o, &err), &c, &err,
			   RUAS_STAGE_WORK_DIR, ENOENT, "\"/nonexistent/ruas/wd\"");

	o.version = 99;
	assert_int_equal(ruas_spawn(&c, f->cfg, "exit7", NULL, &o, &err), RUAS_ERR_INVALID);
	ruas_error_free(err);
	err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, NULL, NULL, NULL, &err), RUAS_ERR_INVALID);
	ruas_error_free(err);
	assert_int_equal(ruas_spawn(NULL, f->cfg, "exit7", NULL, NULL, NULL), RUAS_ERR_INVALID);
}

/* ------------------------------------------------- per-spawn values */

/*
 * Beneath the "rooted" project's work_dir (f->dir, which has a space and
 * both quotes in its name):
 *   sub dir/inner/   directories
 *   afile            a regular file
 *   in  -> sub dir   a relative symlink that stays inside
 *   escape -> ../..  a relative symlink out of it
 *   abs -> <real>/sub dir   an absolute symlink (refused even pointing inside)
 */
static void setup_tree(struct fix *f)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/sub dir", f->dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/sub dir/inner", f->dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/afile", f->dir);
	write_file(p, "x\n", 0644);
	snprintf(p, sizeof p, "%s/in", f->dir);
	assert_int_equal(symlink("sub dir", p), 0);
	snprintf(p, sizeof p, "%s/escape", f->dir);
	assert_int_equal(symlink("../..", p), 0);
	char t[PATH_MAX + 16];
	snprintf(t, sizeof t, "%s/sub dir", f->real);
	snprintf(p, sizeof p, "%s/abs", f->dir);
	assert_int_equal(symlink(t, p), 0);
}

/* The payload of project `name` with options o, decoded; fails the test on a refusal. */
static void build_payload(struct fix *f, const char *name, const ruas_spawn_options *o,
			  struct payload *pl)
{
	const ruas_project *p = ruas_config_project_find(f->cfg, name);
	assert_non_null(p);
	struct sudo_call call;
	struct buf body = BUF_INIT;
	ruas_error *err = NULL;
	const char *why = NULL;
	int r = spawn_build_sudo_call_opts(f->cfg, p, NULL, o, &call, &body, &err);
	if (r != 0)
		fail_msg("refused (%d): %s", r, ruas_error_message(err));
	assert_null(err);
	if (payload_decode(body.data, body.len, pl, &why) != 0)
		fail_msg("payload does not decode: %s", why);
	buf_free(&body);
}

/*
 * Options o for project `name` are refused with `code` (and errno when not
 * 0), a message naming the project and containing each needle, both when
 * the payload is built and through ruas_spawn(), which starts nothing.
 */
static void expect_refused(struct fix *f, const char *name, const ruas_spawn_options *o,
			   int code, int errnum, const char *needle, const char *needle2)
{
	const ruas_project *p = ruas_config_project_find(f->cfg, name);
	assert_non_null(p);
	struct sudo_call call;
	struct buf body = BUF_INIT;
	ruas_error *err = NULL;
	char proj[64];
	snprintf(proj, sizeof proj, "project \"%s\"", name);
	for (int via_spawn = 0; via_spawn <= 1; via_spawn++) {
		ruas_child *c = (ruas_child *)0x1;
		int r = via_spawn ? ruas_spawn(&c, f->cfg, name, NULL, o, &err)
				  : spawn_build_sudo_call_opts(f->cfg, p, NULL, o, &call, &body,
							       &err);
		const char *msg = ruas_error_message(err);
		if (r != code)
			fail_msg("%s: %d, expected %d: %s", via_spawn ? "ruas_spawn" : "build", r,
				 code, msg);
		assert_int_equal(ruas_error_code(err), code);
		assert_int_equal(ruas_error_stage(err),
				 code == RUAS_ERR_START ? RUAS_STAGE_WORK_DIR : RUAS_STAGE_NONE);
		if (errnum)
			assert_int_equal(ruas_error_errno(err), errnum);
		if (!strstr(msg, proj) || (needle && !strstr(msg, needle)) ||
		    (needle2 && !strstr(msg, needle2)))
			fail_msg("message \"%s\" lacks %s, \"%s\" or \"%s\"", msg, proj,
				 needle ? needle : "", needle2 ? needle2 : "");
		if (via_spawn)
			assert_null(c);
		ruas_error_free(err);
		err = NULL;
	}
	buf_free(&body);
	/* Nothing started: the fake sudo never ran. */
	assert_int_equal(access(f->fake_out, F_OK), -1);
}

/*
 * pty: a value other than 0, -1 and 1, 1 without run_as_user, or 1 with a
 * descriptor of the caller's is refused, naming why; nothing starts.
 */
static void test_pty_refused(void **state)
{
	struct fix *f = *state;
	static const struct {
		const char *project;
		int pty, fd;
		const char *needle;
	} cases[] = {
		{"agent", 2, -1, "pty is 2, not 0"},
		{"exit7", 1, -1, "pty = 1 needs a run_as_user"},
		{"agent", 1, 0, "leave stdin_fd, stdout_fd and stderr_fd at -1"},
		{"agent", -2, -1, "pty is -2, not 0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
		ruas_child *c = (ruas_child *)0x1;
		ruas_error *err = NULL;
		o.pty = cases[i].pty;
		o.stdin_fd = cases[i].fd;
		assert_int_equal(ruas_spawn(&c, f->cfg, cases[i].project, NULL, &o, &err),
				 RUAS_ERR_INVALID);
		if (!strstr(ruas_error_message(err), cases[i].needle))
			fail_msg("\"%s\" lacks \"%s\"", ruas_error_message(err), cases[i].needle);
		assert_null(c);
		ruas_error_free(err);
	}
	/* pty_relay: only the library (0) or the caller (1). */
	static const int relays[] = {2, -1};
	for (size_t i = 0; i < sizeof relays / sizeof relays[0]; i++) {
		ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
		ruas_child *c = (ruas_child *)0x1;
		ruas_error *err = NULL;
		o.pty_relay = relays[i];
		assert_int_equal(ruas_spawn(&c, f->cfg, "agent", NULL, &o, &err), RUAS_ERR_INVALID);
		assert_non_null(strstr(ruas_error_message(err), "pty_relay is"));
		assert_null(c);
		ruas_error_free(err);
	}
	assert_int_equal(access(f->fake_out, F_OK), -1);
}

static const char *const session_env[] = {"LANG=C.UTF-8", "ANTHROPIC_API_KEY=from-env",
					  "SESSION_TOKEN=from-env", "PATH=/evil", NULL};

/* set_env: allowlisted names cross, over env, byte for byte, in allowlist order. */
static void test_set_env_crosses_and_overrides(void **state)
{
	struct fix *f = *state;
	const char *const set[] = {"SESSION_TOKEN=tok\n$HOME '\"=x", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = session_env;
	o.set_env = set;
	struct payload pl;
	build_payload(f, "rooted", &o, &pl);
	/* Allowlist order: LANG LC_ALL LC_CTYPE LC_MESSAGES TERM SESSION_TOKEN ANTHROPIC_API_KEY. */
	assert_int_equal(pl.nenv, 3);
	assert_string_equal(pl.env_names[0], "LANG");
	assert_string_equal(pl.env_values[0], "C.UTF-8");
	assert_string_equal(pl.env_names[1], "SESSION_TOKEN");
	assert_string_equal(pl.env_values[1], "tok\n$HOME '\"=x");
	assert_string_equal(pl.env_names[2], "ANTHROPIC_API_KEY");
	assert_string_equal(pl.env_values[2], "from-env");
	payload_free(&pl);

	/* Without env at all, an empty value, and a name env does not have. */
	const char *const set2[] = {"ANTHROPIC_API_KEY=", "LC_ALL=C", NULL};
	const char *const none[] = {NULL};
	o.env = none;
	o.set_env = set2;
	build_payload(f, "rooted", &o, &pl);
	assert_int_equal(pl.nenv, 2);
	assert_string_equal(pl.env_names[0], "LC_ALL");
	assert_string_equal(pl.env_values[0], "C");
	assert_string_equal(pl.env_names[1], "ANTHROPIC_API_KEY");
	assert_string_equal(pl.env_values[1], "");
	payload_free(&pl);

	/* An empty set_env is none. */
	const char *const empty[] = {NULL};
	o.env = session_env;
	o.set_env = empty;
	build_payload(f, "rooted", &o, &pl);
	assert_int_equal(pl.nenv, 3);
	assert_string_equal(pl.env_values[1], "from-env");
	payload_free(&pl);
}

/* Anything but allowlisted "NAME=value", once each, is refused naming it. */
static void test_set_env_refused(void **state)
{
	struct fix *f = *state;
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = session_env;
	const char *const path[] = {"SESSION_TOKEN=ok", "PATH=/x", NULL};
	o.set_env = path;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "set_env", "\"PATH\"");
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "env_allowlist", "spawn.conf");
	/* A name allowlisted in another project only. */
	const char *const foo[] = {"FOO=1", NULL};
	o.set_env = foo;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"FOO\"", NULL);
	/* Hostile names are shown escaped, on one line. */
	const char *const nl[] = {"SESSION_TOKEN\nX=1", NULL};
	o.set_env = nl;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"SESSION_TOKEN\\nX\"", NULL);
	/* A prefix or an extension of an allowlisted name is another name. */
	const char *const pre[] = {"SESSION_TOKE=1", NULL};
	o.set_env = pre;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"SESSION_TOKE\"", NULL);
	const char *const ext[] = {"SESSION_TOKENS=1", NULL};
	o.set_env = ext;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"SESSION_TOKENS\"", NULL);
	/* Malformed: no '=', an empty name, an empty entry. */
	const char *const noeq[] = {"SESSION_TOKEN", NULL};
	o.set_env = noeq;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"SESSION_TOKEN\"", "NAME=value");
	const char *const noname[] = {"=value", NULL};
	o.set_env = noname;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"=value\"", "NAME=value");
	const char *const blank[] = {"", NULL};
	o.set_env = blank;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"\"", "NAME=value");
	/* Twice: which one was meant is not for the library to guess. */
	const char *const twice[] = {"SESSION_TOKEN=a", "LANG=C", "SESSION_TOKEN=b", NULL};
	o.set_env = twice;
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "\"SESSION_TOKEN\"", "twice");
	/* Legacy projects have an allowlist too. */
	const char *const legacy_bad[] = {"SESSION_TOKEN=1", NULL};
	o.set_env = legacy_bad;
	ruas_child *c = (ruas_child *)0x1;
	ruas_error *err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, "legacy", NULL, &o, &err), RUAS_ERR_INVALID);
	assert_null(c);
	assert_non_null(strstr(ruas_error_message(err), "\"SESSION_TOKEN\""));
	ruas_error_free(err);
	assert_int_equal(access(f->out, F_OK), -1);
}

/* A per-spawn work_dir is sent as an absolute path beneath its root, the project's work_dir. */
static void expect_work_dir(struct fix *f, const char *wd, const char *want_rel)
{
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = session_env;
	o.work_dir = wd;
	struct payload pl;
	build_payload(f, "rooted", &o, &pl);
	char want[PATH_MAX];
	snprintf(want, sizeof want, "%s%s%s", f->dir, *want_rel ? "/" : "", want_rel);
	if (strcmp(pl.work_dir, want) != 0 || strcmp(pl.root, f->dir) != 0)
		fail_msg("work_dir \"%s\": payload work_dir \"%s\" root \"%s\", expected \"%s\" "
			 "beneath \"%s\"", wd, pl.work_dir, pl.root, want, f->dir);
	payload_free(&pl);
}

static void test_work_dir_payload(void **state)
{
	struct fix *f = *state;
	setup_tree(f);
	/* None: the project's, and no root to resolve it beneath. */
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = session_env;
	struct payload pl;
	build_payload(f, "rooted", &o, &pl);
	assert_string_equal(pl.work_dir, f->dir);
	assert_string_equal(pl.root, "");
	payload_free(&pl);
	/* Relative to the project's work_dir, "." and empty components dropped. */
	expect_work_dir(f, "sub dir", "sub dir");
	expect_work_dir(f, "sub dir/inner", "sub dir/inner");
	expect_work_dir(f, "./sub dir//inner/", "sub dir/inner");
	expect_work_dir(f, ".", "");
	/* A symlink that stays inside: its name, as a shell's cd would keep it. */
	expect_work_dir(f, "in", "in");
	expect_work_dir(f, "in/inner", "in/inner");
	/* Absolute, spelled beneath the project's work_dir as configured. */
	char abs[PATH_MAX];
	snprintf(abs, sizeof abs, "%s/sub dir/inner", f->dir);
	expect_work_dir(f, abs, "sub dir/inner");
	snprintf(abs, sizeof abs, "%s/", f->dir);
	expect_work_dir(f, abs, "");
	/* A person's scope and flags are untouched by it. */
	o.work_dir = "sub dir";
	build_payload(f, "rooted", &o, &pl);
	assert_string_equal(pl.scope, "");
	assert_string_equal(pl.argv[0], "claude");
	payload_free(&pl);
}

static void test_work_dir_refused(void **state)
{
	struct fix *f = *state;
	setup_tree(f);
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = session_env;
	/* "..": a per-spawn work_dir only goes down, even where ".." would stay inside. */
	const char *const dotdot[] = {"..", "../x", "sub dir/../..", "sub dir/..", "sub dir/inner/..",
				      NULL};
	for (size_t i = 0; dotdot[i]; i++) {
		o.work_dir = dotdot[i];
		expect_refused(f, "rooted", &o, RUAS_ERR_ESCAPE, 0, "\"..\"", "work_dir");
	}
	/* Symlinks out of it, relative or absolute (even one that points back inside). */
	o.work_dir = "escape";
	expect_refused(f, "rooted", &o, RUAS_ERR_ESCAPE, 0, "\"escape\"", "symlink");
	o.work_dir = "escape/tmp";
	expect_refused(f, "rooted", &o, RUAS_ERR_ESCAPE, 0, "\"escape/tmp\"", NULL);
	o.work_dir = "abs";
	expect_refused(f, "rooted", &o, RUAS_ERR_ESCAPE, 0, "\"abs\"", "absolute symlink");
	/* Absolute paths not beneath it: elsewhere, and a sibling whose name extends it. */
	o.work_dir = "/etc";
	expect_refused(f, "rooted", &o, RUAS_ERR_ESCAPE, 0, "\"/etc\"", "not beneath");
	char sib[PATH_MAX];
	snprintf(sib, sizeof sib, "%sx", f->dir);
	o.work_dir = sib;
	expect_refused(f, "rooted", &o, RUAS_ERR_ESCAPE, 0, "not beneath", NULL);
	/*
	 * Not a directory, missing: the start's failure at its work_dir
	 * (RUAS_ERR_START, RUAS_STAGE_WORK_DIR), as the helper's would be
	 * where the supervisor cannot look; empty.
	 */
	o.work_dir = "afile";
	expect_refused(f, "rooted", &o, RUAS_ERR_START, ENOTDIR, "\"afile\"", "not a directory");
	o.work_dir = "afile/x";
	expect_refused(f, "rooted", &o, RUAS_ERR_START, ENOENT, "\"afile/x\"", NULL);
	o.work_dir = "nosuch";
	expect_refused(f, "rooted", &o, RUAS_ERR_START, ENOENT, "\"nosuch\"", "cannot be");
	o.work_dir = "";
	expect_refused(f, "rooted", &o, RUAS_ERR_INVALID, 0, "work_dir", "empty");
	/* A hostile name is shown escaped. */
	o.work_dir = "no\nsuch \"x\"";
	expect_refused(f, "rooted", &o, RUAS_ERR_START, ENOENT, "\"no\\nsuch \\\"x\\\"\"", NULL);
}

/* Legacy: the same check, then the command runs in the resolved directory, with set_env. */
static void test_legacy_work_dir_and_set_env(void **state)
{
	struct fix *f = *state;
	setup_tree(f);
	char *out_var = NULL;
	assert_true(asprintf(&out_var, "OUT=%s", f->out) > 0);
	const char *env[] = {out_var, "FOO=from-env", "PATH=/usr/bin:/bin", NULL};
	const char *const set[] = {"FOO=from set_env\n$x", NULL};
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	o.set_env = set;
	o.work_dir = "in/inner";
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	if (ruas_spawn(&c, f->cfg, "legacy", NULL, &o, &err) != 0)
		fail_msg("ruas_spawn: %s", ruas_error_message(err));
	assert_int_equal(wait_exit(c), 0);
	ruas_child_free(c);
	char *got = read_file(f->out);
	struct buf want = BUF_INIT;
	buf_printf(&want, "%s/sub dir/inner\nFOO=[from set_env\n$x]\n", f->real);
	if (strncmp(got, want.data, want.len) != 0)
		fail_msg("got \"%s\", expected it to start \"%s\"", got, want.data);
	free(got);
	buf_free(&want);
	unlink(f->out);

	/* An escape is refused before anything runs. */
	o.work_dir = "escape";
	assert_int_equal(ruas_spawn(&c, f->cfg, "legacy", NULL, &o, &err), RUAS_ERR_ESCAPE);
	assert_non_null(strstr(ruas_error_message(err), "project \"legacy\""));
	ruas_error_free(err);
	assert_int_equal(access(f->out, F_OK), -1);
	free(out_var);
}

/*
 * A caller built against version 1, whose struct ends after env: the
 * library reads nothing past it (under ASan, a read beyond this heap block
 * would fail the test), so no work_dir or set_env of garbage applies.
 */
static void test_options_version_1(void **state)
{
	struct fix *f = *state;
	struct v1 {
		unsigned int version;
		const char *const *env;
	};
	static const char *const env[] = {"PATH=/usr/bin:/bin", NULL};
	struct v1 *o = malloc(sizeof *o);
	assert_non_null(o);
	o->version = 1;
	o->env = env;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, "exit7", NULL, (const ruas_spawn_options *)o,
				    &err),
			 0);
	assert_int_equal(wait_exit(c), 7);
	ruas_child_free(c);
	free(o);
}

/*
 * A caller built against version 2, whose struct ends before pty: the
 * library reads nothing past it (exactly the v2 size, on the heap, as
 * above), and whatever follows in memory is no pty: a pty of 1 or 2 there
 * would be refused (1 needs a run_as_user, 2 is no value), so a run that
 * goes ahead without a master read none.
 */
static void test_options_version_2(void **state)
{
	struct fix *f = *state;
	struct v2 {
		unsigned int version;
		const char *const *env;
		int stdin_fd, stdout_fd, stderr_fd;
		const char *work_dir;
		const char *const *set_env;
	};
	assert_int_equal(sizeof(struct v2), offsetof(ruas_spawn_options, pty));
	struct v2 *o = calloc(1, sizeof *o);
	assert_non_null(o);
	o->version = 2;
	o->stdin_fd = o->stdout_fd = o->stderr_fd = -1;
	ruas_child *c = NULL;
	ruas_error *err = NULL;
	assert_int_equal(ruas_spawn(&c, f->cfg, "exit7", NULL, (const ruas_spawn_options *)o,
				    &err),
			 0);
	assert_int_equal(ruas_child_pty_fd(c), -1);
	assert_int_equal(wait_exit(c), 7);
	ruas_child_free(c);
	free(o);

	static const int after[] = {1, 2, -1};
	for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) {
		ruas_spawn_options full = RUAS_SPAWN_OPTIONS_INIT;
		full.version = 2;
		full.pty = after[i];
		assert_int_equal(ruas_spawn(&c, f->cfg, "exit7", NULL, &full, &err), 0);
		assert_null(err);
		assert_int_equal(ruas_child_pty_fd(c), -1);
		assert_int_equal(wait_exit(c), 7);
		ruas_child_free(c);
	}
}

/*
 * Who relays the pty of a spawn whose stdin is a terminal (a pty of the
 * test's): with version 4's defaults the library does, so the caller gets
 * no master, and its terminal has its exact modes back once the wait has
 * returned; with pty_relay = RUAS_PTY_RELAY_CALLER, or a version 3 caller
 * that asked for a pty, the caller gets the master; version 3's default
 * (and RUAS_PTY_NONE) gives no pty.
 */
static void test_pty_relay_by_version(void **state)
{
	struct fix *f = *state;
	int term = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(term >= 0);
	assert_int_equal(grantpt(term), 0);
	assert_int_equal(unlockpt(term), 0);
	int tty = open(ptsname(term), O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(tty >= 0);
	/* Zeroed: tcgetattr() fills fewer c_cc than glibc's struct has. */
	struct termios before, after;
	memset(&before, 0, sizeof before);
	assert_int_equal(tcgetattr(tty, &before), 0);
	struct v3 {
		unsigned int version;
		const char *const *env;
		int stdin_fd, stdout_fd, stderr_fd;
		const char *work_dir;
		const char *const *set_env;
		int pty;
	};
	assert_int_equal(offsetof(struct v3, pty), offsetof(ruas_spawn_options, pty));
	static const struct {
		unsigned int version;
		int pty, relay, has_master;
	} cases[] = {
		{4, RUAS_PTY_AUTO, RUAS_PTY_RELAY_LIBRARY, 0},
		{4, RUAS_PTY_AUTO, RUAS_PTY_RELAY_CALLER, 1},
		{4, RUAS_PTY_NONE, RUAS_PTY_RELAY_CALLER, 0},
		{3, RUAS_PTY_AUTO, 0, 1},
		{3, RUAS_PTY_NONE, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ruas_spawn_options full = RUAS_SPAWN_OPTIONS_INIT;
		full.env = agent_env;
		full.stdin_fd = tty;
		full.pty = cases[i].pty;
		full.pty_relay = cases[i].relay;
		struct v3 *o3 = NULL;
		const ruas_spawn_options *o = &full;
		if (cases[i].version == 3) {
			/* Exactly the v3 size, on the heap: nothing past it is read. */
			o3 = malloc(sizeof *o3);
			assert_non_null(o3);
			o3->version = 3;
			o3->env = agent_env;
			o3->stdin_fd = tty;
			o3->stdout_fd = o3->stderr_fd = -1;
			o3->work_dir = NULL;
			o3->set_env = NULL;
			o3->pty = cases[i].pty;
			o = (const ruas_spawn_options *)o3;
		}
		ruas_child *c = NULL;
		ruas_error *err = NULL;
		if (ruas_spawn(&c, f->cfg, "agent", agent_args, o, &err) != 0)
			fail_msg("case %zu: ruas_spawn: %s", i, ruas_error_message(err));
		if ((ruas_child_pty_fd(c) >= 0) != cases[i].has_master)
			fail_msg("case %zu: the master is %d", i, ruas_child_pty_fd(c));
		if (!cases[i].has_master) /* with one: the channel */
			assert_int_equal(ruas_child_state_fd(c), -1);
		assert_int_equal(wait_exit(c), 42);
		memset(&after, 0, sizeof after);
		assert_int_equal(tcgetattr(tty, &after), 0);
		if (memcmp(&before, &after, sizeof before) != 0)
			fail_msg("case %zu: the terminal's modes changed", i);
		ruas_child_free(c);
		free(o3);
	}
	close(tty);
	close(term);
}

/* root, the user running the test (when not root) and the target, in a wrapped database. */
static void wrap_users(int argc, char **argv)
{
	char me[128] = "", passwd[512], group[256];
	if (getuid() != 0)
		snprintf(me, sizeof me, "ruas-test-me:x:%u:%u::/tmp:/bin/sh\n", (unsigned)getuid(),
			 (unsigned)getgid());
	snprintf(passwd, sizeof passwd,
		 "root:x:0:0:root:/root:/bin/sh\n%s" TARGET
		 ":x:4242:4242:target:/home/" TARGET ":/bin/sh\n",
		 me);
	snprintf(group, sizeof group, "root:x:0:\n" TARGET ":x:4242:\n");
	nss_env_reexec(argc, argv, passwd, group);
}

int main(int argc, char **argv)
{
	private_state();
	wrap_users(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sudo_call_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sudo_call_env_edge_cases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sudo_call_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawn_runs_sudo_exactly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawn_end_is_the_helpers_word, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawn_refuses_readable_helper, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawn_sudo_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawn_user_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_legacy_runs_in_work_dir_with_given_env,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_status, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_by_signal_with_clean_signal_state,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_running_child, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spawn_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_of_descriptors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pam_service_out_of_descriptors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_set_env_crosses_and_overrides, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_set_env_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_work_dir_payload, setup, teardown),
		cmocka_unit_test_setup_teardown(test_work_dir_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_number_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_legacy_work_dir_and_set_env, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_options_version_1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_options_version_2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pty_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pty_relay_by_version, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
