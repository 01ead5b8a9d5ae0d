/* SPDX-License-Identifier: ISC */
/* report_print.c - text and JSON views of a ruas_report. */
#include "report_print.h"

#include <json-c/json.h>
#include <string.h>

#include "buf.h"
#include "quote.h"

static int shown_before(const ruas_report *r, size_t p, size_t i)
{
	const char *text = ruas_report_item_text(r, p, i);
	for (size_t q = 0; q <= p; q++) {
		size_t n = q == p ? i : ruas_report_item_count(r, q);
		for (size_t j = 0; j < n; j++)
			if (strcmp(ruas_report_item_text(r, q, j), text) == 0)
				return 1;
	}
	return 0;
}

#define THEN_RESTART "Then restart ruas."
#define THEN_RUN "Then run ruas run again."

/*
 * One finding's text. For a run (ruas run), what the fix ends with is a
 * run again, not a restart of a supervisor that ruas run is not.
 */
static void print_one(FILE *f, const char *text, int for_run)
{
	const char *at;
	while (for_run && (at = strstr(text, THEN_RESTART))) {
		fprintf(f, "%.*s%s", (int)(at - text), text, THEN_RUN);
		text = at + strlen(THEN_RESTART);
	}
	fprintf(f, "%s\n", text);
}

static void print_text(FILE *f, const ruas_report *r, int fatal_only, int for_run)
{
	for (size_t p = 0; p < ruas_report_project_count(r); p++)
		for (size_t i = 0; i < ruas_report_item_count(r, p); i++)
			if ((!fatal_only ||
			     ruas_report_item_severity(r, p, i) == RUAS_SEVERITY_FATAL) &&
			    !shown_before(r, p, i))
				print_one(f, ruas_report_item_text(r, p, i), for_run);
	for (size_t i = 0; i < ruas_report_host_count(r); i++)
		if (!fatal_only || ruas_report_host_severity(r, i) == RUAS_SEVERITY_FATAL)
			print_one(f, ruas_report_host_text(r, i), for_run);
}

void report_print_unjudged(FILE *f, const ruas_report *r, const char *who, const char *config)
{
	size_t n = ruas_report_unjudged_count(r);
	if (!n)
		return;
	struct buf b = BUF_INIT;
	buf_adds(&b, "ruas: not judged, as only root can read them (this check ran as ");
	quote_display_dq(&b, who);
	buf_adds(&b, "): ");
	for (size_t i = 0; i < n; i++) {
		buf_printf(&b, "%s%s (", i ? "; " : "", ruas_report_unjudged_what(r, i));
		quote_display(&b, ruas_report_unjudged_path(r, i), 0);
		buf_adds(&b, ")");
	}
	buf_adds(&b, ".\nruas: root judges them: ruas-setup check --config ");
	quote_shell(&b, config);
	buf_adds(&b, " --supervisor ");
	quote_shell(&b, who);
	buf_addc(&b, '\n');
	if (!b.oom)
		fputs(b.data, f);
	buf_free(&b);
}

void report_print_text(FILE *f, const ruas_report *r)
{
	print_text(f, r, 0, 0);
}

void report_print_fatal(FILE *f, const ruas_report *r)
{
	print_text(f, r, 1, 0);
}

