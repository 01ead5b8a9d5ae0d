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

const struct args_spec args_check = {"check", "+c:hq", opts_check};
const struct args_spec args_audit = {"audit", "+c:h", opts_audit};
const struct args_spec args_run = {"run", "+c:hq", opts_run};
/* deny takes its options after PERSON too (ruas deny alice --format json). */
const struct args_spec args_deny = {"deny", "c:h", opts_deny};

int args_parse(int argc, char **argv, const struct args_spec *spec, struct args *a)
{
	int c;
	a->config = RUAS_DEFAULT_CONFIG;
	a->format = "lines";
	a->json = 0;
	a->quiet = 0;
	a->fresh = 0;
	a->operand = argc;
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
			usage(stdout);
			return output_ok(stdout) ? 0 : EXIT_FATAL;
		} else {
			char what[64];
			snprintf(what, sizeof what, "bad option for %s", spec->verb);
			return usage_error(what, NULL);
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
