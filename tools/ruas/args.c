/* SPDX-License-Identifier: ISC */
/* args.c - the options of every verb of ruas, parsed by one function. */
#include "args.h"

#include <stdio.h>

#include "report_print.h"

#define OPT_CONFIG {"config", required_argument, NULL, 'c'}
#define OPT_HELP {"help", no_argument, NULL, 'h'}
#define OPT_JSON {"json", no_argument, NULL, 'j'}
#define OPT_QUIET {"quiet", no_argument, NULL, 'q'}
#define OPT_FRESH {"fresh", no_argument, NULL, 'F'}
#define OPT_END {NULL, 0, NULL, 0}

static const struct option opts_check[] = {OPT_CONFIG, OPT_JSON, OPT_QUIET, OPT_FRESH, OPT_HELP,
					   OPT_END};
static const struct option opts_audit[] = {OPT_CONFIG, OPT_JSON, OPT_HELP, OPT_END};
static const struct option opts_run[] = {OPT_CONFIG, OPT_QUIET, OPT_HELP, OPT_END};
static const struct option opts_deny[] = {OPT_CONFIG, {"format", required_argument, NULL, 'f'},
					  OPT_HELP, OPT_END};

const struct args_spec args_check = {
	"check", "+:c:hq", opts_check,
	"usage: ruas check [-c FILE] [-q] [--json] [--fresh]\n"
	"\n"
	"Run every startup check of every project; exit 0 when nothing is fatal,\n"
	"1 when something is, 2 on usage or configuration errors.\n"
	"\n"
	"  -c, --config FILE  configuration (default " RUAS_DEFAULT_CONFIG ")\n"
	"  -q, --quiet        only the fatal findings; no warnings, no summary\n"
	"      --json         the report as one JSON document on stdout (ruas(1))\n"
	"      --fresh        walk the host's trees now, whatever host_check_interval says\n"};
const struct args_spec args_audit = {
	"audit", "+:c:h", opts_audit,
	"usage: ruas audit [-c FILE] [--json]\n"
	"\n"
	"As each person's user, try to read what they must not; exit 0 when the OS\n"
	"enforces everything, 1 otherwise.\n"
	"\n"
	"  -c, --config FILE  configuration (default " RUAS_DEFAULT_CONFIG ")\n"
	"      --json         the result as one JSON document on stdout\n"};
const struct args_spec args_run = {
	"run", "+:c:hq", opts_run,
	"usage: ruas run [-c FILE] [-q] PROJECT [-- ARG...]\n"
	"\n"
	"Check everything, then start PROJECT's command with ARG... appended, as\n"
	"its run_as_user; exit as the command did (125 when it could not start).\n"
	"\n"
	"  -c, --config FILE  configuration (default " RUAS_DEFAULT_CONFIG ")\n"
	"  -q, --quiet        on success, only the command's own output\n"};
/* deny takes its options after PERSON too (ruas deny alice --format json). */
const struct args_spec args_deny = {
	"deny", ":c:h", opts_deny,
	"usage: ruas deny [-c FILE] PERSON [--format lines|json|claude-settings]\n"
	"\n"
	"Print what PERSON's agents must not see, computed now.\n"
	"\n"
	"  -c, --config FILE  configuration (default " RUAS_DEFAULT_CONFIG ")\n"
	"      --format F     lines (default), json, or claude-settings\n"};

/* One line for a bad option, naming it and where the options are listed. */
static int bad_option(const struct args_spec *spec, char **argv, int missing)
{
	char opt[64];
	if (optopt)
		snprintf(opt, sizeof opt, "-%c", optopt);
	else
		snprintf(opt, sizeof opt, "%.60s", argv[optind - 1]);
	fprintf(stderr, "ruas %s: %s '%s' (ruas %s --help lists the options)\n", spec->verb,
		missing ? "a value is missing after" : "unknown option", opt, spec->verb);
	return EXIT_USAGE;
}

int args_parse(int argc, char **argv, const struct args_spec *spec, struct args *a)
{
	int c;
	a->config = RUAS_DEFAULT_CONFIG;
	a->format = "lines";
	a->json = 0;
	a->quiet = 0;
	a->fresh = 0;
	a->operand = argc;
	opterr = 0; /* bad_option() says it, in one line */
	optind = 0;
	while ((c = getopt_long(argc, argv, spec->shortopts, spec->longopts, NULL)) != -1) {
		if (c == 'c')
			a->config = optarg;
		else if (c == 'j')
			a->json = 1;
		else if (c == 'f')
			a->format = optarg;
		else if (c == 'q')
			a->quiet = 1;
		else if (c == 'F')
			a->fresh = 1;
		else if (c == 'h') {
			fputs(spec->usage, stdout);
			return output_ok(stdout) ? 0 : EXIT_FATAL;
		} else {
			return bad_option(spec, argv, c == ':');
		}
	}
	a->operand = optind;
	return ARGS_GO_ON;
}

int args_load_no_operand(int argc, char **argv, const struct args_spec *spec,
			 ruas_config **cfg, struct args *a)
{
	int rc = args_parse(argc, argv, spec, a);
	if (rc != ARGS_GO_ON)
		return rc;
	if (a->operand != argc) {
		char what[64];
		snprintf(what, sizeof what, "%s takes no operand:", spec->verb);
		return usage_error(what, argv[a->operand]);
	}
	return load(a->config, cfg) < 0 ? EXIT_USAGE : ARGS_GO_ON;
}
