/* SPDX-License-Identifier: ISC */
/*
 * test_codec.c - the one binary form of every message body
 * (src/proto/codec.h): numbers big-endian, strings as their length and
 * bytes; and the decoder, which refuses with a reason anything short, too
 * long, with a NUL inside, or left over, and never reads past its span.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "codec.h"

static void assert_bytes(const struct buf *b, const void *want, size_t n)
{
	assert_false(b->oom);
	assert_int_equal(b->len, n);
	assert_memory_equal(b->data, want, n);
}

/* Big-endian, exactly the width of each. */
static void test_enc_known_bytes(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	enc_u8(&b, 0xab);
	enc_u8(&b, 0x1ff); /* one byte: the low one */
	enc_u32(&b, 0x01020304u);
	enc_u64(&b, 0x0102030405060708ull);
	enc_i32(&b, -1);
	enc_i32(&b, INT32_MIN);
	static const unsigned char want[] = {0xab, 0xff, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8,
					     0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0};
	assert_bytes(&b, want, sizeof want);
	buf_free(&b);

	/* A string: its length and its bytes, no NUL; a vector: its count and its strings. */
	b = (struct buf)BUF_INIT;
	assert_int_equal(enc_str(&b, "ab"), 0);
	assert_int_equal(enc_str(&b, ""), 0);
	char *v[] = {"x", "", NULL};
	assert_int_equal(enc_strv(&b, v, 2), 0);
	static const unsigned char want2[] = {0, 0, 0, 2, 'a', 'b', 0, 0, 0, 0, 0, 0, 0, 2,
					      0, 0, 0, 1, 'x', 0, 0, 0, 0};
	assert_bytes(&b, want2, sizeof want2);
	/* NULL strings, or a NULL vector with strings, may not be sent: nothing written. */
	assert_int_equal(enc_str(&b, NULL), -1);
	assert_int_equal(b.len, sizeof want2);
	assert_int_equal(enc_strv(&b, NULL, 1), -1);
	assert_int_equal(b.len, sizeof want2);
	/* n strings of a vector, NULL-terminated or not: only n. */
	assert_int_equal(enc_strv(&b, v, 1), 0);
	assert_int_equal(enc_strv(&b, NULL, 0), 0);
	static const unsigned char tail[] = {0, 0, 0, 1, 0, 0, 0, 1, 'x', 0, 0, 0, 0};
	assert_int_equal(b.len, sizeof want2 + sizeof tail);
	assert_memory_equal(b.data + sizeof want2, tail, sizeof tail);
	buf_free(&b);
}

/* Each decoder on every input shorter than it needs: refused, nothing consumed. */
static void test_dec_short_input(void **state)
{
	(void)state;
	static const unsigned char data[8] = {0, 0, 0, 9, 5, 6, 7, 8};
	for (size_t n = 0; n < 8; n++) {
		struct dec d;
		unsigned int u8;
		uint32_t u32;
		uint64_t u64;
		int32_t i32;
		char *s = (char *)data;
		if (n < 1) {
			dec_init(&d, data, n);
			assert_int_equal(dec_u8(&d, &u8), -1);
			assert_string_equal(d.why, "message truncated");
			assert_int_equal(d.left, n);
		}
		if (n < 4) {
			dec_init(&d, data, n);
			assert_int_equal(dec_u32(&d, &u32), -1);
			assert_string_equal(d.why, "message truncated");
			assert_int_equal(d.left, n);
			assert_ptr_equal(d.p, data);
			dec_init(&d, data, n);
			assert_int_equal(dec_i32(&d, &i32), -1);
			assert_string_equal(d.why, "message truncated");
			dec_init(&d, data, n);
			assert_int_equal(dec_str(&d, &s), -1);
			assert_null(s);
			assert_string_equal(d.why, "message truncated");
			size_t cnt = 99;
			dec_init(&d, data, n);
			assert_int_equal(dec_count(&d, 1, &cnt), -1);
			assert_int_equal(cnt, 0);
		}
		dec_init(&d, data, n);
		assert_int_equal(dec_u64(&d, &u64), -1);
		assert_string_equal(d.why, "message truncated");
		/* A string whose length says 9 and has at most 4 bytes. */
		if (n >= 4) {
			dec_init(&d, data, n);
			s = (char *)data;
			assert_int_equal(dec_str(&d, &s), -1);
			assert_null(s);
			assert_string_equal(d.why, "string exceeds its message");
		}
	}
	/* Whole: each reads exactly its width. */
	struct dec d;
	uint32_t u32;
	uint64_t u64;
	dec_init(&d, data, 8);
	assert_int_equal(dec_u32(&d, &u32), 0);
	assert_int_equal(u32, 9);
	assert_int_equal(d.left, 4);
	dec_init(&d, data, 8);
	assert_int_equal(dec_u64(&d, &u64), 0);
	assert_true(u64 == 0x0000000905060708ull);
	assert_int_equal(dec_done(&d), 0);
	assert_null(d.why);
	/* No data is no bytes, whatever length is said. */
	dec_init(&d, NULL, 8);
	assert_int_equal(d.left, 0);
	assert_int_equal(dec_u32(&d, &u32), -1);
}

