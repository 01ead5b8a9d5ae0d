/* SPDX-License-Identifier: ISC */
/*
 * words.h - a finding's words (src/lib/check/messages.h) in the unit tests:
 * the text alone, once its fix has been held to the rule every builder
 * keeps (the fix is the text's own words, so it is in the text, one piece).
 * Include after <cmocka.h>.
 */
#ifndef RUAS_TEST_WORDS_H
#define RUAS_TEST_WORDS_H

#include <stdlib.h>
#include <string.h>

#include "check/messages.h"

static inline char *text_of(struct words w)
{
	if (w.fix && (!*w.fix || !w.text || !strstr(w.text, w.fix)))
		fail_msg("the fix \"%s\" is not a part of the text:\n%s", w.fix,
			 w.text ? w.text : "(null)");
	if (w.fix && (strncmp(w.fix, "Fix: ", 5) == 0 || strstr(w.fix, "Then restart ruas.")))
		fail_msg("the fix \"%s\" holds what is not a fix", w.fix);
	free(w.fix);
	return w.text;
}

#endif
