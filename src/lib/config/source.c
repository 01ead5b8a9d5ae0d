/* SPDX-License-Identifier: ISC */
/*
 * source.c - where the schema's values come from: a group of a parsed
 * file (libconfig), or a struct filled in code, whose fields a table
 * locates by key. Only here do the two differ: a file can hold a value of
 * the wrong type or an unknown key, a struct cannot, and only a file has
 * lines. Everything that judges a value is the schema's (config.c,
 * project.c, people.c), once for both.
 */
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config/loader.h"
#include "error.h"
#include "strv.h"

/*
 * The field of key in a struct source. Every key the schema reads must
 * have one; a missing entry would drop the key silently, so it is refused
 * instead (a bug of this library, which every unit test would show).
 */
static const struct src_field *find_field(const struct src *s, const char *key)
{
	for (const struct src_field *f = s->fields; f && f->key; f++)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

/* Key's value from a struct source, by its field. */
static int struct_value(struct loader *ld, const struct src *s, const char *key,
			enum src_type type, struct src_val *v)
{
	const struct src_field *f = find_field(s, key);
	memset(v, 0, sizeof *v);
	if (!f || f->type != type)
		return error_set(ld->err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "internal error: key \"%s\" has no field", key);
	const char *at = (const char *)s->st + f->offset;
	if (type == SRC_STRING || type == SRC_SIZE || type == SRC_DECIMAL) {
		/* a size or a decimal from code is its string */
		v->str = *(const char *const *)at;
		v->present = v->str != NULL;
	} else if (type == SRC_LIST) {
		v->strv = *(const char *const *const *)at;
		v->present = v->strv != NULL;
		for (const char *const *e = v->strv; e && *e; e++)
			v->n++;
	} else if (type == SRC_GROUPS) {
		v->elems = *(const void *const *)at;
		v->array = f->array;
		v->present = v->elems != NULL;
		v->n = v->present ? *(const size_t *)((const char *)s->st + f->array->count_offset)
				  : 0;
	} else {
		v->num = *(const int *)at;
		v->present = v->num != RUAS_UNSET;
	}
	return 0;
}

/* Key's value from a file's group: absent, of the type asked, or refused. */
static int group_value(struct loader *ld, const struct src *s, const char *key,
		       enum src_type type, const char *type_msg, struct src_val *v)
{
	const config_setting_t *m = config_setting_get_member(s->group, key);
	memset(v, 0, sizeof *v);
	if (!m)
		return 0;
	v->line = ld_line(m);
	v->present = 1;
	int t = config_setting_type(m);
	if ((type == SRC_STRING || type == SRC_SIZE || type == SRC_DECIMAL) &&
	    t == CONFIG_TYPE_STRING) {
		v->str = config_setting_get_string(m);
	} else if ((type == SRC_LIST && (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)) ||
		   (type == SRC_GROUPS && t == CONFIG_TYPE_LIST)) {
		v->setting = m;
		v->n = (size_t)config_setting_length(m);
	} else if (type == SRC_INT && t == CONFIG_TYPE_INT) {
		v->num = config_setting_get_int(m);
	} else if (type == SRC_BOOL && t == CONFIG_TYPE_BOOL) {
		v->num = config_setting_get_bool(m);
	} else if ((type == SRC_SIZE || type == SRC_DECIMAL) &&
		   (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)) {
		v->num64 = config_setting_get_int64(m);
	} else if (type == SRC_DECIMAL && t == CONFIG_TYPE_FLOAT) {
		v->dbl = config_setting_get_float(m);
		v->is_float = 1;
	} else if (type == SRC_STRING) {
		return ld_fail(ld, m, "key \"%s\" must be a string", key);
	} else if (type == SRC_LIST) {
		return ld_fail(ld, m, "key \"%s\" must be a list of strings, like [\"a\", \"b\"]",
			       key);
	} else {
		return ld_fail(ld, m, "%s", type_msg);
	}
	return 0;
}

static int value(struct loader *ld, const struct src *s, const char *key, enum src_type type,
		 const char *type_msg, struct src_val *v)
{
	return s->group ? group_value(ld, s, key, type, type_msg, v)
			: struct_value(ld, s, key, type, v);
}

int src_line(const struct src *s)
{
	return s->group ? ld_line(s->group) : 0;
}

int src_has(const struct src *s, const char *key, int *line)
{
	*line = 0;
	if (s->group) {
		const config_setting_t *m = config_setting_get_member(s->group, key);
		*line = ld_line(m);
		return m != NULL;
	}
	const struct src_field *f = find_field(s, key);
	const char *at = f ? (const char *)s->st + f->offset : NULL;
	if (!f)
		return 0;
	if (f->type == SRC_INT || f->type == SRC_BOOL)
		return *(const int *)at != RUAS_UNSET;
	if (f->type == SRC_LIST)
		return *(const char *const *const *)at != NULL;
	if (f->type == SRC_GROUPS)
		return *(const void *const *)at != NULL;
	return *(const char *const *)at != NULL;
}

int src_keys(struct loader *ld, const struct src *s, const char *const *allowed,
	     const char *where)
{
	return s->group ? ld_check_keys(ld, s->group, allowed, where) : 0;
}

int src_string(struct loader *ld, const struct src *s, const char *key, struct src_val *v)
{
	return value(ld, s, key, SRC_STRING, NULL, v);
}

int src_list(struct loader *ld, const struct src *s, const char *key, struct src_val *v)
{
	return value(ld, s, key, SRC_LIST, NULL, v);
}

int src_elem(struct loader *ld, const struct src_val *v, const char *key, size_t i,
	     const char **str, int *line)
{
	if (!v->setting) {
		*str = v->strv[i];
		*line = 0;
		return 0;
	}
	const config_setting_t *e = config_setting_get_elem(v->setting, (unsigned)i);
	*line = ld_line(e);
	if (config_setting_type(e) != CONFIG_TYPE_STRING)
		return ld_fail(ld, e, "key \"%s\": element %zu must be a string", key, i + 1);
	*str = config_setting_get_string(e);
	return 0;
}

int src_int(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	    struct src_val *v)
{
	return value(ld, s, key, SRC_INT, type_msg, v);
}

int src_bool(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	     struct src_val *v)
{
	return value(ld, s, key, SRC_BOOL, type_msg, v);
}

int src_size(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	     struct src_val *v)
{
	return value(ld, s, key, SRC_SIZE, type_msg, v);
}

int src_decimal(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
		struct src_val *v)
{
	return value(ld, s, key, SRC_DECIMAL, type_msg, v);
}

int src_groups(struct loader *ld, const struct src *s, const char *key, const char *type_msg,
	       struct src_val *v)
{
	return value(ld, s, key, SRC_GROUPS, type_msg, v);
}

int src_group_at(struct loader *ld, const struct src_val *v, size_t i, const char *type_msg,
		 struct src *out)
{
	if (!v->setting) {
		out->group = NULL;
		out->st = (const char *)v->elems + i * v->array->elem_size;
		out->fields = v->array->fields;
		return 0;
	}
	const config_setting_t *e = config_setting_get_elem(v->setting, (unsigned)i);
	if (!config_setting_is_group(e))
		return ld_fail(ld, e, "%s", type_msg);
	*out = src_group(e);
	return 0;
}

int ld_check_keys(struct loader *ld, const config_setting_t *group,
		  const char *const *allowed, const char *where)
{
	int n = config_setting_length(group);
	for (int i = 0; i < n; i++) {
		config_setting_t *m = config_setting_get_elem(group, (unsigned)i);
		const char *name = config_setting_name(m);
		if (!name || !strv_contains(allowed, name)) {
			struct buf keys = BUF_INIT;
			for (const char *const *k = allowed; *k; k++)
				buf_printf(&keys, "%s%s", k == allowed ? "" : ", ", *k);
			int r = ld_fail(ld, m,
					"unknown key \"%s\" %s (a misspelt key could "
					"silently weaken isolation); known keys: %s",
					name ? name : "?", where,
					keys.data ? keys.data : "");
			buf_free(&keys);
			return r;
		}
	}
	return 0;
}

int ld_get_string(struct loader *ld, const config_setting_t *group,
		  const char *key, const char **out)
{
	struct src s = src_group(group);
	struct src_val v;
	int r = src_string(ld, &s, key, &v);
	*out = v.str;
	return r;
}
