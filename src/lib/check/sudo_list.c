/* SPDX-License-Identifier: ISC */
/* sudo_list.c - see sudo_list.h. */
#include "check/sudo_list.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define LISTING_MAX_LINES 100000u

enum section { SEC_NONE, SEC_DEFAULTS, SEC_CMND_DEFAULTS, SEC_RULES };

static const char *const tags[] = {
	"NOPASSWD", "PASSWD", "NOEXEC", "EXEC", "SETENV", "NOSETENV",
	"LOG_INPUT", "NOLOG_INPUT", "LOG_OUTPUT", "NOLOG_OUTPUT", "MAIL",
	"NOMAIL", "FOLLOW", "NOFOLLOW", "INTERCEPT", "NOINTERCEPT", NULL};
static const char *const options[] = {
	"ROLE", "TYPE", "CWD", "CHROOT", "TIMEOUT", "NOTBEFORE", "NOTAFTER",
	"APPARMOR_PROFILE", "PRIVS", "LIMITPRIVS", NULL};

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static size_t indent_of(const char *s)
{
	size_t n = 0;
	while (s[n] == ' ' || s[n] == '\t')
		n++;
	return n;
}

/* "WORD:" or "WORD=" at s, with WORD one of words; its length with the mark, else 0. */
static size_t keyword(const char *s, const char *const *words, char mark)
{
	for (const char *const *w = words; *w; w++) {
		size_t n = strlen(*w);
		if (strncmp(s, *w, n) == 0 && s[n] == mark)
			return n + 1;
	}
	return 0;
}

static char *trimmed(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return strndup(s, n);
}

void sudo_listing_free(struct sudo_listing *l)
{
	for (size_t i = 0; l->rules && i < l->nrules; i++) {
		struct sudo_rule *r = &l->rules[i];
		for (size_t k = 0; k < r->ncmds; k++)
			free(r->cmds[k].text);
		free(r->cmds);
		free(r->line);
		free(r->runas);
	}
	free(l->rules);
	for (size_t i = 0; i < l->nbound_tp; i++)
		free(l->bound_tp[i].runas);
	free(l->bound_tp);
	free(l->authenticate_line);
	free(l->secure_path);
	memset(l, 0, sizeof *l);
}

/* The runas list names only `user`, and no group but its own name's. */
static int runas_self_only(const char *runas, const char *user)
{
	size_t n = strlen(user);
	/* "(T)", and "(T : T)", which sudo prints for (:T) too: its own group. */
	return strcmp(runas, user) == 0 ||
	       (strncmp(runas, user, n) == 0 && strncmp(runas + n, " : ", 3) == 0 &&
		strcmp(runas + n + 3, user) == 0);
}

struct tag_state {
	int nopasswd, setenv;
};

static int add_cmd(struct sudo_rule *r, const char *s, size_t n, const struct tag_state *t)
{
	struct sudo_cmd *c = realloc(r->cmds, (r->ncmds + 1) * sizeof *c);
	if (!c)
		return -1;
	r->cmds = c;
	char *text = trimmed(s, n);
	if (!text)
		return -1;
	c[r->ncmds].text = text;
	c[r->ncmds].nopasswd = t->nopasswd;
	c[r->ncmds].setenv = t->setenv;
	c[r->ncmds].negated = text[0] == '!';
	r->ncmds++;
	return 0;
}

/* What a command of sudo -l starts with: a path, ALL, sudoedit, a negation, a regex, a digest. */
static int command_start_ok(const char *c)
{
	static const char *const digests[] = {"sha224:", "sha256:", "sha384:", "sha512:", NULL};
	if (c[0] == '/' || c[0] == '!' || c[0] == '^' || strcmp(c, "ALL") == 0 ||
	    strncmp(c, "sudoedit ", 9) == 0 || strcmp(c, "sudoedit") == 0)
		return 1;
	for (const char *const *d = digests; *d; d++)
		if (strncmp(c, *d, strlen(*d)) == 0)
			return 1;
	return 0;
}

/*
 * One command of a privilege, between commas: "[OPT=v ...] [TAG: ...]CMD".
 * An option's value may hold spaces that sudo prints bare (CWD=/tmp/a b), so
 * tags are looked for in every word, and the command starts after the last
 * tag or option seen; a command that does not then start the way commands
 * do is not understood (fail closed rather than miss a NOPASSWD).
 */
