/* SPDX-License-Identifier: ISC */
/* doas_conf.c - see doas_conf.h. */
#include "check/doas_conf.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

#define DOAS_CONF "/etc/doas.conf"
#define CONF_MAX ((size_t)256 * 1024)
#define WORDS_MAX 64

struct rule {
	int line;
	char *text; /* the rule as written (one line of it) */
	int permit, nopass;
	char *ident, *target, *cmd; /* target, cmd: NULL for any */
};

struct rules {
	struct rule *v;
	size_t n;
	int oom;
};

static void rules_free(struct rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].text);
		free(r->v[i].ident);
		free(r->v[i].target);
		free(r->v[i].cmd);
	}
	free(r->v);
}

/*
 * The words of one rule from p on, as doas's parser splits them: blanks
 * separate, "..." is taken as is, a backslash escapes the next character
 * (a newline too: the rule goes on), # starts a comment to the end of the
 * line. Returns where the rule ends; *lines counts the newlines it ate.
 */
static const char *words_of(const char *p, char **w, size_t *n, int *lines, struct buf *store)
{
	size_t start[WORDS_MAX];
	int in_word = 0, quoted = 0;
	*n = 0;
	buf_reset(store);
	for (; *p; p++) {
		char c = *p;
		if (!quoted && c == '#') {
			while (p[1] && p[1] != '\n')
				p++;
			continue;
		}
		if (!quoted && c == '\n') {
			p++;
			break;
		}
		if (c == '\\' && p[1]) {
			p++;
			if (*p == '\n') {
				(*lines)++;
				if (!quoted && in_word) {
					buf_addc(store, '\0');
					in_word = 0;
				}
				continue;
			}
			c = *p;
		} else if (c == '"') {
			quoted = !quoted;
			if (!in_word && *n < WORDS_MAX) {
				start[(*n)++] = store->len;
				in_word = 1;
			}
			continue;
		} else if (!quoted && (c == ' ' || c == '\t' || c == '\r')) {
			if (in_word)
				buf_addc(store, '\0');
			in_word = 0;
			continue;
		}
		if (!in_word) {
			if (*n == WORDS_MAX)
				continue;
			start[(*n)++] = store->len;
			in_word = 1;
		}
		buf_addc(store, c);
	}
	if (in_word)
		buf_addc(store, '\0');
	for (size_t i = 0; i < *n && !store->oom; i++)
		w[i] = store->data + start[i];
	if (store->oom)
		*n = 0;
	return p;
}

/* One rule from its words; 0 when they are not one (doas refuses such a file). */
static int parse_rule(char **w, size_t n, struct rule *r)
{
	size_t i = 0;
	memset(r, 0, sizeof *r);
	if (n < 2 || (strcmp(w[0], "permit") != 0 && strcmp(w[0], "deny") != 0))
		return 0;
	r->permit = w[0][0] == 'p';
	for (i = 1; i < n; i++) {
		if (!strcmp(w[i], "nopass"))
			r->nopass = 1;
		else if (!strcmp(w[i], "nolog") || !strcmp(w[i], "persist") || !strcmp(w[i], "keepenv"))
			continue;
		else if (!strcmp(w[i], "setenv")) {
			while (i < n && strcmp(w[i], "}") != 0)
				i++;
		} else
			break;
	}
	if (i >= n)
		return 0;
	r->ident = strdup(w[i++]);
	if (i + 1 < n && !strcmp(w[i], "as")) {
		r->target = strdup(w[i + 1]);
		i += 2;
	}
	if (i + 1 < n && !strcmp(w[i], "cmd"))
		r->cmd = strdup(w[i + 1]);
	return 1;
}

