/* escape.h - showing a hostile name in a one-line message. */
#ifndef RUAS_TOOLS_ESCAPE_H
#define RUAS_TOOLS_ESCAPE_H

#include <stddef.h>

/* s with control bytes, '\\' and '"' escaped C-style, truncated to fit out. */
const char *escape_name(const char *s, char *out, size_t n);

#endif