static int parse_item(struct sudo_rule *r, const char *p, size_t n, struct tag_state *t,
		      const char **why)
{
	const char *end = p + n, *cmd = p;
	int leading = 1; /* options come first, before any tag or command word */
	for (const char *w = p; w < end;) {
		while (w < end && *w == ' ')
			w++;
		const char *we = w;
		while (we < end && *we != ' ')
			we++;
		size_t len = (size_t)(we - w);
		/* Tags are short words; longer ones are never tags. */
		char word[32] = "";
		int short_word = len > 1 && len < sizeof word;
		if (short_word)
			memcpy(word, w, len);
		if (short_word && word[len - 1] == ':' && keyword(word, tags, ':') == len) {
			if (strcmp(word, "NOPASSWD:") == 0 || strcmp(word, "PASSWD:") == 0)
				t->nopasswd = word[0] == 'N';
			else if (strcmp(word, "SETENV:") == 0 || strcmp(word, "NOSETENV:") == 0)
				t->setenv = word[0] == 'S';
			cmd = we;
			leading = 0;
		} else if (leading && len > 0 && keyword(w, options, '=') != 0) {
			/* CHROOT= and a wildcard CWD= let the caller move what runs. */
			if (strncmp(w, "CHROOT=", 7) == 0 || strncmp(w, "CWD=*", 5) == 0)
				r->risky_options = 1;
			cmd = we;
		} else if (len > 0) {
			leading = 0;
		}
		w = we;
	}
	if (add_cmd(r, cmd, (size_t)(end - cmd), t) < 0)
		return -1;
	const char *text = r->cmds[r->ncmds - 1].text;
	if (!text[0]) {
		*why = "a privilege with an empty command";
		return -1;
	}
	if (text[0] == '(') {
		*why = "a second (RUNAS) inside one privilege line";
		return -1;
	}
	if (!command_start_ok(text)) {
		*why = "a command that does not start with a path, ALL, sudoedit or a digest";
		return -1;
	}
	return 0;
}

/*
 * One privilege: "(RUNAS) ITEM[, ITEM]...". A comma escaped with a
 * backslash belongs to the command's arguments. Tags stay in force from one
 * item to the next, as sudo prints them.
 */
static int parse_rule(struct sudo_rule *r, const char *user, const char **why)
{
	const char *s = r->line;
	const char *close = strchr(s, ')');
	if (s[0] != '(' || !close) {
		*why = "a privilege line does not start with (RUNAS)";
		return -1;
	}
	if (!(r->runas = trimmed(s + 1, (size_t)(close - s - 1))))
		return -1;
	r->self_only = runas_self_only(r->runas, user);
	const char *p = close + 1;
	struct tag_state t = {0, 0};
	for (;;) {
		const char *end = p;
		while (*end && *end != ',') {
			if (*end == '\\' && end[1])
				end++;
			end++;
		}
		if (parse_item(r, p, (size_t)(end - p), &t, why) < 0)
			return -1;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/*
 * The next of the comma-separated Defaults at *p (sudo prints a comma
 * inside a value as "\\,"), trimmed, in *item (NULL when out of memory);
 * advances *p past it. 0 at the end of the list.
 */
static int next_default(const char **p, char **item)
{
	if (!**p)
		return 0;
	size_t n = 0;
	while ((*p)[n] && !((*p)[n] == ',' && (n == 0 || (*p)[n - 1] != '\\')))
		n++;
	*item = trimmed(*p, n);
	*p += n + ((*p)[n] ? 1 : 0);
	return 1;
}

/* Is "!authenticate" one of the comma-separated Defaults in text? */
static int says_no_authenticate(const char *text)
{
	const char *p = text;
	char *item;
	while (next_default(&p, &item)) {
		/*
		 * "Defaults!CMD !authenticate" binds the setting to a command that
		 * may itself contain spaces: a setting is the item's last word.
		 */
		size_t len = item ? strlen(item) : 0;
		int hit = item && (strcmp(item, "!authenticate") == 0 ||
				   (len > 14 && strcmp(item + len - 14, " !authenticate") == 0));
		free(item);
		if (hit)
			return 1;
	}
	return 0;
}

struct parser {
	struct sudo_listing *l;
	const char *user;
	enum section sec;
	struct buf block; /* the Defaults section, or the privilege being read */
	int in_rule;
};

static int end_rule(struct parser *ps, const char **why)
{
	if (!ps->in_rule)
		return 0;
	ps->in_rule = 0;
	struct sudo_listing *l = ps->l;
	struct sudo_rule *r = realloc(l->rules, (l->nrules + 1) * sizeof *r);
	if (!r)
		return -1;
	l->rules = r;
	r = &l->rules[l->nrules];
	memset(r, 0, sizeof *r);
	if (!(r->line = buf_detach(&ps->block)))
		return -1;
	buf_free(&ps->block);
	l->nrules++;
	return parse_rule(r, ps->user, why);
}

/* Is the last setting "setenv" or "!setenv" in a Defaults list? -1 when neither. */
/* A flag among the Defaults: 1 set, 0 negated ("!flag"), -1 not named; the last wins. */
static int says_flag(const char *text, const char *flag)
{
	int v = -1;
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, ",");
		char *item = trimmed(p, n);
		if (item && strcmp(item, flag) == 0)
			v = 1;
		else if (item && item[0] == '!' && strcmp(item + 1, flag) == 0)
			v = 0;
		free(item);
		p += n + (p[n] ? 1 : 0);
	}
	return v;
}

