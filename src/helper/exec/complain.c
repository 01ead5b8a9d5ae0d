/* complain.c - see complain.h. */
#include "complain.h"

#include <stdio.h>

#include "buf.h"
#include "quote.h"

void complain(const char *what, const char *arg, const char *why)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ruas-exec: ");
	buf_adds(&b, what);
	if (arg) {
		buf_addc(&b, ' ');
		quote_display_dq(&b, arg);
	}
	if (why)
		buf_printf(&b, ": %s", why);
	buf_addc(&b, '\n');
	if (b.data)
		fputs(b.data, stderr);
	buf_free(&b);
}
