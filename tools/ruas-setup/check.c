/* SPDX-License-Identifier: ISC */
/* check.c - ruas-setup sudoers and check: no side effects. */
#include <stdio.h>
#include <stdlib.h>

#include "report_print.h"
#include "ruas.h"
#include "escape.h"
#include "args.h"

int setup_sudoers(const struct setup_args *a)
{
	char *fragment = NULL;
	ruas_error *err = NULL;
	if (ruas_sudoers_fragment(&fragment, a->supervisor, a->targets, &err) < 0) {
		int r = setup_fail(SETUP_USAGE, "%s; nothing printed", ruas_error_message(err));
		ruas_error_free(err);
		return r;
	}
	int ok = fputs(fragment, stdout) >= 0 && output_ok(stdout);
	ruas_free(fragment);
	return ok ? SETUP_OK : setup_fail(SETUP_FAILED, "cannot write to stdout");
}

/* Runs the library's target checks; prints like ruas check. 0 or SETUP_FAILED. */
int setup_run_target_checks(const struct setup_args *a, int json, int quiet_ok);

int setup_run_target_checks(const struct setup_args *a, int json, int quiet_ok)
{
	ruas_target_options o = RUAS_TARGET_OPTIONS_INIT;
	ruas_report *r = NULL;
	ruas_error *err = NULL;
	o.supervisor = a->supervisor;
	o.sudo = a->sudo;
	o.helper = a->helper;
	o.sudo_allowed = a->sudo_allowed;
	if (ruas_check_targets(&r, a->targets, &o, &err) < 0) {
		int rc = setup_fail(ruas_error_code(err) == RUAS_ERR_INVALID ? SETUP_USAGE
									     : SETUP_FAILED,
				    "%s", ruas_error_message(err));
		ruas_error_free(err);
		return rc;
	}
	int fatal = ruas_report_has_fatal(r);
	if (json) {
		if (report_print_targets_json(stdout, r) < 0 || !output_ok(stdout))
			fatal = 1;
	} else {
		report_print_text(stderr, r);
		if (!quiet_ok || fatal) {
			size_t n = ruas_report_project_count(r);
			fprintf(stderr, "ruas-setup: %zu target(s) checked%s%s: %s\n", n,
				a->supervisor ? " with supervisor " : "",
				a->supervisor ? a->supervisor : "",
				fatal ? "FAILED" : "ok");
		}
	}
	ruas_report_free(r);
	return fatal ? SETUP_FAILED : SETUP_OK;
}

int setup_check(const struct setup_args *a)
{
	for (const char *const *t = a->targets; *t; t++) {
		const char *why = ruas_user_name_problem(*t);
		if (why) {
			char shown[256];
			return setup_fail(SETUP_USAGE, "target \"%s\" %s",
					  escape_name(*t, shown, sizeof shown), why);
		}
	}
	return setup_run_target_checks(a, a->json, 0);
}