/* secure_path=A\:B\:C among the Defaults: kept as "A:B:C". */
static int note_secure_path(struct sudo_listing *l, const char *text)
{
	const char *p = text;
	char *item;
	while (next_default(&p, &item)) {
		if (!item)
			return -1;
		if (strncmp(item, "secure_path=", 12) == 0) {
			struct buf b = BUF_INIT;
			const char *c = item + 12;
			size_t len = strlen(c);
			if (len >= 2 && c[0] == '"' && c[len - 1] == '"') {
				c++;
				len -= 2;
			}
			for (size_t k = 0; k < len; k++)
				if (!(c[k] == '\\' && c[k + 1] == ':'))
					buf_addc(&b, c[k]);
			free(l->secure_path);
			l->secure_path = buf_detach(&b);
			buf_free(&b);
			if (!l->secure_path) {
				free(item);
				return -1;
			}
		}
		free(item);
	}
	return 0;
}

/* "Defaults>USER ..." bound to the runas user `user` itself: it changes nothing above it. */
static int bound_to_self(const char *text, const char *user)
{
	size_t n = strlen(user);
	return strncmp(text, "Defaults>", 9) == 0 && strncmp(text + 9, user, n) == 0 &&
	       text[9 + n] == ' ';
}

static int note_authenticate(struct parser *ps, const char *text)
{
	if (!says_no_authenticate(text) || bound_to_self(text, ps->user))
		return 0;
	ps->l->authenticate_off = 1;
	if (ps->l->authenticate_line)
		return 0;
	return (ps->l->authenticate_line = trimmed(text, strlen(text))) ? 0 : -1;
}

/* Like says_flag(), for a flag among words (blanks or commas between them). */
static int says_word(const char *text, const char *flag)
{
	int v = -1;
	size_t n = strlen(flag);
	for (const char *p = text; *p;) {
		size_t k = strcspn(p, " ,");
		if (k == n && strncmp(p, flag, n) == 0)
			v = 1;
		else if (k == n + 1 && p[0] == '!' && strncmp(p + 1, flag, n) == 0)
			v = 0;
		p += k + (p[k] ? 1 : 0);
	}
	return v;
}

/*
 * A line of the runas- and command-bound defaults: "Defaults>A, B FLAGS"
 * or "Defaults!CMND FLAGS" that names targetpw is kept (bound_targetpw).
 */
static int note_bound_targetpw(struct parser *ps, const char *text)
{
	int runas = strncmp(text, "Defaults>", 9) == 0;
	if (!runas && strncmp(text, "Defaults!", 9) != 0)
		return 0;
	/* The binding ends at the first blank that does not follow a comma. */
	const char *b = text + 9, *end = b;
	while (*end && !(*end == ' ' && end > b && end[-1] != ','))
		end++;
	/* A command's binding may hold arguments: there, any word that is the flag. */
	int on = runas ? says_flag(end, "targetpw") : says_word(end, "targetpw");
	if (on < 0)
		return 0;
	struct sudo_listing *l = ps->l;
	struct bound_targetpw *v = realloc(l->bound_tp, (l->nbound_tp + 1) * sizeof *v);
	if (!v)
		return -1;
	l->bound_tp = v;
	v[l->nbound_tp].on = on;
	v[l->nbound_tp].runas = runas ? trimmed(b, (size_t)(end - b)) : NULL;
	if (runas && !v[l->nbound_tp].runas)
		return -1;
	l->nbound_tp++;
	return 0;
}

/* One runas- or command-bound entry, whole (in ps->block), judged; the block emptied. */
static int cmnd_default(struct parser *ps)
{
	int r = note_authenticate(ps, ps->block.data);
	if (r == 0)
		r = note_bound_targetpw(ps, ps->block.data);
	buf_reset(&ps->block);
	return r;
}

