/* SPDX-License-Identifier: ISC */
/* quote.c - escaping for messages and for copy-paste shell commands. */
#include "quote.h"

#include <string.h>

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static int add_escape(struct buf *out, unsigned char c)
{
	switch (c) {
	case '\n':
		return buf_adds(out, "\\n");
	case '\t':
		return buf_adds(out, "\\t");
	case '\r':
		return buf_adds(out, "\\r");
	default:
		return buf_printf(out, "\\x%02x", c);
	}
}

int quote_display(struct buf *out, const char *s, int in_quotes)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\')
			buf_adds(out, "\\\\");
		else if (*p == '"' && in_quotes)
			buf_adds(out, "\\\"");
		else if (is_control(*p))
			add_escape(out, *p);
		else
			buf_addc(out, (char)*p);
	}
	return out->oom ? -1 : 0;
}

int quote_controls(struct buf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (is_control(*p) && *p != '\t')
			add_escape(out, *p);
		else
			buf_addc(out, (char)*p);
	}
	return out->oom ? -1 : 0;
}

int quote_display_dq(struct buf *out, const char *s)
{
	buf_addc(out, '"');
	quote_display(out, s, 1);
	return buf_addc(out, '"');
}

int quote_shell(struct buf *out, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_./:@%+=,-";
	int has_control = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (is_control(*p))
			has_control = 1;
	if (*s && strspn(s, safe) == strlen(s))
		return buf_adds(out, s);
	if (!has_control) {
		buf_addc(out, '\'');
		for (const char *p = s; *p; p++) {
			if (*p == '\'')
				buf_adds(out, "'\\''");
			else
				buf_addc(out, *p);
		}
		return buf_addc(out, '\'');
	}
	buf_adds(out, "$'");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '\'')
			buf_printf(out, "\\%c", *p);
		else if (is_control(*p))
			add_escape(out, *p);
		else
			buf_addc(out, (char)*p);
	}
	return buf_addc(out, '\'');
}
