/* escape.c - see escape.h. */
#include "escape.h"

#include <stdio.h>

const char *escape_name(const char *s, char *out, size_t n)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < n; p++) {
		if (*p == '\\' || *p == '"') {
			out[o++] = '\\';
			out[o++] = (char)*p;
		} else if (*p == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (*p < 0x20 || *p == 0x7f) {
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", *p);
		} else {
			out[o++] = (char)*p;
		}
	}
	out[o] = '\0';
	return out;
}
