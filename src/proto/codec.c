/* SPDX-License-Identifier: ISC */
/* codec.c - see codec.h. */
#include "codec.h"

#include <stdlib.h>
#include <string.h>

void enc_u8(struct buf *b, unsigned int v)
{
	buf_addc(b, (char)(unsigned char)v);
}

void enc_u32(struct buf *b, uint32_t v)
{
	unsigned char x[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 8), (unsigned char)v};
	buf_add(b, x, sizeof x);
}

void enc_u64(struct buf *b, uint64_t v)
{
	enc_u32(b, (uint32_t)(v >> 32));
	enc_u32(b, (uint32_t)v);
}

void enc_i32(struct buf *b, int32_t v)
{
	enc_u32(b, (uint32_t)v);
}

int enc_str(struct buf *b, const char *s)
{
	if (!s)
		return -1;
	size_t n = strlen(s);
	if (n > UINT32_MAX)
		return -1;
	enc_u32(b, (uint32_t)n);
	buf_add(b, s, n);
	return 0;
}

int enc_strv(struct buf *b, char *const *v, size_t n)
{
	if (n > UINT32_MAX || (n && !v))
		return -1;
	enc_u32(b, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		if (enc_str(b, v[i]) < 0)
			return -1;
	return 0;
}

void dec_init(struct dec *d, const void *data, size_t len)
{
	d->p = data;
	d->left = data ? len : 0;
	d->why = NULL;
}

int dec_fail(struct dec *d, const char *why)
{
	if (!d->why)
		d->why = why;
	return -1;
}

int dec_u8(struct dec *d, unsigned int *v)
{
	if (d->left < 1)
		return dec_fail(d, "message truncated");
	*v = d->p[0];
	d->p++;
	d->left--;
	return 0;
}

int dec_u32(struct dec *d, uint32_t *v)
{
	if (d->left < 4)
		return dec_fail(d, "message truncated");
	*v = (uint32_t)d->p[0] << 24 | (uint32_t)d->p[1] << 16 | (uint32_t)d->p[2] << 8 |
	     (uint32_t)d->p[3];
	d->p += 4;
	d->left -= 4;
	return 0;
}

int dec_u64(struct dec *d, uint64_t *v)
{
	uint32_t hi, lo;
	if (dec_u32(d, &hi) < 0 || dec_u32(d, &lo) < 0)
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

int dec_i32(struct dec *d, int32_t *v)
{
	uint32_t u;
	if (dec_u32(d, &u) < 0)
		return -1;
	/* The two's complement back, without an implementation-defined conversion. */
	*v = u <= INT32_MAX ? (int32_t)u : (int32_t)(u - (uint32_t)INT32_MAX - 1u) + INT32_MIN;
	return 0;
}

int dec_str(struct dec *d, char **out)
{
	uint32_t n;
	*out = NULL;
	if (dec_u32(d, &n) < 0)
		return -1;
	if (n > d->left)
		return dec_fail(d, "string exceeds its message");
	if (memchr(d->p, '\0', n))
		return dec_fail(d, "string contains a NUL byte");
	char *s = malloc((size_t)n + 1);
	if (!s)
		return dec_fail(d, "out of memory");
	memcpy(s, d->p, n);
	s[n] = '\0';
	d->p += n;
	d->left -= n;
	*out = s;
	return 0;
}

int dec_count(struct dec *d, size_t min, size_t *n)
{
	uint32_t v;
	*n = 0;
	if (dec_u32(d, &v) < 0)
		return -1;
	if (min && v > d->left / min)
		return dec_fail(d, "count exceeds its message");
	*n = v;
	return 0;
}

int dec_strv(struct dec *d, size_t n, char ***out)
{
	char **v = calloc(n + 1, sizeof *v);
	*out = v;
	if (!v)
		return dec_fail(d, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (dec_str(d, &v[i]) < 0)
			return -1;
	return 0;
}

int dec_strv_counted(struct dec *d, size_t *n, char ***out)
{
	*out = NULL;
	if (dec_count(d, 4, n) < 0)
		return -1;
	return dec_strv(d, *n, out);
}

int dec_done(struct dec *d)
{
	return d->left ? dec_fail(d, "trailing bytes") : 0;
}

void strv_free_n(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
