/* SPDX-License-Identifier: ISC */
/*
 * syntax_hint.h - a sentence on what a configuration libconfig refused most
 * likely lacks: a string or a bracket that is not closed, or one closed by
 * the wrong bracket. Diagnosis only: libconfig alone decides what parses.
 */
#ifndef RUAS_CONFIG_SYNTAX_HINT_H
#define RUAS_CONFIG_SYNTAX_HINT_H

#include <stddef.h>

/*
 * 1 with hint (size bytes) set, naming the lines, when text has such a
 * fault (the first one, or the innermost bracket left open at its end); 0
 * when it has none, which leaves libconfig's own words to say what is wrong.
 */
int config_syntax_hint(const char *text, char *hint, size_t size);

#endif
