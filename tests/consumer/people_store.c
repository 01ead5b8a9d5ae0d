/* SPDX-License-Identifier: ISC */
/*
 * people_store.c - a supervisor whose people and projects live in a store of
 * its own and are built in code (ruas_config_set_people), never written as
 * ruas.conf; built by tests/integration/people.sh as an outside program
 * would be.
 *
 *   people_store STORE check | deny ID | run PROJECT
 *
 * STORE has one record a line, fields separated by tabs:
 *   helper PATH
 *   people WORKTREES CREDENTIALS CLAUDE_PROJECTS ENFORCE
 *   member ID RUN_AS_USER
 *   project NAME PERSON WORK_DIR COMMAND...
 * check prints the preflight's findings ("ERROR: " or "WARNING: " and the
 * text) on stderr and exits 1 on a fatal one; deny prints ID's deny list;
 * run exits with the agent's status. A refusal prints
 * "people_store: error CODE: MESSAGE" on stderr and exits 2.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <ruas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 32
#define MAX_RECORDS 64

struct record {
	char *line;
	const char *f[MAX_FIELDS + 1]; /* NULL-terminated */
	int n;
};

static struct record records[MAX_RECORDS];
static int nrecords;

/* Reads STORE into records; -1 when it cannot. */
static int read_store(const char *path)
{
	FILE *in = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	if (!in)
		return -1;
	while (nrecords < MAX_RECORDS && (len = getline(&line, &cap, in)) > 0) {
		struct record *r = &records[nrecords++];
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		r->line = line;
		for (char *p = line; p && r->n < MAX_FIELDS; r->n++) {
			r->f[r->n] = p;
			if ((p = strchr(p, '\t')))
				*p++ = '\0';
		}
		line = NULL;
		cap = 0;
	}
	free(line);
	return fclose(in) == 0 ? 0 : -1;
}

static const struct record *find(const char *kind)
{
	for (int i = 0; i < nrecords; i++)
		if (strcmp(records[i].f[0], kind) == 0)
			return &records[i];
	return NULL;
}

/* The configuration: globals, then the people block, then the projects. */
static int build(ruas_config **cfg, ruas_error **err)
{
	ruas_config_globals g = RUAS_CONFIG_GLOBALS_INIT;
	ruas_people_spec people = RUAS_PEOPLE_SPEC_INIT;
	ruas_person_spec members[MAX_RECORDS];
	const struct record *h = find("helper"), *pb = find("people");
	int r;

	g.name = "the people store";
	g.helper = h && h->n > 1 ? h->f[1] : NULL;
	if ((r = ruas_config_new(cfg, &g, NULL, err)) < 0)
		return r;
	if (pb && pb->n == 5) {
		people.worktrees = pb->f[1];
		people.credentials = pb->f[2];
		people.claude_projects = pb->f[3];
		people.enforce = pb->f[4];
		people.members = members;
		for (int i = 0; i < nrecords; i++) {
			const struct record *m = &records[i];
			if (strcmp(m->f[0], "member") != 0 || m->n != 3)
				continue;
			ruas_person_spec one = RUAS_PERSON_SPEC_INIT;
			one.id = m->f[1];
			one.run_as_user = m->f[2];
			members[people.member_count++] = one;
		}
		if ((r = ruas_config_set_people(*cfg, &people, err)) < 0)
			return r;
	}
	for (int i = 0; i < nrecords; i++) {
		const struct record *p = &records[i];
		if (strcmp(p->f[0], "project") != 0 || p->n < 5)
			continue;
		ruas_project_spec spec = RUAS_PROJECT_SPEC_INIT;
		spec.name = p->f[1];
		spec.person = p->f[2];
		spec.work_dir = p->f[3];
		spec.command = p->f + 4;
		if ((r = ruas_config_add_project(*cfg, &spec, err)) < 0)
			return r;
	}
	return 0;
}

static int check(const ruas_config *cfg, ruas_error **err)
{
	ruas_report *rep = NULL;
	int r = ruas_preflight(&rep, cfg, NULL, err);
	if (r < 0)
		return r;
	for (size_t p = 0; p < ruas_report_project_count(rep); p++)
		for (size_t i = 0; i < ruas_report_item_count(rep, p); i++)
			fprintf(stderr, "%s: %s\n",
				ruas_report_item_severity(rep, p, i) == RUAS_SEVERITY_FATAL
					? "ERROR"
					: "WARNING",
				ruas_report_item_text(rep, p, i));
	r = ruas_report_has_fatal(rep) ? 1 : 0;
	ruas_report_free(rep);
	return r;
}

static int deny(const ruas_config *cfg, const char *id, ruas_error **err)
{
	char **paths = NULL;
	int r = ruas_deny_list(&paths, NULL, cfg, id, err);
	if (r < 0)
		return r;
	for (char **p = paths; *p; p++)
		printf("%s\n", *p);
	ruas_strv_free(paths);
	return 0;
}

static int run(const ruas_config *cfg, const char *project, ruas_error **err)
{
	ruas_child *child = NULL;
	int code = 2;
	int r = ruas_spawn(&child, cfg, project, NULL, NULL, err);
	if (r == 0)
		r = ruas_child_wait(child, &code, err);
	ruas_child_free(child);
	return r < 0 ? r : code;
}

int main(int argc, char **argv)
{
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	int r;

	if (argc < 3 || (strcmp(argv[2], "check") != 0 && argc != 4)) {
		fputs("usage: people_store STORE check | deny ID | run PROJECT\n", stderr);
		return 2;
	}
	if (read_store(argv[1]) < 0) {
		perror(argv[1]);
		return 2;
	}
	r = build(&cfg, &err);
	if (r == 0 && strcmp(argv[2], "check") == 0)
		r = check(cfg, &err);
	else if (r == 0 && strcmp(argv[2], "deny") == 0)
		r = deny(cfg, argv[3], &err);
	else if (r == 0)
		r = run(cfg, argv[3], &err);
	if (r < 0) {
		fprintf(stderr, "people_store: error %d: %s\n", (int)ruas_error_code(err),
			ruas_error_message(err));
		r = 2;
	}
	if (fflush(stdout) != 0)
		r = 2;
	ruas_error_free(err);
	ruas_config_free(cfg);
	for (int i = 0; i < nrecords; i++)
		free(records[i].line);
	return r;
}
