/* SPDX-License-Identifier: ISC */
/* polkit.c - see polkit.h. */
#include "check/polkit.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define FILE_MAX ((size_t)1024 * 1024)

static const char *const rules_dirs[] = {
	"/etc/polkit-1/rules.d", "/run/polkit-1/rules.d", "/usr/local/share/polkit-1/rules.d",
	"/usr/share/polkit-1/rules.d", NULL};
static const char *const pkla_dirs[] = {
	"/etc/polkit-1/localauthority", "/var/lib/polkit-1/localauthority", NULL};

struct judge {
	const char *fs_root;
	const struct pam_user *u;
	struct pam_ways *out;
	int oom;
};

static void add_way(struct judge *j, const char *file, int line, const char *text,
		    const char *why)
{
	if (pam_ways_add(j->out, "polkit", file, line, text, why) < 0)
		j->oom = 1;
}

/* ------------------------------------------------------------- .rules */

/*
 * JavaScript's comments blanked (newlines kept, so lines still count),
 * strings left as they are.
 */
static void blank_comments(char *s)
{
	char q = 0;
	for (char *p = s; *p; p++) {
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'' || *p == '`') {
			q = *p;
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				*p++ = ' ';
			if (!*p)
				return;
		} else if (p[0] == '/' && p[1] == '*') {
			while (*p && !(p[0] == '*' && p[1] == '/')) {
				if (*p != '\n')
					*p = ' ';
				p++;
			}
			if (!*p)
				return;
			p[0] = p[1] = ' ';
			p++;
		}
	}
}

/* Where the parenthesis opened at open closes (strings skipped), or NULL. */
static const char *close_paren(const char *open)
{
	int depth = 0;
	char q = 0;
	for (const char *p = open; *p; p++) {
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'' || *p == '`') {
			q = *p;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')' && --depth == 0) {
			return p;
		}
	}
	return NULL;
}

static int line_of(const char *text, const char *at)
{
	int n = 1;
	for (const char *p = text; p < at; p++)
		n += *p == '\n';
	return n;
}

/* The line that holds at, trimmed, from the file as written. */
static char *line_text(const char *orig, int line)
{
	const char *p = orig;
	for (int i = 1; i < line && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return strdup("");
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strcspn(p, "\r\n");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return strndup(p, n);
}

/* A quoted string at p (after blanks): its content into out, the end in *end. 0 when none. */
static int quoted(const char *p, char *out, size_t outsz, const char **end)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	char q = *p;
	if (q != '"' && q != '\'')
		return 0;
	const char *e = strchr(p + 1, q);
	if (!e || (size_t)(e - p - 1) >= outsz || memchr(p + 1, '\\', (size_t)(e - p - 1)))
		return 0;
	memcpy(out, p + 1, (size_t)(e - p - 1));
	out[e - p - 1] = '\0';
	*end = e + 1;
	return 1;
}

enum subject { SUBJ_NONE, SUBJ_OTHERS, SUBJ_USER, SUBJ_UNKNOWN };

/*
 * What the block's subject tests say about the user: it is named (or a
 * group of it), only others are, none is named, or a test is not readable.
 */