/* A signed number's two's complement, both ways, at the edges. */
static void test_i32_round_trip(void **state)
{
	(void)state;
	static const int32_t vals[] = {INT32_MIN, INT32_MIN + 1, -4096, -2, -1, 0, 1, 125,
				       4095, INT32_MAX - 1, INT32_MAX};
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		struct buf b = BUF_INIT;
		enc_i32(&b, vals[i]);
		assert_int_equal(b.len, 4);
		struct dec d;
		int32_t got = 12345;
		dec_init(&d, b.data, b.len);
		assert_int_equal(dec_i32(&d, &got), 0);
		assert_int_equal(got, vals[i]);
		assert_int_equal(dec_done(&d), 0);
		/* The same bytes as the unsigned form of the two's complement. */
		uint32_t u = 0;
		dec_init(&d, b.data, b.len);
		assert_int_equal(dec_u32(&d, &u), 0);
		assert_int_equal(u, (uint32_t)vals[i]);
		buf_free(&b);
	}
	static const unsigned char m1[4] = {0xff, 0xff, 0xff, 0xff}, min[4] = {0x80, 0, 0, 0},
				   max[4] = {0x7f, 0xff, 0xff, 0xff};
	struct dec d;
	int32_t v;
	dec_init(&d, m1, 4);
	assert_int_equal(dec_i32(&d, &v), 0);
	assert_int_equal(v, -1);
	dec_init(&d, min, 4);
	assert_int_equal(dec_i32(&d, &v), 0);
	assert_int_equal(v, INT32_MIN);
	dec_init(&d, max, 4);
	assert_int_equal(dec_i32(&d, &v), 0);
	assert_int_equal(v, INT32_MAX);
}

static void test_u64_round_trip(void **state)
{
	(void)state;
	static const uint64_t vals[] = {0, 1, 0xffffffffull, 0x100000000ull, 0x0123456789abcdefull,
					UINT64_MAX};
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		struct buf b = BUF_INIT;
		enc_u64(&b, vals[i]);
		struct dec d;
		uint64_t got = 0;
		dec_init(&d, b.data, b.len);
		assert_int_equal(dec_u64(&d, &got), 0);
		assert_true(got == vals[i]);
		assert_int_equal(dec_done(&d), 0);
		buf_free(&b);
	}
}

/* A string with a NUL inside is refused; every other byte crosses, and the result is terminated. */
static void test_dec_str(void **state)
{
	(void)state;
	static const unsigned char nul[] = {0, 0, 0, 3, 'a', 0, 'b'};
	static const unsigned char nul_last[] = {0, 0, 0, 2, 'a', 0};
	struct dec d;
	char *s = (char *)nul;
	dec_init(&d, nul, sizeof nul);
	assert_int_equal(dec_str(&d, &s), -1);
	assert_null(s);
	assert_string_equal(d.why, "string contains a NUL byte");
	assert_int_equal(d.left, sizeof nul - 4); /* the length was read, not the bytes */
	dec_init(&d, nul_last, sizeof nul_last);
	assert_int_equal(dec_str(&d, &s), -1);
	assert_string_equal(d.why, "string contains a NUL byte");

	unsigned char all[4 + 255];
	all[0] = all[1] = all[2] = 0;
	all[3] = 255;
	for (int i = 1; i < 256; i++)
		all[3 + i] = (unsigned char)i;
	dec_init(&d, all, sizeof all);
	assert_int_equal(dec_str(&d, &s), 0);
	assert_int_equal(strlen(s), 255);
	assert_memory_equal(s, all + 4, 255);
	assert_int_equal(dec_done(&d), 0);
	free(s);

	static const unsigned char empty[] = {0, 0, 0, 0};
	dec_init(&d, empty, sizeof empty);
	assert_int_equal(dec_str(&d, &s), 0);
	assert_string_equal(s, "");
	free(s);

	/* A length of 0xffffffff with nothing behind it. */
	static const unsigned char huge[] = {0xff, 0xff, 0xff, 0xff, 'a'};
	dec_init(&d, huge, sizeof huge);
	assert_int_equal(dec_str(&d, &s), -1);
	assert_string_equal(d.why, "string exceeds its message");
}

