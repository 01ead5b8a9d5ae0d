/* sudo_list.c - see sudo_list.h. */
#include "sudo_list.h"

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
	free(l->authenticate_line);
	memset(l, 0, sizeof *l);
}

/* The runas list names only `user`, and no group. */
static int runas_self_only(const char *runas, const char *user)
{
	return strcmp(runas, user) == 0;
}

static int add_cmd(struct sudo_rule *r, const char *s, size_t n, int nopasswd)
{
	struct sudo_cmd *c = realloc(r->cmds, (r->ncmds + 1) * sizeof *c);
	if (!c)
		return -1;
	r->cmds = c;
	char *text = trimmed(s, n);
	if (!text)
		return -1;
	c[r->ncmds].text = text;
	c[r->ncmds].nopasswd = nopasswd;
	c[r->ncmds].negated = text[0] == '!';
	r->ncmds++;
	return 0;
}

/*
 * One privilege: "(RUNAS) [OPT=v ...] [TAG: ...]CMD[, [TAG: ...]CMD]...".
 * A comma escaped with a backslash belongs to the command's arguments.
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
	int nopasswd = 0;
	for (;;) {
		size_t k;
		while (*p == ' ')
			p++;
		while (keyword(p, options, '=') != 0) {
			p += strcspn(p, " ");
			while (*p == ' ')
				p++;
		}
		while ((k = keyword(p, tags, ':')) != 0) {
			if (strncmp(p, "NOPASSWD:", 9) == 0)
				nopasswd = 1;
			else if (strncmp(p, "PASSWD:", 7) == 0)
				nopasswd = 0;
			p += k;
			while (*p == ' ')
				p++;
		}
		if (*p == '(') {
			*why = "a second (RUNAS) inside one privilege line";
			return -1;
		}
		const char *end = p;
		while (*end && *end != ',') {
			if (*end == '\\' && end[1])
				end++;
			end++;
		}
		if (end == p || add_cmd(r, p, (size_t)(end - p), nopasswd) < 0) {
			*why = end == p ? "a privilege with an empty command" : NULL;
			return -1;
		}
		if (!r->cmds[r->ncmds - 1].text[0]) {
			*why = "a privilege with an empty command";
			return -1;
		}
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* Is "!authenticate" one of the comma-separated Defaults in text? */
static int says_no_authenticate(const char *text)
{
	const char *p = text;
	while (*p) {
		size_t n = 0;
		while (p[n] && !(p[n] == ',' && (n == 0 || p[n - 1] != '\\')))
			n++;
		char *item = trimmed(p, n);
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
		p += n + (p[n] ? 1 : 0);
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

static int note_authenticate(struct parser *ps, const char *text)
{
	if (!says_no_authenticate(text))
		return 0;
	ps->l->authenticate_off = 1;
	if (ps->l->authenticate_line)
		return 0;
	return (ps->l->authenticate_line = trimmed(text, strlen(text))) ? 0 : -1;
}

/* A blank line or a new heading: finish what was being read. */
static int end_section(struct parser *ps, const char **why)
{
	int r = 0;
	if (ps->sec == SEC_DEFAULTS && ps->block.data)
		r = note_authenticate(ps, ps->block.data);
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
	case SEC_CMND_DEFAULTS: /* a line each; wrapped ones are judged with their start */
		return note_authenticate(ps, text);
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
