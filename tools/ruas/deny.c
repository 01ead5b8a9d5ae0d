/* SPDX-License-Identifier: ISC */
/* deny.c - ruas deny: what a person's agents must not see, computed now. */
#include <stdio.h>
#include <string.h>

#include "report_print.h"
#include "ruas.h"
#include "args.h"

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

int cmd_deny(int argc, char **argv)
{
	struct args a;
	int rc = args_parse(argc, argv, &args_deny, &a);
	if (rc != ARGS_GO_ON)
		return rc;
	if (a.operand != argc - 1)
		return usage_error("deny needs exactly one PERSON", NULL);
	if (strcmp(a.format, "lines") != 0 && strcmp(a.format, "json") != 0 &&
	    strcmp(a.format, "claude-settings") != 0)
		return usage_error("--format must be lines, json or claude-settings, not",
				   a.format);
	ruas_config *cfg;
	if (load(a.config, &cfg) < 0)
		return EXIT_USAGE;
	rc = print_deny(cfg, argv[a.operand], a.format);
	ruas_config_free(cfg);
	return rc;
}
