/* SPDX-License-Identifier: ISC */
/* setup_fragment_scan.c - see setup_fragment_scan.h. */
#include "setup_fragment_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "strv.h"

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct fragment_entry *)a)->name,
		      ((const struct fragment_entry *)b)->name);
}

/* Every file of dfd that sudo reads and ruas-setup wrote, parsed, unjudged. */
static int collect(int dfd, struct fragment_scan *s)
{
	int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	rewinddir(d);
	struct dirent *de;
	int r = 0;
	errno = 0;
	while (r == 0 && (de = readdir(d))) {
		struct setup_fragment f;
		if (!setup_fragment_name_read(de->d_name))
			continue;
		/* A symlink, a directory, a file gone since: not ruas-setup's to judge. */
		if (setup_fragment_read_at(dirfd(d), de->d_name, &f) < 0) {
			s->unreadable += errno == EACCES || errno == EPERM;
			r = errno == ENOMEM ? -1 : 0;
			errno = 0;
			continue;
		}
		if (f.kind == SETUP_FRAGMENT_OTHER)
			continue;
		struct fragment_entry *v = realloc(s->e, (s->n + 1) * sizeof *v);
		char *name = strdup(de->d_name);
		if (!v || !name) {
			free(name);
			if (v)
				s->e = v;
			setup_fragment_clear(&f);
			errno = ENOMEM;
			r = -1;
			break;
		}
		s->e = v;
		v[s->n].name = name;
		v[s->n].f = f;
		v[s->n++].verdict = FRAGMENT_CURRENT;
		errno = 0;
	}
	int e = errno;
	closedir(d);
	if (r == 0 && e != 0) {
		errno = e;
		r = -1;
	}
	if (s->n > 1)
		qsort(s->e, s->n, sizeof *s->e, cmp_entry);
	return r;
}

static size_t in_projects(const struct setup_fragment *f, const char *const *users)
{
	size_t k = 0;
	for (size_t i = 0; i < f->ntargets; i++)
		k += strv_contains(users, f->targets[i]) != 0;
	return k;
}

/* The current supervisors: the given one, or those granting users of projects. */
static int take_current(struct fragment_scan *s, const char *supervisor,
			const char *const *users)
{
	if (supervisor)
		return strv_push(&s->current, &s->ncurrent, strdup(supervisor));
	s->guessed = 1;
	for (size_t i = 0; i < s->n; i++) {
		const struct setup_fragment *f = &s->e[i].f;
		if (f->kind == SETUP_FRAGMENT_OURS && in_projects(f, users) > 0 &&
		    !strv_contains((const char *const *)s->current, f->supervisor) &&
		    strv_push(&s->current, &s->ncurrent, strdup(f->supervisor)) < 0)
			return -1;
	}
	if (!s->current && !(s->current = calloc(1, sizeof *s->current)))
		return -1;
	return 0;
}

int fragment_scan(int dfd, const char *supervisor, const char *const *project_users,
		  struct fragment_scan *out)
{
	static const char *const none[] = {NULL};
	const char *const *users = project_users ? project_users : none;
	memset(out, 0, sizeof *out);
	if (collect(dfd, out) < 0 || take_current(out, supervisor, users) < 0) {
		int e = errno ? errno : ENOMEM;
		fragment_scan_free(out);
		errno = e;
		return -1;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct fragment_entry *e = &out->e[i];
		size_t k = in_projects(&e->f, users);
		if (e->f.kind != SETUP_FRAGMENT_OURS)
			e->verdict = FRAGMENT_NOT_UNDERSTOOD;
		else if (!strv_contains((const char *const *)out->current, e->f.supervisor))
			e->verdict = FRAGMENT_OTHER_SUPERVISOR;
		else if (k == 0)
			e->verdict = FRAGMENT_NO_PROJECT;
		else if (k < e->f.ntargets)
			e->verdict = FRAGMENT_MIXED;
	}
	return 0;
}

void fragment_scan_free(struct fragment_scan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->e[i].name);
		setup_fragment_clear(&s->e[i].f);
	}
	free(s->e);
	strv_free(s->current);
	memset(s, 0, sizeof *s);
}

char *fragment_targets_text(const struct fragment_entry *e,
			    const char *const *project_users, int in_project)
{
	static const char *const none[] = {NULL};
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < e->f.ntargets; i++) {
		int in = strv_contains(project_users ? project_users : none, e->f.targets[i]) != 0;
		if (in != !!in_project)
			continue;
		if (b.len)
			buf_adds(&b, ", ");
		buf_adds(&b, e->f.targets[i]);
	}
	if (b.oom) {
		buf_free(&b);
		return NULL;
	}
	return buf_detach(&b);
}
