/* SPDX-License-Identifier: ISC */
/*
 * run.c - ruas run: check everything, then start the project's command as
 * its run_as_user, relay signals to it, and exit as it did. On a terminal
 * the agent gets a pty of its own, relayed by relay.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "ruas.h"
#include "args.h"
#include "limit_line.h"
#include "ending.h"
#include "relay.h"

/*
 * The signals ruas run takes from other processes and passes on, as sudo
 * does: the helper's own (block_relayed_signals) and those that only ever
 * mean something to the agent.
 */
static int block_run_signals(sigset_t *set, sigset_t *old)
{
	static const int agent_only[] = {SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT, SIGALRM};
	if (block_relayed_signals(set, old) < 0)
		return -1;
	sigset_t more;
	sigemptyset(&more);
	for (size_t i = 0; i < sizeof agent_only / sizeof agent_only[0]; i++) {
		sigaddset(&more, agent_only[i]);
		sigaddset(set, agent_only[i]);
	}
	return sigprocmask(SIG_BLOCK, &more, NULL);
}

/*
 * What a signal that reached ruas means for the agent. SIGTERM ends its
 * whole tree (the grace, then SIGKILL). Any other goes to the agent's
 * process group through ruas_child_signal(), so that SIGINT interrupts
 * rather than ends and the agent dies of it, if at all, by its own choice;
 * the helper then ends what it left. A signal the terminal sent (si_code
 * SI_KERNEL) already reached sudo and the helper, which share our process
 * group, so it is not sent twice; only SIGWINCH is, since the agent runs
 * in a session of its own and the terminal's never reaches it.
 */
enum relay { RELAY_NONE, RELAY_TERMINATE, RELAY_SIGNAL };

static enum relay relay_of(int sig, const siginfo_t *si)
{
	if (sig <= 0 || sig == SIGCHLD)
		return RELAY_NONE;
	if (si->si_code > 0 && sig != SIGWINCH)
		return RELAY_NONE;
	return sig == SIGTERM ? RELAY_TERMINATE : RELAY_SIGNAL;
}

/*
 * Waits for the agent, relaying what ruas receives (relay_of). After a
 * terminate, SIGKILL goes to the tree if it still runs after the grace
 * period and a margin (the helper then sees its parent die and kills what
 * is left); nothing else is relayed meanwhile.
 */
static int wait_relaying(ruas_child *child, const sigset_t *set, unsigned int grace)
{
	struct ending end = {0, 0};
	for (;;) {
		int code;
		ruas_error *err = NULL;
		int r = ruas_child_try_wait(child, &code, &err);
		if (r == 0)
			return code;
		if (r < 0) {
			fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
			ruas_error_free(err);
			return EXIT_SPAWN;
		}
		siginfo_t si;
		struct timespec left = {1, 0};
		ending_kill_if_due(&end, child);
		int sig = sigtimedwait(set, &si, &left);
		enum relay what = relay_of(sig, &si);
		if (what == RELAY_NONE || end.on)
			continue;
		if (what == RELAY_SIGNAL)
			ruas_child_signal(child, sig, NULL);
		else
			ending_begin(&end, child, grace);
	}
}

/*
 * A spawn that failed, as env(1) and the shells say it: 127 for a command
 * not found, 126 for one that could not be run, else EXIT_SPAWN (125).
 */
static int start_failure_code(const ruas_error *err)
{
	if (ruas_error_code(err) != RUAS_ERR_START || ruas_error_stage(err) != RUAS_STAGE_EXEC)
		return EXIT_SPAWN;
	return ruas_error_errno(err) == ENOENT ? 127 : 126;
}

/* Spawns project with args and waits for it; its exit code or what start_failure_code() says. */
static int start(const ruas_config *cfg, const char *project, char **args)
{
	/* Block before spawning so that no signal slips between spawn and wait. */
	sigset_t set, old;
	if (block_run_signals(&set, &old) < 0) {
		perror("ruas: sigprocmask");
		return EXIT_SPAWN;
	}

	ruas_child *child = NULL;
	ruas_error *err = NULL;
	/*
	 * A pty of the agent's own when stdin is a terminal (the default);
	 * none for pipes, as before. Relayed here, not by the library: only
	 * the process can suspend itself on Ctrl-Z, as sudo does.
	 */
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_AUTO;
	o.pty_relay = RUAS_PTY_RELAY_CALLER;
	if (ruas_spawn(&child, cfg, project, (const char *const *)args, &o, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		int rc = start_failure_code(err);
		ruas_error_free(err);
		return rc;
	}
	const ruas_project *p = ruas_config_project_find(cfg, project);
	unsigned int grace = ruas_project_terminate_grace(p);
	int rc = ruas_child_pty_fd(child) >= 0 ? relay_pty(child, &set, grace)
					       : wait_relaying(child, &set, grace);
	/* As timeout(1) and a shell: 124 for the wall clock, 137 for memory, whatever it ended with. */
	rc = limit_line(stderr, p, project, ruas_child_limit(child), rc);
	ruas_child_free(child);
	return rc;
}

/*
 * The configuration is loaded and PROJECT is in it: check, then start. With
 * quiet, nothing of ruas's own is written unless something fails, so that
 * the caller's view of stdout and stderr is exactly the agent's.
 */
static int check_and_start(const ruas_config *cfg, const char *project, char **args, int quiet)
{
	if (!ruas_config_project_find(cfg, project)) {
		fprintf(stderr, "ruas: no project named \"%s\" in %s\n", project,
			ruas_config_path(cfg));
		return EXIT_USAGE;
	}
	/* A passing check kept from a run moments ago stands (check/verdict.h). */
	int rc = preflight(cfg, 0, quiet, 0, 1);
	if (rc != 0) {
		fprintf(stderr, "ruas: not starting \"%s\": fix the errors above first\n",
			project);
		return rc;
	}
	return start(cfg, project, args);
}

int cmd_run(int argc, char **argv)
{
	struct args a;
	int rc = args_parse(argc, argv, &args_run, &a);
	if (rc != ARGS_GO_ON)
		return rc;
	int i = a.operand;
	if (i >= argc)
		return usage_error("run needs a PROJECT", NULL);
	const char *project = argv[i++];
	if (i < argc && strcmp(argv[i], "--") != 0)
		return usage_error("arguments for the command must follow '--':", argv[i]);
	char **args = i < argc ? argv + i + 1 : argv + argc;

	ruas_config *cfg;
	if (load(a.config, &cfg) < 0)
		return EXIT_USAGE;
	/* On a terminal, quiet unless something is wrong: the operator sees the agent's screen. */
	rc = check_and_start(cfg, project, args, a.quiet || isatty(0));
	unload(cfg, a.quiet || isatty(0));
	return rc;
}
