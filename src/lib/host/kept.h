/* SPDX-License-Identifier: ISC */
/*
 * kept.h - files the supervisor keeps for itself between checks (the walk
 * of the trees, cache.c; a passing verdict, src/lib/check/verdict.c), in
 * the directory host_cache_dir() opens: written whole under a random name
 * and renamed, read only when the file is its own, regular and 0600 (or
 * stricter), and parsed with a cursor that never reads past the end.
 */
#ifndef RUAS_HOST_KEPT_H
#define RUAS_HOST_KEPT_H

#include <stddef.h>

#include "buf.h"

/* name in dfd, atomically: 0, or -1 (nothing changed). */
int kept_write(int dfd, const char *name, const void *data, size_t len);

/* name in dfd into *b (empty) when it is the supervisor's own and at most max bytes: 0, or -1. */
int kept_read(int dfd, const char *name, size_t max, struct buf *b);

/* Seconds since boot (CLOCK_BOOTTIME): a kept file's age, whatever the wall clock does. */
long long kept_now(void);

/* A cursor over what kept_read() read; bad once anything did not parse. */
struct kept_cur {
	const char *p, *end;
	int bad;
};

/*
 * A kept file whose head is its key and its time ("K LEN\nKEY\nT SECONDS\n",
 * kept_head() writes it): name, read from the supervisor's cache directory
 * (cache.h) into *b, with *c past the head when the key is key and the file
 * younger than interval seconds (same boot); else c->bad.
 */
void kept_keyed_read(const char *name, size_t max, const struct buf *key, unsigned int interval,
		     struct buf *b, struct kept_cur *c);
/* Appends the head kept_keyed_read() checks: key, and the time now. */
void kept_head(struct buf *b, const struct buf *key);
/* A kept file's name: prefix, "-" and a hash (FNV-1a, 64 bits) of what it is kept for. */
void kept_name(const char *prefix, const char *of, char *out, size_t outsz);
/* Writes b whole as name in the supervisor's cache directory; nothing kept is no harm. */
void kept_store(const char *name, const struct buf *b);

/* A decimal number at the cursor. */
unsigned long long kept_num(struct kept_cur *c);
/* The literal s at the cursor. */
void kept_lit(struct kept_cur *c, const char *s);
/* n bytes at the cursor, copied and NUL-terminated (none may be NUL), or NULL. */
char *kept_bytes(struct kept_cur *c, unsigned long long n);

#endif
