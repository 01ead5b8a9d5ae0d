/* SPDX-License-Identifier: ISC */
/*
 * git_hosts.c - the git_hosts key (docs/credentials.md, ruas.conf(5)), at
 * the top level and in a project: which credential git-credential-ruas
 * answers git with, per host. The run's git learns it from variables that
 * ruas-exec sets itself (GIT_CONFIG_COUNT, _KEY_n, _VALUE_n), which no
 * allowlist may pass; a git helper's setting is a shell command line, so
 * every part of it is held to characters that a shell takes as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config/loader.h"
#include "quote.h"

static const char *const git_host_keys[] = {"host", "credential", "username", "protocol", NULL};

#define GIT_DEFAULT_USERNAME "x-access-token"

void git_host_list_free(struct git_host_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].host);
		free(l->v[i].credential);
		free(l->v[i].username);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* A host name or address, and an optional :port; no user, no path. */
static int host_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 253 || s[0] == '.' || s[0] == '-' || s[0] == ':')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || strchr(".-:", s[i])))
			return 0;
	return 1;
}

static int username_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || (i > 0 && strchr("._@+-", s[i]))))
			return 0;
	return 1;
}

static int fail_value(struct loader *ld, int line, const char *key, const char *value,
		      const char *why)
{
	struct buf q = BUF_INIT;
	quote_display_dq(&q, value);
	int r = ld_fail_at(ld, line, "git_hosts: %s %s %s", key, q.data ? q.data : "", why);
	buf_free(&q);
	return r;
}

static int git_host_one(struct loader *ld, const struct src *e, struct git_host *g)
{
	struct src_val host, cred, user, proto;
	int r;
	if ((r = src_keys(ld, e, git_host_keys, "in git_hosts")) < 0 ||
	    (r = src_string(ld, e, "host", &host)) < 0 ||
	    (r = src_string(ld, e, "credential", &cred)) < 0 ||
	    (r = src_string(ld, e, "username", &user)) < 0 ||
	    (r = src_string(ld, e, "protocol", &proto)) < 0)
		return r;
	g->line = src_line(e);
	if (!host.present || !cred.present)
		return ld_fail_at(ld, g->line, "git_hosts: each needs host and credential");
	if (!host_valid(host.str))
		return fail_value(ld, host.line, "host", host.str,
				  "is not a host name with an optional :port");
	if (!cred_name_valid(cred.str))
		return fail_value(ld, cred.line, "credential", cred.str,
				  "is not a credential name (^[a-z0-9][a-z0-9_.-]*$, at most 64)");
	if (user.present && !username_valid(user.str))
		return fail_value(ld, user.line, "username", user.str,
				  "is invalid (letters, digits and . _ @ + -, at most 64)");
	g->http = 0;
	if (proto.present && strcmp(proto.str, "http") == 0)
		g->http = 1;
	else if (proto.present && strcmp(proto.str, "https") != 0)
		return fail_value(ld, proto.line, "protocol", proto.str,
				  "must be \"https\" (the default) or \"http\"");
	if (ld_dup(ld, &g->host, host.str) < 0 || ld_dup(ld, &g->credential, cred.str) < 0 ||
	    ld_dup(ld, &g->username, user.present ? user.str : GIT_DEFAULT_USERNAME) < 0)
		return RUAS_ERR_NOMEM;
	return 0;
}

int ld_git_hosts(struct loader *ld, const struct src *s, struct git_host_list *out)
{
	struct src_val list;
	int r = src_groups(ld, s, "git_hosts",
			   "git_hosts must be a list: git_hosts = ( { host = ...; credential = "
			   "...; } );",
			   &list);
	if (r < 0 || !list.present)
		return r;
	if (!(out->v = calloc(list.n + 1, sizeof *out->v)))
		return ld_oom(ld);
	for (size_t i = 0; i < list.n; i++) {
		struct src e;
		out->n = i + 1;
		if ((r = src_group_at(ld, &list, i,
				      "git_hosts: each must be a group { host = ...; credential = "
				      "...; }",
				      &e)) < 0 ||
		    (r = git_host_one(ld, &e, &out->v[i])) < 0)
			return r;
		if (!out->v[i].host)
			return ld_oom(ld); /* git_host_one() sets it whenever it returns 0 */
		for (size_t j = 0; j < i; j++)
			if (strcmp(out->v[j].host, out->v[i].host) == 0 &&
			    out->v[j].http == out->v[i].http)
				return ld_fail_at(ld, out->v[i].line,
						  "git_hosts: host \"%s\" is given twice",
						  out->v[i].host);
	}
	return 0;
}

static int same(const struct git_host *a, const struct git_host *b)
{
	return strcmp(a->host, b->host) == 0 && a->http == b->http;
}

int ld_git_hosts_merge(struct loader *ld, const struct git_host_list *global,
		       const struct git_host_list *own, struct git_host_list *out)
{
	if (!(out->v = calloc(global->n + own->n + 1, sizeof *out->v)))
		return ld_oom(ld);
	for (size_t i = 0; i < global->n + own->n; i++) {
		const struct git_host *s = i < global->n ? &global->v[i] : &own->v[i - global->n];
		int replaced = 0;
		for (size_t j = 0; i < global->n && j < own->n; j++)
			replaced |= same(s, &own->v[j]);
		if (replaced)
			continue;
		struct git_host *d = &out->v[out->n++];
		*d = *s;
		d->host = d->credential = d->username = NULL;
		if (ld_dup(ld, &d->host, s->host) < 0 || ld_dup(ld, &d->credential, s->credential) < 0 ||
		    ld_dup(ld, &d->username, s->username) < 0)
			return RUAS_ERR_NOMEM;
	}
	return 0;
}
