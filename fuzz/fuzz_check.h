/* SPDX-License-Identifier: ISC */
/*
 * fuzz_check.h - what the protocol's fuzz targets (fuzz_*.c over src/proto)
 * share: a failed property is __builtin_trap(), which libFuzzer reports as
 * a crash and keeps the input of.
 */
#ifndef RUAS_FUZZ_CHECK_H
#define RUAS_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                        \
	do {                               \
		if (!(cond))               \
			__builtin_trap(); \
	} while (0)

/* Two decoded strings: both NULL, or equal. */
static inline void same_str(const char *a, const char *b)
{
	CHECK(!a == !b);
	CHECK(!a || strcmp(a, b) == 0);
}

/* Two decoded vectors of n strings, each NULL-terminated when terminated is set. */
static inline void same_strv(char *const *a, char *const *b, size_t n, int terminated)
{
	CHECK(!a == !b);
	if (!a)
		return;
	for (size_t i = 0; i < n; i++) {
		CHECK(a[i] && b[i]);
		same_str(a[i], b[i]);
	}
	if (terminated)
		CHECK(!a[n] && !b[n]);
}

/* The encoder wrote exactly these bytes: the accepted input was canonical. */
static inline void same_bytes(const struct buf *b, const void *data, size_t len)
{
	CHECK(!b->oom && b->len == len);
	CHECK(len == 0 || memcmp(b->data, data, len) == 0);
}

#endif
