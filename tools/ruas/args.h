/* SPDX-License-Identifier: ISC */
/* args.h - the verbs of ruas and the one option parser they share. */
#ifndef RUAS_TOOLS_RUAS_ARGS_H
#define RUAS_TOOLS_RUAS_ARGS_H

#include <getopt.h>
#include <stdio.h>

#include "ruas.h"

#ifndef RUAS_DEFAULT_CONFIG
#define RUAS_DEFAULT_CONFIG "/etc/ruas/ruas.conf"
#endif

#define EXIT_FATAL 1
#define EXIT_USAGE 2
#define EXIT_SPAWN 125
#define EXIT_WALL_TIME 124 /* as timeout(1): the project's wall_time_max ended the run */
#define EXIT_MEMORY 137   /* 128 + SIGKILL, as a shell says: memory_max ended the run */

/* args_parse()'s "no exit code yet": the verb goes on. */
#define ARGS_GO_ON (-1)

/*
 * What a verb accepts: getopt's short options ("+" first where options end
 * at the first operand) and long options, each of which args_parse() knows:
 * 'c' --config, 'j' --json, 'f' --format, 'q' --quiet, 'F' --fresh (long only),
 * 'h' --help. Each verb lists only
 * its own, so that getopt's abbreviations (--js, --conf) stay what they were.
 */
struct args_spec {
	const char *verb; /* for the messages */
	const char *shortopts; /* ":" first (after a "+"): a missing value is told apart */
	const struct option *longopts;
	const char *usage; /* ruas VERB --help */
};

extern const struct args_spec args_check, args_audit, args_run, args_deny;

struct args {
	const char *config; /* -c FILE; RUAS_DEFAULT_CONFIG */
	const char *format; /* deny --format; "lines" */
	int json;           /* --json */
	int quiet;          /* -q: no warnings or summary; fatal findings still shown */
	int fresh;          /* check --fresh: walk the host's trees now */
	int operand;        /* argv index of the first operand */
};

/*
 * Parses the options of a verb's argv (argv[0] is the verb) into *a.
 * ARGS_GO_ON, or the exit code after --help's usage or a usage error.
 */
int args_parse(int argc, char **argv, const struct args_spec *spec, struct args *a);
/*
 * The options into *a and no operand, then the configuration: ARGS_GO_ON
 * with *cfg loaded, or the exit code.
 */
int args_load_no_operand(int argc, char **argv, const struct args_spec *spec,
			 ruas_config **cfg, struct args *a);

/* main.c: the usage text, a usage error (EXIT_USAGE), loading path. */
void usage(FILE *f);
int usage_error(const char *what, const char *arg);
int load(const char *path, ruas_config **cfg);
/*
 * ruas_config_free(), saying first how many audit records no sink took, if
 * any, unless quiet (ruas run -q, or on a terminal: the agent's screen).
 */
void unload(ruas_config *cfg, int quiet);

/*
 * check.c: every check of every project, shown; 0 or EXIT_FATAL. quiet
 * shows only the fatal findings (nothing when there is none): no warnings,
 * no summary line. json prints the JSON document whatever quiet says.
 */
int preflight(const ruas_config *cfg, int json, int quiet, int fresh_host, int reuse);

int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_deny(int argc, char **argv);
int cmd_audit(int argc, char **argv);

#endif
