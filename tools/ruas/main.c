/* SPDX-License-Identifier: ISC */
/*
 * ruas - check that each project's user boundary is real, then run agents
 * across it. A thin client of libruas: main() dispatches on the verb, each
 * verb is a file of its own (check.c, run.c, deny.c, audit.c) and parses
 * its options with args_parse() (args.c); this file has what they share:
 * the usage text, usage errors and loading the configuration.
 */
#include <stdio.h>
#include <string.h>

#include "report_print.h"
#include "ruas.h"
#include "args.h"

void usage(FILE *f)
{
	fprintf(f,
		"usage: ruas check [-c FILE] [-q] [--json] [--fresh]\n"
		"       ruas run [-c FILE] [-q] PROJECT [-- ARG...]\n"
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
		"  -c FILE  configuration (default %s)\n"
		"  -q       quiet: no warnings and no summary line; fatal findings\n"
		"           are still shown (run -q: on success, only the command's\n"
		"           own output)\n", RUAS_DEFAULT_CONFIG);
}

int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "ruas: %s%s%s%s\nTry 'ruas --help'.\n", what,
		arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

int load(const char *path, ruas_config **cfg)
{
	ruas_error *err = NULL;
	if (ruas_config_load(cfg, path, NULL, &err) < 0) {
		fprintf(stderr, "ruas: %s\n", ruas_error_message(err));
		ruas_error_free(err);
		return -1;
	}
	return 0;
}

void unload(ruas_config *cfg, int quiet)
{
	unsigned long lost = ruas_config_audit_undelivered(cfg);
	if (lost && !quiet)
		fprintf(stderr, "ruas: %lu audit record(s) could not be delivered to syslog: is a "
				"syslog daemon reading /dev/log? (audit_log, when set, has them all)\n",
			lost);
	ruas_config_free(cfg);
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} verbs[] = {
	{"check", cmd_check},
	{"run", cmd_run},
	{"deny", cmd_deny},
	{"audit", cmd_audit},
};

/* The command named s, or -1. */
static int verb_index(const char *s)
{
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (strcmp(s, verbs[i].name) == 0)
			return (int)i;
	return -1;
}

/*
 * argv[1] is an option: when the command follows the options before it
 * (the value of -c and --format skipped), it is moved in front of them, in
 * place (argv[1] is then the command). 1 when it was, 0 when no command
 * follows them.
 */
static int options_first(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return 0;
		if (a[0] == '-' && a[1]) {
			/* The value of an option that takes one, given apart. */
			if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "-f") == 0 ||
			    strcmp(a, "--format") == 0)
				i++;
			continue;
		}
		if (verb_index(a) < 0)
			return 0;
		char *v = argv[i];
		memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof *argv);
		argv[1] = v;
		return 1;
	}
	return 0;
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
	/* Options first (ruas -c F check): moved after the command, as git takes them. */
	if (verb[0] == '-' && verb[1]) {
		if (!options_first(argc, argv)) {
			fputs("ruas: no command after the options: the command comes first, its "
			      "options after it (ruas check -c FILE); ruas --help lists them\n",
			      stderr);
			return EXIT_USAGE;
		}
		verb = argv[1];
	}
	/* Each verb sees argv from its own name on: getopt's messages start with it. */
	int v = verb_index(verb);
	return v >= 0 ? verbs[v].run(argc - 1, argv + 1) : usage_error("unknown command", verb);
}