/* Does the identity (name, number, :group, :gid) match the user? */
static int matches(const struct pam_user *u, const char *id)
{
	char *end;
	if (id[0] != ':') {
		unsigned long v = strtoul(id, &end, 10);
		return strcmp(id, u->name) == 0 || (!*end && end != id && v == (unsigned long)u->uid);
	}
	unsigned long v = strtoul(id + 1, &end, 10);
	if (!*end && end != id + 1)
		return pam_user_in_group(u, (gid_t)v);
	return pam_user_in_group_named(u, id + 1) > 0;
}

/* Is target (NULL: any) someone other than the user? */
static int other_user(const struct pam_user *u, const char *target)
{
	if (!target)
		return 1;
	struct passwd pw, *res = NULL;
	char mem[16384];
	if (getpwnam_r(target, &pw, mem, sizeof mem, &res) == 0 && res)
		return res->pw_uid != u->uid;
	return strcmp(target, u->name) != 0;
}

static int is_root(const char *target)
{
	return !target || strcmp(target, "root") == 0 || strcmp(target, "0") == 0;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Does a later rule for the user take rule r's leave away (deny it, or ask a password)? */
static int overridden(const struct pam_user *u, const struct rules *rs, size_t r)
{
	for (size_t i = r + 1; i < rs->n; i++) {
		const struct rule *x = &rs->v[i];
		if (!matches(u, x->ident) || (x->permit && x->nopass))
			continue;
		/* It covers r when it is as broad: any target and command, or the same ones. */
		if ((!x->target || same(x->target, rs->v[r].target)) &&
		    (!x->cmd || same(x->cmd, rs->v[r].cmd)))
			return 1;
	}
	return 0;
}

static void read_rules(const char *text, struct rules *rs)
{
	struct buf store = BUF_INIT;
	char *w[WORDS_MAX];
	int line = 1;
	for (const char *p = text; *p && !rs->oom;) {
		size_t n;
		int first = line, extra = 0;
		const char *end = words_of(p, w, &n, &extra, &store);
		struct rule r;
		if (parse_rule(w, n, &r)) {
			struct rule *v = realloc(rs->v, (rs->n + 1) * sizeof *v);
			r.line = first;
			r.text = strndup(p + strspn(p, " \t"), strcspn(p + strspn(p, " \t"), "#\r\n"));
			if (!v || !r.text || !r.ident) {
				rs->oom = 1;
				free(r.text);
				free(r.ident);
				free(r.target);
				free(r.cmd);
				if (v)
					rs->v = v;
				break;
			}
			rs->v = v;
			rs->v[rs->n++] = r;
		}
		rs->oom |= store.oom;
		line += 1 + extra;
		p = end;
	}
	buf_free(&store);
}

int doas_ways_up(const char *path, const struct pam_user *u, int skip_root,
		 struct pam_ways *out)
{
	if (!path && access("/usr/bin/doas", X_OK) != 0 && access("/usr/local/bin/doas", X_OK) != 0)
		return 0; /* no doas: its file lets nobody do anything */
	const char *file = path ? path : DOAS_CONF;
	char *text = pam_file_read(file, CONF_MAX);
	if (!text)
		return 0; /* missing, or not readable by the supervisor (doas_conf.h) */
	struct rules rs = {NULL, 0, 0};
	read_rules(text, &rs);
	free(text);
	int oom = rs.oom;
	for (size_t i = 0; !oom && i < rs.n; i++) {
		const struct rule *r = &rs.v[i];
		if (!r->permit || !r->nopass || !matches(u, r->ident) || !other_user(u, r->target) ||
		    (skip_root && is_root(r->target)) || overridden(u, &rs, i))
			continue;
		struct buf why = BUF_INIT;
		buf_printf(&why, "it permits the user to run %s%s as %s%s without a password (nopass)",
			   r->cmd ? "" : "any command", r->cmd ? r->cmd : "",
			   r->target ? r->target : "any user", r->target ? "" : ", root too");
		oom = why.oom || pam_ways_add(out, "doas", file, r->line, r->text, why.data) < 0;
		buf_free(&why);
	}
	rules_free(&rs);
	return oom ? -1 : 0;
}
