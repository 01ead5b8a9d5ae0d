/* SPDX-License-Identifier: ISC */
/* escape.c - see escape.h. */
#include "escape.h"

#include <string.h>

#include "buf.h"
#include "quote.h"

const char *escape_name(const char *s, char *out, size_t n)
{
	struct buf b = BUF_INIT;
	size_t o = 0;
	/*
	 * Byte by byte, as quote_display() shows each, while the longest
	 * escape (\xHH) and the NUL still fit: the cut never splits an escape.
	 */
	for (const char *p = s; *p && o + 5 < n; p++) {
		const char one[2] = {*p, '\0'};
		buf_reset(&b);
		if (quote_display(&b, one, 1) < 0)
			break;
		memcpy(out + o, b.data, b.len);
		o += b.len;
	}
	out[o] = '\0';
	buf_free(&b);
	return out;
}