/* A blank line or a new heading: finish what was being read. */
static int end_section(struct parser *ps, const char **why)
{
	int r = 0;
	if (ps->sec == SEC_DEFAULTS && ps->block.data) {
		r = note_authenticate(ps, ps->block.data);
		int se = says_flag(ps->block.data, "setenv");
		if (se >= 0)
			ps->l->setenv_default = se;
		int tp = says_flag(ps->block.data, "targetpw");
		if (tp >= 0)
			ps->l->targetpw = tp;
		if (r == 0)
			r = note_secure_path(ps->l, ps->block.data);
	}
	else if (ps->sec == SEC_CMND_DEFAULTS && ps->block.len)
		r = cmnd_default(ps);
	else if (ps->sec == SEC_RULES)
		r = end_rule(ps, why);
	buf_free(&ps->block);
	ps->sec = SEC_NONE;
	return r;
}

static int heading(struct parser *ps, const char *line)
{
	if (starts(line, "Matching Defaults entries for "))
		ps->sec = SEC_DEFAULTS;
	else if (starts(line, "Runas and Command-specific defaults for "))
		ps->sec = SEC_CMND_DEFAULTS;
	else if (starts(line, "User ") && strstr(line, " may run the following commands on "))
		ps->sec = SEC_RULES;
	else if ((starts(line, "User ") && strstr(line, " is not allowed to run sudo on ")) ||
		 (starts(line, "Sorry, user ") && strstr(line, " may not run sudo on ")))
		ps->l->not_allowed = 1;
	else
		return -1;
	return 0;
}

static int indented(struct parser *ps, const char *line, const char **why)
{
	size_t ind = indent_of(line);
	const char *text = line + ind;
	switch (ps->sec) {
	case SEC_DEFAULTS: /* one comma-separated list, wrapped anywhere after a comma */
		if (ps->block.len)
			buf_addc(&ps->block, ' ');
		buf_adds(&ps->block, text);
		return ps->block.oom ? -1 : 0;
	case SEC_CMND_DEFAULTS: /* an entry each; sudo wraps long ones: joined to their start */
		if (strncmp(text, "Defaults", 8) == 0 && ps->block.len && cmnd_default(ps) < 0)
			return -1;
		if (ps->block.len)
			buf_addc(&ps->block, ' ');
		buf_adds(&ps->block, text);
		return ps->block.oom ? -1 : 0;
	case SEC_RULES:
		if (ind <= 4 && text[0] == '(') {
			if (end_rule(ps, why) < 0)
				return -1;
			ps->in_rule = 1;
		} else if (!ps->in_rule || ind <= 4) {
			*why = "a privilege line does not start with (RUNAS)";
			return -1;
		} else {
			buf_addc(&ps->block, ' ');
		}
		buf_adds(&ps->block, text);
		return ps->block.oom ? -1 : 0;
	case SEC_NONE:
	default:
		*why = "an indented line outside any section";
		return -1;
	}
}

int sudo_listing_parse(const char *text, const char *user, struct sudo_listing *l,
		       const char **why)
{
	memset(l, 0, sizeof *l);
	struct parser ps = {l, user, SEC_NONE, BUF_INIT, 0};
	*why = NULL;
	char *copy = strdup(text);
	if (!copy)
		return -1;
	int rc = 0;
	unsigned int lines = 0;
	char *save = NULL;
	/* strtok_r would merge blank lines, and they end sections: split by hand. */
	for (char *line = copy; line && rc == 0; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		size_t n = strlen(line);
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = '\0';
		if (++lines > LISTING_MAX_LINES) {
			*why = "the listing is too long";
			rc = -1;
		} else if (n == 0) {
			rc = end_section(&ps, why);
		} else if (line[0] == ' ' || line[0] == '\t') {
			rc = indented(&ps, line, why);
		} else if (strncmp(line, "sudo: ", 6) == 0) {
			/*
			 * sudo's own diagnostics on stderr ("unable to resolve host",
			 * "setrlimit", an insecure sudoers.d file) say nothing about
			 * the rules; a listing without rules still has to parse.
			 */
			continue;
		} else if ((rc = end_section(&ps, why)) == 0 && heading(&ps, line) < 0) {
			*why = "a line that is not part of a sudo -l listing";
			rc = -1;
		}
	}
	if (rc == 0)
		rc = end_section(&ps, why);
	buf_free(&ps.block);
	free(copy);
	if (rc == 0 && !l->not_allowed && l->nrules == 0 && !*why) {
		/* Neither rules nor "not allowed": not a listing at all. */
		*why = "no privileges and no \"not allowed\" line";
		rc = -1;
	}
	if (rc < 0) {
		if (!*why)
			*why = "out of memory";
		sudo_listing_free(l);
	}
	return rc;
}

int sudo_says_password_required(const char *text)
{
	return strstr(text, "a password is required") != NULL ||
	       strstr(text, "a terminal is required to read the password") != NULL;
}
