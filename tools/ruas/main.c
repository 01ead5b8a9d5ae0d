/*
 * ruas - check that each project's user boundary is real, then run agents
 * across it. A thin client of libruas; read main() top to bottom:
 * parse arguments, load the configuration, run every check of every
 * project, refuse on anything fatal, spawn, relay signals, exit as the
 * agent did.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "report_print.h"
#include "ruas.h"

#ifndef RUAS_DEFAULT_CONFIG
#define RUAS_DEFAULT_CONFIG "/etc/ruas/ruas.conf"
#endif

#define EXIT_FATAL 1
#define EXIT_USAGE 2
#define EXIT_SPAWN 125

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ruas check [-c FILE] [--json]\n"
		"       ruas run [-c FILE] PROJECT [-- ARG...]\n"
		"       ruas deny [-c FILE] PERSON [--format lines|json|claude-settings]\n"
		"       ruas audit [-c FILE] [--json]\n"
		"       ruas --version\n"
		"\n"
		"  check  run every startup check of every project; exit 0 when\n"
		"         nothing is fatal, 1 when something is, 2 on usage or\n"
		"         configuration errors\n"
		"  run    check everything, then start PROJECT's command with ARG...\n"
		"         appended, as its run_as_user; exit as the command did\n"
		"  deny   print what PERSON's agents must not see, computed now\n"
		"  audit  as each person's user, try to read what they must not; exit 0\n"
		"         when the OS enforces everything, 1 otherwise\n"
		"\n"
		"  -c FILE  configuration (default %s)\n", RUAS_DEFAULT_CONFIG);
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "ruas: %s%s%s%s\nTry 'ruas --help'.\n", what,
		arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

static int load(const char *path, ruas_config **cfg)
{
	ruas_error *err = NULL;
	if (ruas_config_load(cfg, path, NULL, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return -1;
	}
	return 0;
}

static void summary(const ruas_config *cfg, const ruas_report *r)
{
	size_t errors = 0, warnings = 0;
	for (size_t p = 0; p < ruas_report_project_count(r); p++)
		for (size_t i = 0; i < ruas_report_item_count(r, p); i++)
			if (ruas_report_item_severity(r, p, i) == RUAS_SEVERITY_FATAL)
				errors++;
			else
				warnings++;
	fprintf(stderr, "ruas: %zu project(s) in %s: %zu error(s), %zu warning(s)\n",
		ruas_config_project_count(cfg), ruas_config_path(cfg), errors, warnings);
}

/* 0 when nothing fatal; EXIT_FATAL on a fatal finding or a library failure. */
static int preflight(const ruas_config *cfg, int json)
{
	ruas_report *r = NULL;
	ruas_error *err = NULL;
	if (ruas_preflight(&r, cfg, NULL, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return EXIT_FATAL;
	}
	int fatal = ruas_report_has_fatal(r);
	if (json) {
		if (report_print_json(stdout, cfg, r) < 0 || !output_ok(stdout)) {
			fputs("ruas: cannot write the JSON report\n", stderr);
			fatal = 1;
		}
	} else {
		report_print_text(stderr, r);
		summary(cfg, r);
	}
	ruas_report_free(r);
	return fatal ? EXIT_FATAL : 0;
}

/*
 * [-c FILE] [--json] and no operand, for `verb`, then the configuration.
 * -1 when *cfg is loaded and the command goes on; otherwise the exit code.
 */
static int load_with_args(int argc, char **argv, const char *verb, ruas_config **cfg,
			  int *json)
{
	static const struct option opts[] = {{"config", required_argument, NULL, 'c'},
					     {"json", no_argument, NULL, 'j'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *path = RUAS_DEFAULT_CONFIG;
	char what[64];
	int c;
	*json = 0;
	while ((c = getopt_long(argc, argv, "+c:h", opts, NULL)) != -1) {
		if (c == 'c')
			path = optarg;
		else if (c == 'j')
			*json = 1;
		else if (c == 'h') {
			usage(stdout);
			return output_ok(stdout) ? 0 : EXIT_FATAL;
		} else {
			snprintf(what, sizeof what, "bad option for %s", verb);
			return usage_error(what, NULL);
		}
	}
	if (optind != argc) {
		snprintf(what, sizeof what, "%s takes no operand:", verb);
		return usage_error(what, argv[optind]);
	}
	return load(path, cfg) < 0 ? EXIT_USAGE : -1;
}

static int cmd_check(int argc, char **argv)
{
	ruas_config *cfg;
	int json, rc = load_with_args(argc, argv, "check", &cfg, &json);
	if (rc >= 0)
		return rc;
	rc = preflight(cfg, json);
	ruas_config_free(cfg);
	return rc;
}

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

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {{"config", required_argument, NULL, 'c'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *path = RUAS_DEFAULT_CONFIG;
	int c;
	while ((c = getopt_long(argc, argv, "+c:h", opts, NULL)) != -1) {
		if (c == 'c')
			path = optarg;
		else if (c == 'h') {
			usage(stdout);
			return output_ok(stdout) ? 0 : EXIT_FATAL;
		} else
			return usage_error("bad option for run", NULL);
	}
	if (optind >= argc)
		return usage_error("run needs a PROJECT", NULL);
	const char *project = argv[optind++];
	if (optind < argc && strcmp(argv[optind], "--") != 0)
		return usage_error("arguments for the command must follow '--':",
				   argv[optind]);
	char **args = optind < argc ? argv + optind + 1 : argv + argc;

	ruas_config *cfg;
	if (load(path, &cfg) < 0)
		return EXIT_USAGE;
	if (!ruas_config_project_find(cfg, project)) {
		fprintf(stderr, "ruas: no project named \"%s\" in %s\n", project,
			ruas_config_path(cfg));
		ruas_config_free(cfg);
		return EXIT_USAGE;
	}
	int rc = preflight(cfg, 0);
	if (rc != 0) {
		fprintf(stderr, "ruas: not starting \"%s\": fix the errors above first\n",
			project);
		ruas_config_free(cfg);
		return rc;
	}

	/* Block before spawning so that no signal slips between spawn and wait. */
	sigset_t set, old;
	if (block_relayed_signals(&set, &old) < 0) {
		perror("ruas: sigprocmask");
		ruas_config_free(cfg);
		return EXIT_SPAWN;
	}

	ruas_child *child = NULL;
	ruas_error *err = NULL;
	if (ruas_spawn(&child, cfg, project, (const char *const *)args, NULL, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		ruas_config_free(cfg);
		return EXIT_SPAWN;
	}
	rc = wait_terminating(child, &set,
			      ruas_project_terminate_grace(ruas_config_project_find(cfg, project)));
	ruas_child_free(child);
	ruas_config_free(cfg);
	return rc;
}

static int print_deny(const ruas_config *cfg, const char *person, const char *format)
{
	char **paths = NULL, **warnings = NULL;
	ruas_error *err = NULL;
	int rc = 0;
	if (ruas_deny_list(&paths, &warnings, cfg, person, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return EXIT_USAGE;
	}
	for (char **w = warnings; w && *w; w++)
		fprintf(stderr, "WARNING: person \"%s\": %s\n", person, *w);
	if (strcmp(format, "lines") == 0) {
		for (char **p = paths; *p; p++)
			printf("%s\n", *p);
	} else if (strcmp(format, "json") == 0) {
		if (deny_print_json(stdout, person, paths, warnings) < 0)
			rc = EXIT_FATAL;
	} else {
		char *json = NULL;
		if (ruas_deny_claude_settings(&json, cfg, person, &err) < 0) {
			fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
			ruas_error_free(err);
			rc = EXIT_FATAL;
		} else {
			printf("%s\n", json);
			ruas_free(json);
		}
	}
	ruas_strv_free(paths);
	ruas_strv_free(warnings);
	if (!output_ok(stdout))
		rc = EXIT_FATAL;
	return rc;
}

static int cmd_deny(int argc, char **argv)
{
	static const struct option opts[] = {{"config", required_argument, NULL, 'c'},
					     {"format", required_argument, NULL, 'f'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *path = RUAS_DEFAULT_CONFIG, *format = "lines";
	int c;
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		if (c == 'c')
			path = optarg;
		else if (c == 'f')
			format = optarg;
		else if (c == 'h') {
			usage(stdout);
			return output_ok(stdout) ? 0 : EXIT_FATAL;
		} else
			return usage_error("bad option for deny", NULL);
	}
	if (optind != argc - 1)
		return usage_error("deny needs exactly one PERSON", NULL);
	if (strcmp(format, "lines") != 0 && strcmp(format, "json") != 0 &&
	    strcmp(format, "claude-settings") != 0)
		return usage_error("--format must be lines, json or claude-settings, not", format);
	ruas_config *cfg;
	if (load(path, &cfg) < 0)
		return EXIT_USAGE;
	int rc = print_deny(cfg, argv[optind], format);
	ruas_config_free(cfg);
	return rc;
}

static int cmd_audit(int argc, char **argv)
{
	ruas_config *cfg;
	ruas_report *r = NULL;
	ruas_error *err = NULL;
	int json, rc = load_with_args(argc, argv, "audit", &cfg, &json);
	if (rc >= 0)
		return rc;
	if (ruas_audit(&r, cfg, NULL, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		int code = ruas_error_code(err) == RUAS_ERR_CONFIG ? EXIT_USAGE : EXIT_FATAL;
		ruas_error_free(err);
		ruas_config_free(cfg);
		return code;
	}
	size_t findings = 0;
	for (size_t p = 0; p < ruas_report_project_count(r); p++)
		findings += ruas_report_item_count(r, p);
	if (json) {
		if (report_print_people_json(stdout, r) < 0 || !output_ok(stdout))
			findings++;
	} else {
		report_print_text(stderr, r);
		fprintf(stderr, "ruas: audit of %zu person(s): %s\n", ruas_report_project_count(r),
			findings ? "the OS does not enforce everything (see above)"
				 : "the OS enforces every deny path");
	}
	ruas_report_free(r);
	ruas_config_free(cfg);
	return findings ? EXIT_FATAL : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *verb = argv[1];
	if (strcmp(verb, "--version") == 0) {
		printf("ruas %s\n", RUAS_VERSION);
		return output_ok(stdout) ? 0 : EXIT_FATAL;
	}
	if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
		usage(stdout);
		return output_ok(stdout) ? 0 : EXIT_FATAL;
	}
	if (strcmp(verb, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(verb, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(verb, "deny") == 0)
		return cmd_deny(argc - 1, argv + 1);
	if (strcmp(verb, "audit") == 0)
		return cmd_audit(argc - 1, argv + 1);
	return usage_error("unknown command", verb);
}
