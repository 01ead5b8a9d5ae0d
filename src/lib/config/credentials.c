/* SPDX-License-Identifier: ISC */
/*
 * credentials.c - the credentials key (docs/credentials.md, ruas.conf(5)),
 * at the top level and in a project: what the supervisor hands a run on
 * request, by name, and where each value comes from. A project's own
 * replace the global ones of the same name; the values themselves are
 * never read here.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config/loader.h"
#include "names.h"
#include "quote.h"
#include "strv.h"

static const char *const credential_keys[] = {"name", "from_env", "from_command", "from_file",
					       "ttl", NULL};

void cred_list_free(struct cred_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].env);
		strv_free(l->v[i].argv);
		free(l->v[i].file);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const struct cred_source *cred_list_find(const struct cred_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

int cred_name_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CRED_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			 (i > 0 && (c == '_' || c == '-' || c == '.'));
		if (!ok)
			return 0;
	}
	return 1;
}

static int fail_name(struct loader *ld, int line, const char *what, const char *value,
		     const char *why)
{
	struct buf q = BUF_INIT;
	quote_display_dq(&q, value);
	int r = ld_fail_at(ld, line, "credentials: %s %s %s", what, q.data ? q.data : "", why);
	buf_free(&q);
	return r;
}

/* Where the value comes from: exactly one of from_env, from_command, from_file; ttl with a command. */
static int credential_source(struct loader *ld, const struct src *s, struct cred_source *c)
{
	struct src_val env, cmd, file, ttl;
	int r;
	if ((r = src_string(ld, s, "from_env", &env)) < 0 ||
	    (r = src_list(ld, s, "from_command", &cmd)) < 0 ||
	    (r = src_string(ld, s, "from_file", &file)) < 0 ||
	    (r = src_int(ld, s, "ttl", "credentials: ttl must be a whole number of seconds",
			 &ttl)) < 0)
		return r;
	if (env.present + cmd.present + file.present != 1)
		return ld_fail_at(ld, c->line,
				  "credentials: \"%s\" needs exactly one of from_env, from_command "
				  "and from_file", c->name);
	if (ttl.present && !cmd.present)
		return ld_fail_at(ld, ttl.line,
				  "credentials: \"%s\": ttl is only for a from_command credential",
				  c->name);
	if (ttl.present && (ttl.num < 0 || (unsigned int)ttl.num > CRED_TTL_MAX))
		return ld_fail_at(ld, ttl.line, "credentials: \"%s\": ttl must be 0 to %u seconds",
				  c->name, CRED_TTL_MAX);
	c->ttl = ttl.present ? (unsigned int)ttl.num : 0;
	if (env.present) {
		c->kind = CRED_ENV;
		if (!env_name_is_identifier(env.str))
			return fail_name(ld, env.line, "from_env", env.str,
					 "is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
		return ld_dup(ld, &c->env, env.str);
	}
	if (file.present) {
		c->kind = CRED_FILE;
		if (file.str[0] != '/')
			return fail_name(ld, file.line, "from_file", file.str,
					 "must be an absolute path");
		return ld_dup(ld, &c->file, file.str);
	}
	c->kind = CRED_COMMAND;
	if (cmd.n == 0)
		return ld_fail_at(ld, cmd.line, "credentials: \"%s\": from_command must not be empty",
				  c->name);
	if (!(c->argv = calloc(cmd.n + 1, sizeof *c->argv)))
		return ld_oom(ld);
	for (size_t i = 0; i < cmd.n; i++) {
		const char *a;
		int line;
		if ((r = src_elem(ld, &cmd, "from_command", i, &a, &line)) < 0)
			return r;
		if (i == 0 && !*a)
			return ld_fail_at(ld, line,
					  "credentials: \"%s\": from_command's program is empty",
					  c->name);
		if (ld_dup(ld, &c->argv[i], a) < 0)
			return RUAS_ERR_NOMEM;
	}
	return 0;
}

int ld_credentials(struct loader *ld, const struct src *s, struct cred_list *out)
{
	struct src_val list;
	int r = src_groups(ld, s, "credentials",
			   "credentials must be a list: credentials = ( { name = ...; from_env = "
			   "...; } );",
			   &list);
	if (r < 0 || !list.present)
		return r;
	if (!(out->v = calloc(list.n + 1, sizeof *out->v)))
		return ld_oom(ld);
	for (size_t i = 0; i < list.n; i++) {
		struct src e;
		struct src_val name;
		struct cred_source *c = &out->v[i];
		out->n = i + 1;
		if ((r = src_group_at(ld, &list, i,
				      "credentials: each must be a group { name = ...; from_env = "
				      "...; }",
				      &e)) < 0 ||
		    (r = src_keys(ld, &e, credential_keys, "in a credential")) < 0 ||
		    (r = src_string(ld, &e, "name", &name)) < 0)
			return r;
		c->line = src_line(&e);
		if (!name.present)
			return ld_fail_at(ld, c->line, "credentials: a credential has no \"name\"");
		if (!cred_name_valid(name.str))
			return fail_name(ld, name.line, "name", name.str,
					 "is invalid (pattern ^[a-z0-9][a-z0-9_.-]*$, at most 64)");
		for (size_t j = 0; j < i; j++)
			if (strcmp(out->v[j].name, name.str) == 0)
				return ld_fail_at(ld, name.line, "credentials: \"%s\" is given twice",
						  name.str);
		if ((r = ld_dup(ld, &c->name, name.str)) < 0 ||
		    (r = credential_source(ld, &e, c)) < 0)
			return r;
	}
	return 0;
}

/* A copy of one source into *d. */
static int copy_source(struct loader *ld, const struct cred_source *s, struct cred_source *d)
{
	*d = *s;
	d->name = d->env = d->file = NULL;
	d->argv = NULL;
	if (ld_dup(ld, &d->name, s->name) < 0 || (s->env && ld_dup(ld, &d->env, s->env) < 0) ||
	    (s->file && ld_dup(ld, &d->file, s->file) < 0))
		return RUAS_ERR_NOMEM;
	size_t n = 0;
	for (char **a = s->argv; a && *a; a++) {
		if (strv_push(&d->argv, &n, strdup(*a)) < 0)
			return ld_oom(ld);
	}
	return 0;
}

int ld_credentials_merge(struct loader *ld, const struct cred_list *global,
			 const struct cred_list *own, struct cred_list *out)
{
	if (!(out->v = calloc(global->n + own->n + 1, sizeof *out->v)))
		return ld_oom(ld);
	for (size_t i = 0; i < global->n + own->n; i++) {
		const struct cred_source *s = i < global->n ? &global->v[i] : &own->v[i - global->n];
		if (i < global->n && cred_list_find(own, s->name))
			continue; /* the project's own replaces it */
		int r = copy_source(ld, s, &out->v[out->n++]);
		if (r < 0)
			return r;
	}
	return 0;
}

int ld_claude_api_key(struct loader *ld, const struct src *s, char **out, int *line)
{
	struct src_val v;
	int r = src_string(ld, s, "claude_api_key", &v);
	if (r < 0 || !v.present)
		return r;
	if (!cred_name_valid(v.str)) {
		struct buf q = BUF_INIT;
		quote_display_dq(&q, v.str);
		r = ld_fail_at(ld, v.line,
			       "claude_api_key %s is not a credential name (pattern "
			       "^[a-z0-9][a-z0-9_.-]*$, at most 64)",
			       q.data ? q.data : "");
		buf_free(&q);
		return r;
	}
	free(*out);
	*out = NULL;
	*line = v.line;
	return ld_dup(ld, out, v.str);
}

int ld_claude_api_key_check(struct loader *ld, const struct ruas_project *p, int line)
{
	if (!p->claude_api_key || cred_list_find(&p->credentials, p->claude_api_key))
		return 0;
	return ld_fail_at(ld, line,
			  "claude_api_key \"%s\" names no credential of project \"%s\" (add { name "
			  "= \"%s\"; from_env = ...; } to its credentials or the top-level ones)",
			  p->claude_api_key, p->name, p->claude_api_key);
}
