/* SPDX-License-Identifier: ISC */
/* The example of docs/library.md, compiled by tests/pkgconfig.sh as an outside program would be. */
#include <ruas.h>
#include <stdio.h>

int main(void)
{
	ruas_config *cfg;
	ruas_report *report;
	ruas_child *child;
	ruas_error *err = NULL;
	int code;

	if (ruas_config_load(&cfg, "/etc/ruas/ruas.conf", NULL, &err) < 0)
		goto fail;
	if (ruas_preflight(&report, cfg, NULL, &err) < 0)
		goto fail;
	for (size_t p = 0; p < ruas_report_project_count(report); p++)
		for (size_t i = 0; i < ruas_report_item_count(report, p); i++)
			fputs(ruas_report_item_text(report, p, i), stderr);
	if (ruas_report_has_fatal(report))
		return 1; /* the boundary is not real: start nothing */
	ruas_report_free(report);

	const char *args[] = {"--print", "summarise the README", NULL};
	if (ruas_spawn(&child, cfg, "claude", args, NULL, &err) < 0 ||
	    ruas_child_wait(child, &code, &err) < 0)
		goto fail;
	ruas_child_free(child);
	ruas_config_free(cfg);
	return code;
fail:
	fprintf(stderr, "%s\n", ruas_error_message(err));
	ruas_error_free(err);
	return 2;
}