static enum subject subject_of(const struct pam_user *u, const char *b, const char *end)
{
	enum subject s = SUBJ_NONE;
	char name[256];
	for (const char *p = b; p < end; p++) {
		const char *e;
		if (strncmp(p, "subject.user", 12) == 0 && !isalnum((unsigned char)p[12]) &&
		    p[12] != '_') {
			const char *op = p + 12;
			while (*op == ' ' || *op == '\t')
				op++;
			int eq = strncmp(op, "===", 3) == 0 ? 3 : strncmp(op, "==", 2) == 0 ? 2 : 0;
			if (!eq || !quoted(op + eq, name, sizeof name, &e))
				return SUBJ_UNKNOWN;
			if (strcmp(name, u->name) == 0)
				return SUBJ_USER;
			s = SUBJ_OTHERS;
			p = e - 1;
		} else if (strncmp(p, "subject.isInGroup", 17) == 0) {
			const char *a = p + 17;
			while (*a == ' ')
				a++;
			if (p > b && p[-1] == '!')
				return SUBJ_UNKNOWN;
			if (*a != '(' || !quoted(a + 1, name, sizeof name, &e))
				return SUBJ_UNKNOWN;
			if (pam_user_in_group_named(u, name) > 0)
				return SUBJ_USER;
			s = SUBJ_OTHERS;
			p = e - 1;
		} else if (strncmp(p, "subject.", 8) != 0 && p + 1 < end && (p[0] == '"' || p[0] == '\'') &&
			   quoted(p, name, sizeof name, &e)) {
			/* "T" == subject.user, written the other way round. */
			const char *op = e;
			while (*op == ' ' || *op == '\t')
				op++;
			int eq = strncmp(op, "===", 3) == 0 ? 3 : strncmp(op, "==", 2) == 0 ? 2 : 0;
			const char *r = op + eq;
			while (*r == ' ' || *r == '\t')
				r++;
			if (eq && strncmp(r, "subject.user", 12) == 0) {
				if (strcmp(name, u->name) == 0)
					return SUBJ_USER;
				s = SUBJ_OTHERS;
				p = r + 11;
			} else {
				p = e - 1;
			}
		}
	}
	return s;
}

/* Can the block return leave without the admin's password? Where, or NULL. */
static const char *grant_in(const char *b, const char *end)
{
	static const char *const tokens[] = {"polkit.Result.YES", "polkit.Result.AUTH_SELF",
					     "\"yes\"", "'yes'", "\"auth_self", "'auth_self", NULL};
	const char *first = NULL;
	for (const char *const *t = tokens; *t; t++) {
		const char *p = b;
		size_t n = strlen(*t);
		while ((p = strstr(p, *t)) && p < end) {
			if (!first || p < first)
				first = p;
			p += n;
		}
	}
	return first;
}

static void judge_rules_file(struct judge *j, const char *path, const char *shown)
{
	char *orig = pam_file_read(path, FILE_MAX);
	char *s = orig ? strdup(orig) : NULL;
	if (!s) {
		free(orig);
		return; /* unreadable: not judged here (polkit.h) */
	}
	blank_comments(s);
	for (const char *p = s; (p = strstr(p, "polkit.addRule"));) {
		const char *open = strchr(p, '(');
		const char *end = open ? close_paren(open) : NULL;
		if (!end)
			end = s + strlen(s); /* unclosed: judged to the end */
		const char *grant = grant_in(p, end);
		enum subject who = grant ? subject_of(j->u, p, end) : SUBJ_OTHERS;
		if (grant && who != SUBJ_OTHERS) {
			int line = line_of(s, grant);
			char *text = line_text(orig, line);
			add_way(j, shown, line, text ? text : "",
				who == SUBJ_USER ? "a rule that names the user or one of its groups "
						   "returns YES or AUTH_SELF"
				: who == SUBJ_NONE ? "a rule that names no user or group returns YES or "
						     "AUTH_SELF: it lets everyone"
						   : "a rule that returns YES or AUTH_SELF tests the "
						     "subject in a way ruas cannot judge (not == on "
						     "subject.user or isInGroup)");
			j->oom |= !text;
			free(text);
		}
		p = end;
		if (!*p)
			break;
		p++;
	}
	free(s);
	free(orig);
}

/* ------------------------------------------------------------- .pkla */

/* Does Identity's value (unix-user:X;unix-group:Y, globs) match the user? */
static int identity_matches(const struct pam_user *u, char *value)
{
	char *save = NULL;
	for (char *id = strtok_r(value, ";", &save); id; id = strtok_r(NULL, ";", &save)) {
		while (*id == ' ')
			id++;
		if (strncmp(id, "unix-user:", 10) == 0 && fnmatch(id + 10, u->name, 0) == 0)
			return 1;
		if (strncmp(id, "unix-group:", 11) == 0) {
			const char *pat = id + 11;
			if (!strpbrk(pat, "*?[")) {
				if (pam_user_in_group_named(u, pat) > 0)
					return 1;
				continue;
			}
			/* A glob over group names: each of the user's groups by name. */
			for (size_t i = 0; i < u->ngids; i++) {
				struct group gr, *res = NULL;
				char mem[16384];
				if (getgrgid_r(u->gids[i], &gr, mem, sizeof mem, &res) == 0 && res &&
				    fnmatch(pat, res->gr_name, 0) == 0)
					return 1;
			}
		}
	}
	return 0;
}

