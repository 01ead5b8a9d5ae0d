/* SPDX-License-Identifier: ISC */
/* escape.h - showing a hostile name in a one-line message. */
#ifndef RUAS_TOOLS_ESCAPE_H
#define RUAS_TOOLS_ESCAPE_H

#include <stddef.h>

/*
 * s as quote_display() shows it inside double quotes (control bytes, '\\'
 * and '"' escaped C-style), truncated to fit out: for the messages that
 * are built in fixed buffers.
 */
const char *escape_name(const char *s, char *out, size_t n);

#endif
