/* SPDX-License-Identifier: ISC */
/* deny.c - see deny.h. */
#include "people/deny.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "buf.h"
#include "error.h"
#include "path.h"
#include "quote.h"
#include "strv.h"

char *claude_slug(const char *path)
{
	char *s = strdup(path);
	for (char *p = s; p && *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '-';
	return s;
}

/* strv_push(), but a string already there is not added twice. */
static int push(char ***v, size_t *n, char *s)
{
	for (size_t i = 0; s && i < *n; i++)
		if (strcmp((*v)[i], s) == 0) {
			free(s);
			return 0;
		}
	return strv_push(v, n, s);
}

/* Does `name` equal `slug` or extend it at a '-' boundary? */
static int slug_fits(const char *name, const char *slug)
{
	size_t n = strlen(slug);
	return strncmp(name, slug, n) == 0 && (name[n] == '\0' || name[n] == '-');
}

static char *claude_dir_of(const struct ruas_config *cfg, const struct ruas_person *p)
{
	if (cfg->people->claude_projects)
		return strdup(cfg->people->claude_projects);
	struct account a;
	if (account_lookup(p->run_as_user, &a) != ACCOUNT_FOUND)
		return NULL;
	char *d = path_join(a.home, ".claude/projects");
	account_clear(&a);
	return d;
}

static int warn(struct deny_list *d, struct buf *b)
{
	int r = push(&d->warnings, &d->nwarn, buf_detach(b));
	buf_free(b);
	return r;
}

static int attribute_claude_dirs(const struct ruas_config *cfg,
				 const struct ruas_person *me, struct deny_list *d)
{
	const struct ruas_people *pp = cfg->people;
	char *dir = claude_dir_of(cfg, me);
	char **slugs = calloc(pp->nmembers + 1, sizeof *slugs);
	int rc = -1;
	DIR *dh = NULL;
	if (!slugs)
		goto out;
	for (size_t i = 0; i < pp->nmembers; i++) {
		char *scope = people_scope(pp, pp->members[i].id);
		slugs[i] = scope ? claude_slug(scope) : NULL;
		free(scope);
		if (!slugs[i])
			goto out;
	}
	rc = 0;
	if (!dir)
		goto out; /* the user has no home: nothing of Claude's to attribute */
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(dh = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		if (errno != ENOENT) {
			struct buf b = BUF_INIT;
			buf_adds(&b, "cannot list claude_projects ");
			quote_display_dq(&b, dir);
			buf_printf(&b, " (%s): Claude Code's per-project directories of other "
				       "people there are not on the list; set people.claude_projects "
				       "to a directory the supervisor can read",
				   strerror(errno));
			rc = warn(d, &b);
		}
		goto out;
	}
	struct dirent *e;
	while (rc == 0 && (e = readdir(dh))) {
		struct stat st;
		if (e->d_name[0] == '.' ||
		    fstatat(dirfd(dh), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		size_t owner = pp->nmembers, fits = 0;
		for (size_t i = 0; i < pp->nmembers; i++)
			if (slug_fits(e->d_name, slugs[i])) {
				fits++;
				owner = i;
			}
		if (fits == 0 || (fits == 1 && &pp->members[owner] == me))
			continue;
		rc = push(&d->paths, &d->n, path_join(dir, e->d_name));
		if (rc == 0 && fits > 1) {
			struct buf b = BUF_INIT;
			buf_adds(&b, "claude project directory ");
			quote_display_dq(&b, e->d_name);
			buf_adds(&b, " could belong to several people (ids that extend each "
				     "other at a '-'); denied to everyone");
			rc = warn(d, &b);
		}
	}
out:
	if (dh)
		closedir(dh);
	for (size_t i = 0; slugs && i < pp->nmembers; i++)
		free(slugs[i]);
	free(slugs);
	free(dir);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int deny_list_compute(const struct ruas_config *cfg, const char *id,
		      struct deny_list *out, ruas_error **err)
{
	memset(out, 0, sizeof *out);
	if (!cfg->people)
		return error_set(err, RUAS_ERR_NOTFOUND, cfg->path, 0, 0,
				 "%s has no people block", cfg->path);
	const struct ruas_person *me = people_find(cfg, id);
	if (!me)
		return error_set(err, RUAS_ERR_NOTFOUND, cfg->path, 0, 0,
				 "no person \"%s\" in %s", id, cfg->path);
	const struct ruas_people *pp = cfg->people;
	int r = push(&out->paths, &out->n, strdup(pp->credentials));
	for (size_t i = 0; r == 0 && i < pp->nmembers; i++)
		if (&pp->members[i] != me)
			r = push(&out->paths, &out->n, people_scope(pp, pp->members[i].id));
	size_t fixed = out->n;
	if (r == 0)
		r = attribute_claude_dirs(cfg, me, out);
	if (r < 0) {
		deny_list_free(out);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	/* Directory order is the filesystem's: sort what came from it. */
	qsort(out->paths + fixed, out->n - fixed, sizeof *out->paths, cmp_str);
	if (!out->warnings && !(out->warnings = calloc(1, sizeof *out->warnings))) {
		deny_list_free(out);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	return 0;
}

void deny_list_free(struct deny_list *d)
{
	for (size_t i = 0; d->paths && i < d->n; i++)
		free(d->paths[i]);
	free(d->paths);
	for (size_t i = 0; d->warnings && i < d->nwarn; i++)
		free(d->warnings[i]);
	free(d->warnings);
	memset(d, 0, sizeof *d);
}

char *deny_claude_settings(const struct deny_list *d, const char *api_key)
{
	json_object *root = json_object_new_object();
	json_object *perm = json_object_new_object();
	json_object *deny = json_object_new_array();
	json_object *sandbox = json_object_new_object();
	json_object *fs = json_object_new_object();
	json_object *deny_read = json_object_new_array();
	char *out = NULL;
	if (!root || !perm || !deny || !sandbox || !fs || !deny_read)
		goto done;
	for (size_t i = 0; i < d->n; i++) {
		struct stat st;
		int dir = stat(d->paths[i], &st) != 0 || S_ISDIR(st.st_mode);
		struct buf b = BUF_INIT;
		/* "//abs": absolute in Claude Code rules ("/x" is relative to the settings file). */
		for (int k = 0; k < 2; k++) {
			buf_reset(&b);
			buf_printf(&b, "%s(/%s%s)", k ? "Edit" : "Read", d->paths[i],
				   dir ? "/**" : "");
			json_object_array_add(deny, json_object_new_string(b.data ? b.data : ""));
		}
		buf_free(&b);
		json_object_array_add(deny_read, json_object_new_string(d->paths[i]));
	}
	json_object_object_add(perm, "deny", deny);
	json_object_object_add(root, "permissions", perm);
	json_object_object_add(fs, "denyRead", deny_read);
	json_object_object_add(sandbox, "filesystem", fs);
	json_object_object_add(root, "sandbox", sandbox);
	perm = deny = sandbox = fs = deny_read = NULL;
	if (api_key) {
		/* A credential name is [a-z0-9_.-]: nothing the shell that runs it would expand. */
		struct buf b = BUF_INIT;
		buf_printf(&b, "ruas-credential %s", api_key);
		json_object *helper = b.oom ? NULL : json_object_new_string(b.data);
		buf_free(&b);
		if (!helper)
			goto done;
		json_object_object_add(root, "apiKeyHelper", helper);
	}
	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE);
	out = s ? strdup(s) : NULL;
done:
	json_object_put(root);
	json_object_put(perm);
	json_object_put(deny);
	json_object_put(sandbox);
	json_object_put(fs);
	json_object_put(deny_read);
	return out;
}

/* ------------------------------------------------------------ public */

void ruas_strv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

int ruas_deny_list(char ***paths, char ***warnings, const ruas_config *cfg,
		   const char *person, ruas_error **err)
{
	struct deny_list d;
	if (!paths || !cfg || !person)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_deny_list: paths, cfg and person are required");
	int r = deny_list_compute(cfg, person, &d, err);
	if (r < 0)
		return r;
	*paths = d.paths;
	if (warnings)
		*warnings = d.warnings;
	else
		ruas_strv_free(d.warnings);
	return 0;
}

int ruas_deny_claude_settings(char **json, const ruas_config *cfg,
			      const char *person, ruas_error **err)
{
	struct deny_list d;
	if (!json || !cfg || !person)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_deny_claude_settings: json, cfg and person are required");
	int r = deny_list_compute(cfg, person, &d, err);
	if (r < 0)
		return r;
	*json = deny_claude_settings(&d, NULL);
	deny_list_free(&d);
	return *json ? 0 : error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
}
