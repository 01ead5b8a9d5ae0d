/* SPDX-License-Identifier: ISC */
/* quote.h - showing untrusted strings to people and to shells. */
#ifndef RUAS_QUOTE_H
#define RUAS_QUOTE_H

#include "buf.h"

/*
 * Appends s with '\\' and control bytes escaped C-style (\n, \t, \x1b...),
 * and '"' escaped too when `in_quotes`, so that a hostile path can neither
 * break a message line nor send terminal escapes.
 */
int quote_display(struct buf *out, const char *s, int in_quotes);
/*
 * Appends s with only control bytes escaped (tab kept): for quoting another
 * tool's output verbatim, where backslashes are the tool's own.
 */
int quote_controls(struct buf *out, const char *s);
/* `"` + quote_display(s) + `"`. */
int quote_display_dq(struct buf *out, const char *s);
/*
 * Appends s as one word for a POSIX shell: bare when it is made of safe
 * characters, else in single quotes. With control bytes it uses bash's
 * $'...' form, which is the only one that stays on one line.
 */
int quote_shell(struct buf *out, const char *s);

#endif
