/* SPDX-License-Identifier: ISC */
/* check.c - ruas check: every startup check of every project, and its report. */
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

#include "report_print.h"
#include "ruas.h"
#include "args.h"

/* unjudged: also what only root can judge (ruas check; a run's supervisor has no use for it). */
static void summary(const ruas_config *cfg, const ruas_report *r, int unjudged)
{
	size_t errors = 0, warnings = 0;
	for (size_t p = 0; p < ruas_report_project_count(r); p++)
		for (size_t i = 0; i < ruas_report_item_count(r, p); i++)
			if (ruas_report_item_severity(r, p, i) == RUAS_SEVERITY_FATAL)
				errors++;
			else
				warnings++;
	for (size_t i = 0; i < ruas_report_host_count(r); i++)
		if (ruas_report_host_severity(r, i) == RUAS_SEVERITY_FATAL)
			errors++;
		else
			warnings++;
	fprintf(stderr, "ruas: %zu project(s) in %s: %zu error(s), %zu warning(s)\n",
		ruas_config_project_count(cfg), ruas_config_path(cfg), errors, warnings);
	if (!unjudged)
		return;
	struct passwd pw, *res = NULL;
	char mem[4096], uid[32];
	snprintf(uid, sizeof uid, "%u", (unsigned int)geteuid());
	if (getpwuid_r(geteuid(), &pw, mem, sizeof mem, &res) != 0)
		res = NULL;
	report_print_unjudged(stderr, r, res && res->pw_name ? res->pw_name : uid,
			      ruas_config_path(cfg));
}

/*
 * 0 when nothing fatal; EXIT_FATAL on a fatal finding or a library failure.
 * A failure is always shown, quiet or not: quiet is for a caller that reads
 * ruas's stderr as the agent's (ruas run -q) or wants the exit status alone.
 */
int preflight(const ruas_config *cfg, int json, int quiet, int fresh_host, int reuse)
{
	ruas_report *r = NULL;
	ruas_error *err = NULL;
	ruas_preflight_options o = RUAS_PREFLIGHT_OPTIONS_INIT;
	o.fresh_host = fresh_host;
	o.reuse_verdict = reuse;
	if (ruas_preflight(&r, cfg, &o, &err) < 0) {
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
	} else if (reuse) {
		/* ruas run: what to do ends with a run again. */
		report_print_for_run(stderr, r, quiet);
		if (!quiet)
			summary(cfg, r, 0);
	} else if (quiet) {
		report_print_fatal(stderr, r);
	} else {
		report_print_text(stderr, r);
		summary(cfg, r, 1);
	}
	ruas_report_free(r);
	return fatal ? EXIT_FATAL : 0;
}

int cmd_check(int argc, char **argv)
{
	ruas_config *cfg;
	struct args a;
	int rc = args_load_no_operand(argc, argv, &args_check, &cfg, &a);
	if (rc != ARGS_GO_ON)
		return rc;
	rc = preflight(cfg, a.json, a.quiet, a.fresh, 0);
	unload(cfg, a.quiet);
	return rc;
}