/* A count bounded by what is left: no count allocates more than the body could fill. */
static void test_dec_count(void **state)
{
	(void)state;
	unsigned char b[4 + 12];
	memset(b, 0, sizeof b);
	struct dec d;
	size_t n;
	for (uint32_t c = 0; c <= 5; c++) {
		b[3] = (unsigned char)c;
		/* 12 bytes left: 3 items of 4, 1 of 12, 0 of 13. */
		dec_init(&d, b, sizeof b);
		int r = dec_count(&d, 4, &n);
		assert_int_equal(r, c <= 3 ? 0 : -1);
		assert_int_equal(n, c <= 3 ? c : 0);
		if (r < 0)
			assert_string_equal(d.why, "count exceeds its message");
		dec_init(&d, b, sizeof b);
		assert_int_equal(dec_count(&d, 12, &n), c <= 1 ? 0 : -1);
		dec_init(&d, b, sizeof b);
		assert_int_equal(dec_count(&d, 13, &n), c == 0 ? 0 : -1);
	}
	/* The largest counts: refused unless nothing bounds them (min 0). */
	b[0] = b[1] = b[2] = b[3] = 0xff;
	dec_init(&d, b, sizeof b);
	assert_int_equal(dec_count(&d, 1, &n), -1);
	dec_init(&d, b, sizeof b);
	assert_int_equal(dec_count(&d, 0, &n), 0);
	assert_int_equal(n, 0xffffffffu);
}

/* Vectors: n strings, NULL-terminated; a short one leaves what came for the caller to free. */
static void test_dec_strv(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	char *v[] = {"a", "", "c\x01", NULL};
	assert_int_equal(enc_strv(&b, v, 3), 0);
	struct dec d;
	size_t n = 0;
	char **got = NULL;
	dec_init(&d, b.data, b.len);
	assert_int_equal(dec_strv_counted(&d, &n, &got), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(got[i], v[i]);
	assert_null(got[3]);
	assert_int_equal(dec_done(&d), 0);
	strv_free_n(got, n);

	/* Cut inside the third string: refused, the first two there to free. */
	dec_init(&d, b.data, b.len - 1);
	assert_int_equal(dec_strv_counted(&d, &n, &got), -1);
	assert_int_equal(n, 3);
	assert_non_null(got);
	assert_string_equal(got[0], "a");
	assert_string_equal(got[1], "");
	assert_null(got[2]);
	strv_free_n(got, n);

	/* A count over what is left: refused before any allocation. */
	dec_init(&d, b.data, 8);
	got = (char **)&d;
	assert_int_equal(dec_strv_counted(&d, &n, &got), -1);
	assert_null(got);
	assert_string_equal(d.why, "count exceeds its message");
	strv_free_n(NULL, 5);
	buf_free(&b);

	/* dec_strv of 0 strings: an empty vector. */
	dec_init(&d, "", 0);
	assert_int_equal(dec_strv(&d, 0, &got), 0);
	assert_non_null(got);
	assert_null(got[0]);
	strv_free_n(got, 0);
}

/* Left-over bytes; and the first reason is the one kept. */
static void test_done_and_first_reason(void **state)
{
	(void)state;
	static const unsigned char b[5] = {0, 0, 0, 1, 2};
	struct dec d;
	uint32_t v;
	dec_init(&d, b, sizeof b);
	assert_int_equal(dec_u32(&d, &v), 0);
	assert_int_equal(dec_done(&d), -1);
	assert_string_equal(d.why, "trailing bytes");
	/* A later failure does not replace it. */
	assert_int_equal(dec_u32(&d, &v), -1);
	assert_string_equal(d.why, "trailing bytes");
	assert_int_equal(dec_fail(&d, "mine"), -1);
	assert_string_equal(d.why, "trailing bytes");
	dec_init(&d, b, sizeof b);
	assert_int_equal(dec_fail(&d, "mine"), -1);
	assert_string_equal(d.why, "mine");
	dec_init(&d, b, 0);
	assert_int_equal(dec_done(&d), 0);
	assert_null(d.why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enc_known_bytes),
		cmocka_unit_test(test_dec_short_input),
		cmocka_unit_test(test_i32_round_trip),
		cmocka_unit_test(test_u64_round_trip),
		cmocka_unit_test(test_dec_str),
		cmocka_unit_test(test_dec_count),
		cmocka_unit_test(test_dec_strv),
		cmocka_unit_test(test_done_and_first_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
