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

#endif