void report_print_for_run(FILE *f, const ruas_report *r, int fatal_only)
{
	print_text(f, r, fatal_only, 1);
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* The first line of text without its "ERROR: " or "WARNING: " (NULL: none). */
static json_object *summary_of(const char *text)
{
	static const char *const prefixes[] = {"ERROR: ", "WARNING: "};
	if (!text)
		return NULL;
	for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
		if (strncmp(text, prefixes[k], strlen(prefixes[k])) == 0) {
			text += strlen(prefixes[k]);
			break;
		}
	return json_object_new_string_len(text, (int)strcspn(text, "\n"));
}

/* One finding as a JSON item: what ruas(1) lists under "check --json". */
struct json_finding {
	ruas_severity severity;
	const char *project, *check, *text, *user, *path, *fix;
};

static json_object *item_json(const struct json_finding *f)
{
	json_object *it = json_object_new_object();
	if (!it)
		return NULL;
	json_object_object_add(it, "check", str_or_null(f->check));
	json_object_object_add(it, "message", str_or_null(f->text));
	json_object_object_add(it, "severity",
			       json_object_new_string(f->severity == RUAS_SEVERITY_FATAL ? "error"
											 : "warning"));
	json_object_object_add(it, "summary", summary_of(f->text));
	json_object_object_add(it, "project", str_or_null(f->project));
	json_object_object_add(it, "user", str_or_null(f->user));
	json_object_object_add(it, "path", str_or_null(f->path));
	json_object_object_add(it, "fix", str_or_null(f->fix));
	return it;
}

/*
 * entry's "errors" and "warnings": project p's items, by severity; project:
 * what their "project" says (NULL: the entries are not projects).
 */
static void add_findings(json_object *entry, const ruas_report *r, size_t p,
			 const char *project)
{
	json_object *errors = json_object_new_array();
	json_object *warnings = json_object_new_array();
	json_object_object_add(entry, "errors", errors);
	json_object_object_add(entry, "warnings", warnings);
	for (size_t i = 0; i < ruas_report_item_count(r, p); i++) {
		struct json_finding f = {ruas_report_item_severity(r, p, i), project,
					 ruas_report_item_check(r, p, i),
					 ruas_report_item_text(r, p, i),
					 ruas_report_item_user(r, p, i),
					 ruas_report_item_path(r, p, i),
					 ruas_report_item_fix(r, p, i)};
		json_object_array_add(f.severity == RUAS_SEVERITY_FATAL ? errors : warnings,
				      item_json(&f));
	}
}

/* root's "host": the host's own findings and what could not be judged. */
static void add_host(json_object *root, const ruas_report *r)
{
	json_object *host = json_object_new_object();
	json_object *errors = json_object_new_array();
	json_object *warnings = json_object_new_array();
	json_object *unjudged = json_object_new_array();
	json_object_object_add(root, "host", host);
	json_object_object_add(host, "errors", errors);
	json_object_object_add(host, "warnings", warnings);
	json_object_object_add(host, "unjudged", unjudged);
	for (size_t i = 0; i < ruas_report_host_count(r); i++) {
		struct json_finding f = {ruas_report_host_severity(r, i), NULL,
					 ruas_report_host_check(r, i), ruas_report_host_text(r, i),
					 NULL, ruas_report_host_path(r, i), ruas_report_host_fix(r, i)};
		json_object_array_add(f.severity == RUAS_SEVERITY_FATAL ? errors : warnings,
				      item_json(&f));
	}
	for (size_t i = 0; i < ruas_report_unjudged_count(r); i++) {
		json_object *it = json_object_new_object();
		json_object_object_add(it, "what", str_or_null(ruas_report_unjudged_what(r, i)));
		json_object_object_add(it, "path", str_or_null(ruas_report_unjudged_path(r, i)));
		json_object_array_add(unjudged, it);
	}
}

static int emit(FILE *f, json_object *root)
{
	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = s && fprintf(f, "%s\n", s) >= 0 ? 0 : -1;
	json_object_put(root);
	return rc;
}

int report_print_targets_json(FILE *f, const ruas_report *r)
{
	json_object *root = json_object_new_object();
	json_object *targets = json_object_new_array();
	if (!root || !targets) {
		json_object_put(root);
		json_object_put(targets);
		return -1;
	}
	json_object_object_add(root, "ok", json_object_new_boolean(!ruas_report_has_fatal(r)));
	json_object_object_add(root, "targets", targets);
	for (size_t p = 0; p < ruas_report_project_count(r); p++) {
		json_object *jt = json_object_new_object();
		json_object_array_add(targets, jt);
		json_object_object_add(jt, "user", str_or_null(ruas_report_project_name(r, p)));
		add_findings(jt, r, p, NULL);
	}
	return emit(f, root);
}

int report_print_json(FILE *f, const ruas_config *cfg, const ruas_report *r)
{
	json_object *root = json_object_new_object();
	json_object *projects = json_object_new_array();
	if (!root || !projects) {
		json_object_put(root);
		json_object_put(projects);
		return -1;
	}
	json_object_object_add(root, "config", str_or_null(ruas_config_path(cfg)));
	json_object_object_add(root, "ok", json_object_new_boolean(!ruas_report_has_fatal(r)));
	json_object_object_add(root, "projects", projects);
	for (size_t p = 0; p < ruas_report_project_count(r); p++) {
		const ruas_project *proj = ruas_config_project_at(cfg, p);
		json_object *jp = json_object_new_object();
		json_object_array_add(projects, jp);
		json_object_object_add(jp, "name", str_or_null(ruas_report_project_name(r, p)));
		json_object_object_add(jp, "run_as_user", str_or_null(ruas_project_run_as_user(proj)));
		json_object_object_add(jp, "work_dir", str_or_null(ruas_project_work_dir(proj)));
		json_object_object_add(jp, "backend", str_or_null(ruas_project_backend(proj)));
		add_findings(jp, r, p, ruas_report_project_name(r, p));
	}
	add_host(root, r);
	return emit(f, root);
}

int deny_print_json(FILE *f, const char *person, char **paths, char **warnings)
{
	json_object *root = json_object_new_object();
	json_object *deny = json_object_new_array();
	json_object *warn = json_object_new_array();
	if (!root || !deny || !warn) {
		json_object_put(root);
		json_object_put(deny);
		json_object_put(warn);
		return -1;
	}
	json_object_object_add(root, "person", json_object_new_string(person));
	for (char **p = paths; p && *p; p++)
		json_object_array_add(deny, json_object_new_string(*p));
	for (char **w = warnings; w && *w; w++)
		json_object_array_add(warn, json_object_new_string(*w));
	json_object_object_add(root, "deny", deny);
	json_object_object_add(root, "warnings", warn);
	return emit(f, root);
}

int report_print_people_json(FILE *f, const ruas_report *r)
{
	json_object *root = json_object_new_object();
	json_object *people = json_object_new_array();
	size_t findings = 0;
	if (!root || !people) {
		json_object_put(root);
		json_object_put(people);
		return -1;
	}
	for (size_t p = 0; p < ruas_report_project_count(r); p++) {
		json_object *jp = json_object_new_object();
		json_object_array_add(people, jp);
		json_object_object_add(jp, "id", str_or_null(ruas_report_project_name(r, p)));
		add_findings(jp, r, p, NULL);
		findings += ruas_report_item_count(r, p);
	}
	json_object_object_add(root, "ok", json_object_new_boolean(findings == 0));
	json_object_object_add(root, "people", people);
	return emit(f, root);
}

int output_ok(FILE *f)
{
	return fflush(f) == 0 && !ferror(f);
}
