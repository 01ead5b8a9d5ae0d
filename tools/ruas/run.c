/*
 * run.c - ruas run: check everything, then start the project's command as
 * its run_as_user, relay termination to it, and exit as it did.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "proc.h"
#include "ruas.h"
#include "args.h"

/*
 * Waits for the agent. SIGTERM, SIGHUP, SIGINT or SIGQUIT sent to ruas by
 * another process ends the agent's whole tree: ruas_child_terminate() now,
 * and SIGKILL to sudo if it still runs after the grace period and a margin
 * (the helper then sees its parent die and kills what is left). Signals the
 * terminal sends (si_code SI_KERNEL) reach sudo and the helper through the
 * shared process group already.
 */
static int wait_terminating(ruas_child *child, const sigset_t *set, unsigned int grace)
{
	int terminating = 0;
	struct timespec deadline = {0, 0};
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
		struct timespec now, left = {1, 0};
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (terminating) {
			if (now.tv_sec >= deadline.tv_sec) {
				ruas_child_signal(child, SIGKILL, NULL);
				deadline.tv_sec = now.tv_sec + 3600;
			}
		}
		int sig = sigtimedwait(set, &si, &left);
		if (sig <= 0 || sig == SIGCHLD || si.si_code > 0 || terminating)
			continue;
		terminating = 1;
		ruas_child_terminate(child, NULL);
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += (time_t)grace + 5;
	}
}

/* Spawns project with args and waits for it; its exit code or EXIT_SPAWN. */
static int start(const ruas_config *cfg, const char *project, char **args)
{
	/* Block before spawning so that no signal slips between spawn and wait. */
	sigset_t set, old;
	if (block_relayed_signals(&set, &old) < 0) {
		perror("ruas: sigprocmask");
		return EXIT_SPAWN;
	}

	ruas_child *child = NULL;
	ruas_error *err = NULL;
	if (ruas_spawn(&child, cfg, project, (const char *const *)args, NULL, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return EXIT_SPAWN;
	}
	int rc = wait_terminating(child, &set,
				  ruas_project_terminate_grace(ruas_config_project_find(cfg, project)));
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
	int rc = preflight(cfg, 0, quiet);
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
	rc = check_and_start(cfg, project, args, a.quiet);
	ruas_config_free(cfg);
	return rc;
}
