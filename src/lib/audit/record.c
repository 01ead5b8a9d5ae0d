/* SPDX-License-Identifier: ISC */
/* record.c - see record.h. The JSON side is json-c's; only what it is given is prepared here. */
#include "audit/record.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

static const char *const kinds[] = {"start", "end", "check", "audit", "credential"};

const char *audit_kind_name(enum audit_kind kind)
{
	return kind <= AUDIT_CREDENTIAL ? kinds[kind] : "unknown";
}

static int token_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_.:/@+-", c) != NULL;
}

/* n bytes of s as a bare token when they can be one, else quoted with every risky byte escaped. */
static void line_value(struct buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	int bare = n > 0;
	for (size_t i = 0; bare && i < n; i++)
		bare = token_byte((unsigned char)s[i]);
	if (bare) {
		buf_add(b, s, n);
		return;
	}
	buf_addc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c < 0x20 || c > 0x7e) {
			char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			buf_add(b, e, sizeof e);
		} else {
			buf_addc(b, (char)c);
		}
	}
	buf_addc(b, '"');
}

/*
 * How much of arg an AUDIT_ARGV field keeps: at most max bytes, and never
 * half a UTF-8 character (the cut moves back to where one starts).
 */
static size_t kept(const struct audit_field *f, const char *arg)
{
	size_t n = strlen(arg);
	if (!f->max || n <= f->max)
		return n;
	n = f->max;
	while (n > 0 && ((unsigned char)arg[n] & 0xc0) == 0x80)
		n--;
	return n;
}

static void line_list(struct buf *b, const struct audit_field *f)
{
	buf_addc(b, '[');
	for (size_t i = 0; f->v && f->v[i]; i++) {
		if (i)
			buf_addc(b, ',');
		const char *a = f->v[i];
		line_value(b, a, f->type == AUDIT_ARGV ? kept(f, a) : strlen(a));
	}
	buf_addc(b, ']');
}

/* KEY_len=[i:len,...] after an AUDIT_ARGV field that was cut; nothing when none was. */
static void line_cut(struct buf *b, const struct audit_field *f)
{
	int any = 0;
	for (size_t i = 0; f->v && f->v[i]; i++) {
		size_t n = strlen(f->v[i]);
		if (kept(f, f->v[i]) == n)
			continue;
		if (any)
			buf_addc(b, ',');
		else
			buf_printf(b, " %s_len=[", f->key);
		buf_printf(b, "%zu:%zu", i, n);
		any = 1;
	}
	if (any)
		buf_addc(b, ']');
}

int audit_record_line(const struct audit_record *r, struct buf *out)
{
	buf_adds(out, audit_kind_name(r->kind));
	for (size_t i = 0; i < r->nfields; i++) {
		const struct audit_field *f = &r->fields[i];
		buf_printf(out, " %s=", f->key);
		switch (f->type) {
		case AUDIT_INT:
			buf_printf(out, "%lld", f->n);
			break;
		case AUDIT_STR:
			line_value(out, f->s ? f->s : "-", strlen(f->s ? f->s : "-"));
			break;
		case AUDIT_STRV:
		case AUDIT_ARGV:
			line_list(out, f);
			if (f->type == AUDIT_ARGV)
				line_cut(out, f);
			break;
		}
	}
	return out->oom ? -1 : 0;
}

/* Length of the valid UTF-8 sequence at s (of n bytes), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (!len || len > n || (len == 2 && s[0] < 0xc2) || (len == 4 && s[0] > 0xf4))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((len == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (len == 3 && s[0] == 0xed && s[1] > 0x9f) ||
	    (len == 4 && s[0] == 0xf0 && s[1] < 0x90) || (len == 4 && s[0] == 0xf4 && s[1] > 0x8f))
		return 0; /* overlong, a surrogate, or past U+10FFFF */
	return len;
}

/* A JSON string of n bytes of s: valid UTF-8 as it is, any other byte as the character U+00XX. */
static json_object *json_bytes(const char *s, size_t n)
{
	struct buf u = BUF_INIT;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);
		if (len) {
			buf_add(&u, p + i, len);
			i += len;
		} else {
			buf_addc(&u, (char)(0xc0 | (p[i] >> 6)));
			buf_addc(&u, (char)(0x80 | (p[i] & 0x3f)));
			i++;
		}
	}
	json_object *o = u.oom ? NULL : json_object_new_string_len(u.data ? u.data : "", (int)u.len);
	buf_free(&u);
	return o;
}

static json_object *json_list(const struct audit_field *f)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; a && f->v && f->v[i]; i++) {
		const char *s = f->v[i];
		json_object *e = json_bytes(s, f->type == AUDIT_ARGV ? kept(f, s) : strlen(s));
		if (!e || json_object_array_add(a, e) < 0) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* {"i": len, ...} of an AUDIT_ARGV field's cut arguments, or NULL when none was cut. */
static json_object *json_cut(const struct audit_field *f, int *oom)
{
	json_object *o = NULL;
	for (size_t i = 0; f->v && f->v[i]; i++) {
		size_t n = strlen(f->v[i]);
		if (kept(f, f->v[i]) == n)
			continue;
		char idx[24];
		snprintf(idx, sizeof idx, "%zu", i);
		if ((!o && !(o = json_object_new_object())) ||
		    json_object_object_add(o, idx, json_object_new_int64((int64_t)n)) < 0)
			*oom = 1;
	}
	return o;
}

static json_object *json_value(const struct audit_field *f)
{
	switch (f->type) {
	case AUDIT_INT:
		return json_object_new_int64(f->n);
	case AUDIT_STR:
		return f->s ? json_bytes(f->s, strlen(f->s)) : NULL; /* null: "-" in the line */
	default:
		return json_list(f);
	}
}

int audit_record_json(const struct audit_record *r, struct buf *out)
{
	json_object *o = json_object_new_object();
	int oom = !o || json_object_object_add(o, "event",
					       json_object_new_string(audit_kind_name(r->kind))) < 0;
	for (size_t i = 0; !oom && i < r->nfields; i++) {
		const struct audit_field *f = &r->fields[i];
		json_object *v = json_value(f);
		if ((!v && !(f->type == AUDIT_STR && !f->s)) ||
		    json_object_object_add(o, f->key, v) < 0) {
			oom = 1;
			break;
		}
		if (f->type != AUDIT_ARGV)
			continue;
		json_object *cut = json_cut(f, &oom);
		char key[80];
		snprintf(key, sizeof key, "%s_len", f->key);
		if (cut && json_object_object_add(o, key, cut) < 0)
			oom = 1;
	}
	if (!oom) {
		buf_adds(out, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
		buf_addc(out, '\n');
	}
	json_object_put(o);
	return oom || out->oom ? -1 : 0;
}
