/* SPDX-License-Identifier: ISC */
/*
 * codec.h - the one binary form of every message body (msg.h): numbers
 * big-endian, a string as its 32-bit length and its bytes (no NUL), a
 * vector as its 32-bit count and its strings. The encoder appends to a
 * buf, whose sticky oom says whether it all went; the decoder reads a
 * bounded span and refuses, with a static reason, anything short, too
 * long, with a NUL inside, or left over. No hex: nothing here crosses a
 * command line.
 */
#ifndef RUAS_PROTO_CODEC_H
#define RUAS_PROTO_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

void enc_u8(struct buf *b, unsigned int v);
void enc_u32(struct buf *b, uint32_t v);
void enc_u64(struct buf *b, uint64_t v);
/* A signed number as its two's complement in 32 bits. */
void enc_i32(struct buf *b, int32_t v);
/* -1 for a NULL string or one over 4 GiB; the buf is then not to be sent. */
int enc_str(struct buf *b, const char *s);
/* n strings (NULL-terminated or not), each as enc_str. */
int enc_strv(struct buf *b, char *const *v, size_t n);

struct dec {
	const unsigned char *p;
	size_t left;
	const char *why; /* set by the first failure: a static string */
};

void dec_init(struct dec *d, const void *data, size_t len);
/* Each returns 0, or -1 with d->why set. */
int dec_u8(struct dec *d, unsigned int *v);
int dec_u32(struct dec *d, uint32_t *v);
int dec_u64(struct dec *d, uint64_t *v);
int dec_i32(struct dec *d, int32_t *v);
/* A string, malloc'd and NUL-terminated; refused when it holds a NUL. */
int dec_str(struct dec *d, char **out);
/*
 * A count of items that each take at least min bytes (min > 0): refused
 * when they could not fit in what is left, so no count allocates more
 * than the body can fill.
 */
int dec_count(struct dec *d, size_t min, size_t *n);
/* n strings into a NULL-terminated vector; on failure *out holds what came (to free). */
int dec_strv(struct dec *d, size_t n, char ***out);
/* A counted vector: dec_count, then dec_strv. */
int dec_strv_counted(struct dec *d, size_t *n, char ***out);
/* 0 when everything was read, -1 ("trailing bytes") when not. */
int dec_done(struct dec *d);
/* Sets why (when none is set yet) and returns -1: a decoder's own refusal. */
int dec_fail(struct dec *d, const char *why);

/* n strings of a vector that a decode may have filled only partly, and the vector. */
void strv_free_n(char **v, size_t n);

#endif
