/* SPDX-License-Identifier: ISC */
/*
 * auditspawn.c - an embedder's spawn and its audit records, built by
 * tests/integration/audit.sh as an outside program would be.
 *
 *   auditspawn CONFIG PROJECT syslog|callback|none|fd [ARG...]
 *
 * Runs ruas_preflight() and then the project once, stdio inherited, with
 * the audit sink the mode names (syslog: the default, no sink given). It
 * prints "run=ID" and "exit=N", and in callback mode each record as
 * "cb EVENT RUN LINE" and "cbjson JSON", in fd mode each record's JSON on
 * stdout (the descriptor sink on 1). Exits 0, or 2 when the library
 * refused (its message on stderr). With AUDITSPAWN_FREE_AFTER=S in the
 * environment it frees the child S seconds after the spawn instead of
 * waiting for it, and exits at once.
 */
#include <ruas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_record(const ruas_audit_record *r, void *payload)
{
	(void)payload;
	printf("cb %s %s %s\ncbjson %s\n", r->event, r->run ? r->run : "-", r->line, r->json);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fputs("usage: auditspawn CONFIG PROJECT syslog|callback|none|fd [ARG...]\n", stderr);
		return 2;
	}
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	if (ruas_config_load(&cfg, argv[1], NULL, &err) != 0) {
		fprintf(stderr, "auditspawn: %s\n", ruas_error_message(err));
		return 2;
	}
	ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
	const char *mode = argv[3];
	if (strcmp(mode, "callback") == 0) {
		sink.to = RUAS_AUDIT_TO_CALLBACK;
		sink.callback = print_record;
	} else if (strcmp(mode, "none") == 0) {
		sink.to = RUAS_AUDIT_TO_NONE;
	} else if (strcmp(mode, "fd") == 0) {
		sink.to = RUAS_AUDIT_TO_FD;
		sink.fd = 1;
	}
	const ruas_audit_sink *chosen = strcmp(mode, "syslog") == 0 ? NULL : &sink;
	ruas_preflight_options po = RUAS_PREFLIGHT_OPTIONS_INIT;
	po.audit = chosen;
	ruas_report *rep = NULL;
	if (ruas_preflight(&rep, cfg, &po, &err) != 0) {
		fprintf(stderr, "auditspawn: %s\n", ruas_error_message(err));
		return 2;
	}
	ruas_report_free(rep);
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.pty = RUAS_PTY_NONE;
	o.audit = chosen;
	ruas_child *c = NULL;
	if (ruas_spawn(&c, cfg, argv[2], (const char *const *)argv + 4, &o, &err) != 0) {
		fprintf(stderr, "auditspawn: %s\n", ruas_error_message(err));
		return 2;
	}
	printf("run=%s\n", ruas_child_run_id(c));
	fflush(stdout);
	const char *free_after = getenv("AUDITSPAWN_FREE_AFTER");
	if (free_after) {
		sleep((unsigned int)atoi(free_after));
		ruas_child_free(c);
		ruas_config_free(cfg);
		return 0;
	}
	int code = -1;
	if (ruas_child_wait(c, &code, &err) != 0) {
		fprintf(stderr, "auditspawn: %s\n", ruas_error_message(err));
		return 2;
	}
	printf("exit=%d\n", code);
	ruas_child_free(c);
	ruas_config_free(cfg);
	return 0;
}
