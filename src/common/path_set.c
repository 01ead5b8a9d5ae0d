/* SPDX-License-Identifier: ISC */
/* path_set.c - see path_set.h. */
#include "path_set.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

static size_t hash_of(char tag, const char *path)
{
	size_t h = 1469598103934665603u ^ (unsigned char)tag;
	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211u;
	return h;
}

/* The slot of tag+path, or the empty one where it would go. */
static size_t slot_of(const struct path_set *s, char tag, const char *path)
{
	size_t i = hash_of(tag, path) & (s->cap - 1);
	while (s->slot[i] && !(s->slot[i][0] == tag && strcmp(s->slot[i] + 1, path) == 0))
		i = (i + 1) & (s->cap - 1);
	return i;
}

int path_set_has(const struct path_set *s, char tag, const char *path)
{
	return s->cap && s->slot[slot_of(s, tag, path)] != NULL;
}

/* Doubles the set when it is half full. -1 when out of memory. */
static int grow(struct path_set *s)
{
	if (s->cap && s->n * 2 < s->cap)
		return 0;
	size_t ncap = s->cap ? s->cap * 2 : 1024;
	char **old = s->slot;
	size_t ocap = s->cap;
	char **v = calloc(ncap, sizeof *v);
	if (!v)
		return -1;
	s->slot = v;
	s->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i])
			v[slot_of(s, old[i][0], old[i] + 1)] = old[i];
	free(old);
	return 0;
}

void path_set_add(struct path_set *s, char tag, const char *path)
{
	if (path_set_has(s, tag, path) || grow(s) < 0)
		return;
	struct buf b = BUF_INIT;
	buf_addc(&b, tag);
	buf_adds(&b, path);
	if (!b.oom) {
		s->slot[slot_of(s, tag, path)] = buf_detach(&b);
		s->n++;
	}
	buf_free(&b);
}

int path_set_test_add(struct path_set *s, char tag, const char *path)
{
	if (path_set_has(s, tag, path))
		return 1;
	path_set_add(s, tag, path);
	return 0;
}

void path_set_free(struct path_set *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
	*s = (struct path_set)PATH_SET_INIT;
}
