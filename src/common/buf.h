/* SPDX-License-Identifier: ISC */
/* buf.h - a growable byte buffer, shared by libruas and ruas-exec. */
#ifndef RUAS_BUF_H
#define RUAS_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data; /* always NUL-terminated when non-NULL */
	size_t len;
	size_t cap;
	int oom; /* sticky: set once an allocation failed */
};

#define BUF_INIT {NULL, 0, 0, 0}

void buf_free(struct buf *b);
void buf_reset(struct buf *b);
int buf_reserve(struct buf *b, size_t extra);
int buf_add(struct buf *b, const void *data, size_t len);
int buf_adds(struct buf *b, const char *s);
int buf_addc(struct buf *b, char c);
int buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Hands the NUL-terminated contents to the caller ("" when empty); NULL on OOM. */
char *buf_detach(struct buf *b);

#endif
