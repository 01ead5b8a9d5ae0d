/* SPDX-License-Identifier: ISC */
/* messages_int.h - the pieces that the texts of messages*.c are built from. */
#ifndef RUAS_MESSAGES_INT_H
#define RUAS_MESSAGES_INT_H

#include "buf.h"
#include "quote.h"

/* s in double quotes, escaped: every name in a text comes this way. */
static inline void q(struct buf *b, const char *s)
{
	quote_display_dq(b, s);
}

/* Indents every line of untrusted tool output by two spaces, escaped. */
void msg_indent(struct buf *b, const char *text);
/* "ERROR: project "p": " or, without a project, "ERROR: ". */
void msg_prefix(struct buf *b, const char *severity, const char *project);

/*
 * b's text as a finding's words (b is consumed): its fix is the bytes
 * [from, to) of b, which the builder marked as it wrote them (b->len before
 * and after), without the blanks and newlines that end them; none when
 * from == to. Out of memory anywhere: both NULL.
 */
struct words msg_words(struct buf *b, size_t from, size_t to);
/* msg_words() of b, its fix from `from` to here, then " Then restart ruas.\n" after it. */
struct words msg_then_restart(struct buf *b, size_t from);

#endif
