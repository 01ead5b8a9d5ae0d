/* SPDX-License-Identifier: ISC */
/*
 * signals.c - signals through the handle (issue 13), as an outside
 * supervisor sends them; built like pipes.c. USER is the projects'
 * run_as_user, whose processes must all be gone when a run has ended.
 * The agents (tests/integration/spawn.sh): TRAP prints "ready", "got SIG"
 * for each of USR1, USR2, INT, HUP and TERM that it catches, answers
 * "pong X" to each line X, and exits 0 at the end of its stdin (given the
 * argument "tree", it first starts a child of its own); SLEEPER prints
 * "ready" and sleeps, dying of any signal; EXIT130 runs `exit 130`.
 *
 *   signals relay CONF USER TRAP         SIGUSR1, SIGUSR2, SIGINT and SIGHUP
 *                                        reach the agent; the helper lives on
 *   signals grace CONF USER TRAP SLEEPER SIGTERM ends the tree with the grace
 *   signals early CONF USER SLEEPER N    a terminate right after ruas_spawn(), N times
 *   signals free CONF USER SLEEPER TRAP  free of a running child: no zombie, no survivor
 *   signals status CONF USER EXIT130 SLEEPER   exit 130 against death by SIGINT
 */
#define _GNU_SOURCE
#include "consumer.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MS 10000

static const ruas_config *cfg;
static uid_t target;

/* The next line of the agent's stdout must be want. */
static void expect_line(const struct agent_pipes *p, const char *want, const char *when)
{
	char line[256];
	if (read_line(p->out, line, sizeof line, LINE_MS) < 0)
		fail("%s: no \"%s\" from the agent within %d ms", when, want, LINE_MS);
	else if (strcmp(line, want) != 0)
		fail("%s: the agent said \"%s\", not \"%s\"", when, line, want);
}

static ruas_child *start_piped(const char *project, const char *arg, struct agent_pipes *p)
{
	ruas_child *c;
	ruas_error *err = NULL;
	const char *args[] = {arg, NULL};
	if (spawn_piped(&c, cfg, project, args, NULL, p, &err) < 0)
		die("ruas_spawn", err);
	expect_line(p, "ready", project);
	return c;
}

static void send_signal(ruas_child *c, int sig)
{
	ruas_error *err = NULL;
	if (ruas_child_signal(c, sig, &err) < 0)
		fail("ruas_child_signal(%d): %s", sig, ruas_error_message(err));
	ruas_error_free(err);
}

static int wait_child(ruas_child *c)
{
	ruas_error *err = NULL;
	int code = -1;
	if (ruas_child_wait(c, &code, &err) < 0)
		fail("ruas_child_wait: %s", ruas_error_message(err));
	ruas_error_free(err);
	return code;
}

/* After a run has ended: nothing of the target's may be left, nor a zombie of ours. */
static void nothing_left(const char *when)
{
	int z, n = children(&z);
	if (processes_of(target)) {
		fail("%s: processes of the target are left:", when);
		show_processes_of(target);
	}
	if (n || z)
		fail("%s: this supervisor has %d children, %d of them zombies", when, n, z);
}

static void expect_end(ruas_child *c, int code, int sig, const char *when)
{
	int got = wait_child(c);
	if (got != code || ruas_child_term_signal(c) != sig)
		fail("%s: exit code %d, signal %d; want %d, %d", when, got,
		     ruas_child_term_signal(c), code, sig);
}

static int relay(const char *trap)
{
	struct agent_pipes p;
	ruas_child *c = start_piped(trap, NULL, &p);
	const struct {
		int sig;
		const char *line;
	} sigs[] = {{SIGUSR1, "got USR1"}, {SIGUSR2, "got USR2"}, {SIGINT, "got INT"},
		    {SIGHUP, "got HUP"}, {SIGUSR1, "got USR1"}};
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		send_signal(c, sigs[i].sig);
		expect_line(&p, sigs[i].line, "a signal through the handle");
	}
	write_all(p.in, "after the signals\n");
	expect_line(&p, "pong after the signals", "the agent answers after the signals");
	int code;
	if (ruas_child_try_wait(c, &code, NULL) != 1)
		fail("the child ended after the signals (exit code %d)", code);
	if (!process_named(target, "ruas-exec"))
		fail("the helper (ruas-exec) is gone after the signals");
	close(p.in);
	p.in = -1;
	expect_end(c, 0, 0, "the agent's stdin ended");
	nothing_left("after the signals");
	pipes_close(&p);
	ruas_child_free(c);
	return finish();
}