static int grants(const char *v)
{
	return strcmp(v, "yes") == 0 || strncmp(v, "auth_self", 9) == 0;
}

/* One section's verdict, at its end (or the file's). */
static void pkla_section(struct judge *j, const char *shown, int matched, int line,
			 const char *text)
{
	if (matched && line)
		add_way(j, shown, line, text,
			"a local authority entry whose Identity matches the user or one of its "
			"groups gives yes or auth_self");
}

static void judge_pkla_file(struct judge *j, const char *path, const char *shown)
{
	char *s = pam_file_read(path, FILE_MAX);
	if (!s)
		return;
	int matched = 0, grant_line = 0, lineno = 0;
	char grant_text[512] = "";
	for (char *l = s, *next; l && *l; l = next) {
		lineno++;
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		while (*l == ' ' || *l == '\t')
			l++;
		l[strcspn(l, "\r")] = '\0';
		if (*l == '[') {
			pkla_section(j, shown, matched, grant_line, grant_text);
			matched = grant_line = 0;
			continue;
		}
		char *eq = strchr(l, '=');
		if (*l == '#' || !eq)
			continue;
		*eq = '\0';
		char *v = eq + 1;
		if (strcmp(l, "Identity") == 0) {
			matched = identity_matches(j->u, v);
		} else if (strncmp(l, "Result", 6) == 0 && grants(v) && !grant_line) {
			grant_line = lineno;
			snprintf(grant_text, sizeof grant_text, "%s=%s", l, v);
		}
	}
	pkla_section(j, shown, matched, grant_line, grant_text);
	free(s);
}

/* ------------------------------------------------------------- the files */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Each file of dir (beneath fs_root) whose name ends in suffix; depth 1 goes one down. */
static void each_file(struct judge *j, const char *dir, const char *suffix, int depth, /* NOLINT(misc-no-recursion): depth <= 1 */
		      void (*fn)(struct judge *, const char *, const char *))
{
	struct buf real = BUF_INIT;
	buf_adds(&real, j->fs_root ? j->fs_root : "");
	buf_adds(&real, dir);
	struct dirent **names = NULL;
	int n = real.oom ? -1 : scandir(real.data, &names, NULL, by_name);
	buf_free(&real);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name), sl = strlen(suffix);
		struct buf shown = BUF_INIT, path = BUF_INIT;
		buf_printf(&shown, "%s/%s", dir, name);
		buf_adds(&path, j->fs_root ? j->fs_root : "");
		buf_adds(&path, shown.data ? shown.data : "");
		if (shown.oom || path.oom || !shown.data || !path.data)
			j->oom = 1;
		else if (name[0] == '.')
			; /* ., .. and hidden files: polkit skips them too */
		else if (depth > 0)
			each_file(j, shown.data, suffix, depth - 1, fn);
		else if (len > sl && strcmp(name + len - sl, suffix) == 0)
			fn(j, path.data, shown.data);
		buf_free(&shown);
		buf_free(&path);
		free(names[i]);
	}
	free(names);
}

int polkit_ways_up(const char *fs_root, const struct pam_user *u, struct pam_ways *out)
{
	struct judge j = {fs_root, u, out, 0};
	for (const char *const *d = rules_dirs; *d; d++)
		each_file(&j, *d, ".rules", 0, judge_rules_file);
	for (const char *const *d = pkla_dirs; *d; d++)
		each_file(&j, *d, ".pkla", 1, judge_pkla_file);
	return j.oom ? -1 : 0;
}
