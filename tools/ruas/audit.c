/* SPDX-License-Identifier: ISC */
/* audit.c - ruas audit: as each person's user, try to read what they must not. */
#include <stdio.h>

#include "report_print.h"
#include "ruas.h"
#include "args.h"

int cmd_audit(int argc, char **argv)
{
	ruas_config *cfg;
	ruas_report *r = NULL;
	ruas_error *err = NULL;
	struct args a;
	int rc = args_load_no_operand(argc, argv, &args_audit, &cfg, &a);
	if (rc != ARGS_GO_ON)
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
	if (a.json) {
		if (report_print_people_json(stdout, r) < 0 || !output_ok(stdout))
			findings++;
	} else {
		report_print_text(stderr, r);
		fprintf(stderr, "ruas: audit of %zu person(s): %s\n", ruas_report_project_count(r),
			findings ? "the OS does not enforce everything (see above)"
				 : "the OS enforces every deny path");
	}
	ruas_report_free(r);
	unload(cfg, 0);
	return findings ? EXIT_FATAL : 0;
}