/* Terminate a TRAP that ignores SIGTERM (killed after the grace), then a SLEEPER (at once). */
static int grace(const char *trap, const char *sleeper)
{
	struct agent_pipes p;
	ruas_child *c = start_piped(trap, "tree", &p);
	long long t0 = now_ms();
	ruas_error *err = NULL;
	if (ruas_child_terminate(c, &err) < 0)
		fail("ruas_child_terminate: %s", ruas_error_message(err));
	expect_line(&p, "got TERM", "terminate: the agent gets SIGTERM");
	expect_end(c, 137, SIGKILL, "terminate of an agent that ignores SIGTERM");
	long long ms = now_ms() - t0;
	note("an agent that ignores SIGTERM ended %lld ms after the terminate", ms);
	if (ms < 900 || ms > 3000)
		fail("it ended %lld ms after the terminate; the grace is 1 s (+2 s at most)", ms);
	nothing_left("after terminate");
	pipes_close(&p);
	ruas_child_free(c);

	c = start_piped(sleeper, NULL, &p);
	t0 = now_ms();
	send_signal(c, SIGTERM);
	expect_end(c, 143, SIGTERM, "SIGTERM to an agent that does not catch it");
	ms = now_ms() - t0;
	note("an agent that does not catch SIGTERM ended %lld ms after it", ms);
	if (ms >= 900)
		fail("SIGTERM took %lld ms to end an agent that does not catch it", ms);
	nothing_left("after SIGTERM");
	pipes_close(&p);
	ruas_child_free(c);
	return finish();
}

static int early(const char *sleeper, int n)
{
	int codes[256] = {0};
	long long t0 = now_ms();
	for (int i = 0; i < n && failures < 3; i++) {
		ruas_child *c;
		ruas_error *err = NULL;
		if (spawn_quiet(&c, cfg, sleeper, &err) < 0)
			die("ruas_spawn", err);
		if (ruas_child_terminate(c, &err) < 0) {
			fail("spawn %d: ruas_child_terminate: %s", i, ruas_error_message(err));
			ruas_error_free(err);
		}
		int code = wait_child(c);
		codes[code & 255]++;
		char when[64];
		snprintf(when, sizeof when, "terminate right after spawn %d", i);
		nothing_left(when);
		ruas_child_free(c);
	}
	note("%d spawns in %lld ms; exit codes:", n, now_ms() - t0);
	for (int i = 0; i < 256; i++)
		if (codes[i])
			note("  %d: %d time(s)", i, codes[i]);
	return finish();
}

static void free_running(ruas_child *c, const char *when)
{
	long long t0 = now_ms();
	ruas_child_free(c);
	long long ms = now_ms() - t0;
	note("%s: free took %lld ms", when, ms);
	if (ms > 2500)
		fail("%s: free took %lld ms (at most about 2 s)", when, ms);
	nothing_left(when);
}

static int free_test(const char *sleeper, const char *trap)
{
	struct agent_pipes p;
	ruas_error *err = NULL;
	ruas_child *c = start_piped(sleeper, NULL, &p);
	free_running(c, "free of a running agent");
	pipes_close(&p);
	c = start_piped(trap, "tree", &p);
	free_running(c, "free of an agent with a child, that catches SIGTERM");
	pipes_close(&p);
	if (spawn_quiet(&c, cfg, sleeper, &err) < 0)
		die("ruas_spawn", err);
	free_running(c, "free right after spawn");
	return finish();
}

static int status(const char *exit130, const char *sleeper)
{
	struct agent_pipes p;
	ruas_error *err = NULL;
	ruas_child *c;
	if (spawn_quiet(&c, cfg, exit130, &err) < 0)
		die("ruas_spawn", err);
	expect_end(c, 130, 0, "exit 130");
	ruas_child_free(c);
	c = start_piped(sleeper, NULL, &p);
	send_signal(c, SIGINT);
	expect_end(c, 130, SIGINT, "death by SIGINT");
	pipes_close(&p);
	ruas_child_free(c);
	nothing_left("after the exit statuses");
	return finish();
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: signals relay|grace|early|free|status CONF USER ...\n");
		return 2;
	}
	/* A closed pipe to an agent that has gone must fail the write, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	cfg = load_config(argv[2]);
	target = user_uid(argv[3]);
	const char *m = argv[1];
	if (strcmp(m, "relay") == 0 && argc == 5)
		return relay(argv[4]);
	if (strcmp(m, "grace") == 0 && argc == 6)
		return grace(argv[4], argv[5]);
	if (strcmp(m, "early") == 0 && argc == 6)
		return early(argv[4], atoi(argv[5]));
	if (strcmp(m, "free") == 0 && argc == 6)
		return free_test(argv[4], argv[5]);
	if (strcmp(m, "status") == 0 && argc == 6)
		return status(argv[4], argv[5]);
	fprintf(stderr, "signals: bad arguments\n");
	return 2;
}
