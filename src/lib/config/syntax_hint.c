/* SPDX-License-Identifier: ISC */
/*
 * syntax_hint.c - what a configuration that libconfig could not parse most
 * likely lacks (syntax_hint.h). libconfig says only "syntax error" and a
 * line; an unclosed string or bracket is the usual cause and is found by
 * looking at the text as libconfig's scanner does (comments, strings with
 * their escapes, brackets), without parsing it.
 */
#include "config/syntax_hint.h"

#include <stdio.h>
#include <string.h>

#define DEPTH_MAX 64

struct open_mark {
	char c;
	int line;
};

static char closer_of(char c)
{
	if (c == '(')
		return ')';
	if (c == '[')
		return ']';
	return '}';
}

/* Past a comment at *p (#, //, or a block comment, which may span lines). */
static const char *skip_comment(const char *p, int *line)
{
	if (*p == '#' || (p[0] == '/' && p[1] == '/'))
		return p + strcspn(p, "\n");
	const char *end = strstr(p + 2, "*/");
	const char *stop = end ? end + 2 : p + strlen(p);
	for (const char *q = p; q < stop; q++)
		*line += *q == '\n';
	return stop;
}

int config_syntax_hint(const char *text, char *hint, size_t size)
{
	struct open_mark open[DEPTH_MAX];
	size_t depth = 0;
	int ln = 1;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			ln++;
		} else if (*p == '#' || (p[0] == '/' && (p[1] == '/' || p[1] == '*'))) {
			p = skip_comment(p, &ln) - 1;
		} else if (*p == '"') {
			int at = ln;
			for (p++; *p && *p != '"' && *p != '\n'; p++)
				if (*p == '\\' && p[1] && p[1] != '\n')
					p++;
			if (*p != '"') {
				snprintf(hint, size, "a string opened on line %d is not closed (a '\"' is "
						     "expected before the end of the line)", at);
				return 1;
			}
		} else if (strchr("([{", *p)) {
			if (depth == DEPTH_MAX)
				return 0;
			open[depth++] = (struct open_mark){*p, ln};
		} else if (strchr(")]}", *p)) {
			if (!depth) {
				snprintf(hint, size, "the '%c' on line %d closes nothing that is open",
					 *p, ln);
				return 1;
			}
			struct open_mark o = open[--depth];
			if (*p != closer_of(o.c)) {
				snprintf(hint, size, "'%c' on line %d where '%c' was expected, to close "
						     "the '%c' opened on line %d", *p, ln, closer_of(o.c), o.c,
					 o.line);
				return 1;
			}
		}
	}
	if (depth) {
		struct open_mark o = open[depth - 1];
		snprintf(hint, size, "the '%c' opened on line %d is never closed (a '%c' is expected "
				     "before the end of the file)", o.c, o.line, closer_of(o.c));
		return 1;
	}
	return 0;
}
