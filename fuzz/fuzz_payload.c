/* fuzz_payload - the helper's decoder on arbitrary input, and the round trip of what it accepts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const char *a, const char *b)
{
	if (!a != !b || (a && strcmp(a, b) != 0))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* As hex of the bytes (the decoder's real input), so the structure is reachable. */
	struct buf hex = BUF_INIT, again = BUF_INIT;
	struct payload p, q;
	const char *why;
	if (hex_encode(&hex, data, size) < 0) {
		buf_free(&hex);
		return 0;
	}
	if (payload_decode(hex.data, &p, &why) == 0) {
		if (payload_encode(&p, &again) < 0 || payload_decode(again.data, &q, &why) < 0)
			__builtin_trap();
		/* Canonical: what was accepted encodes back to the very same bytes. */
		if (again.len != hex.len || memcmp(again.data, hex.data, hex.len) != 0)
			__builtin_trap();
		if (p.kind != q.kind || p.argc != q.argc || p.nenv != q.nenv || p.ndirs != q.ndirs)
			__builtin_trap();
		for (size_t i = 0; i < p.argc; i++)
			same(p.argv[i], q.argv[i]);
		same(p.work_dir, q.work_dir);
		same(p.root, q.root);
		payload_free(&p);
		payload_free(&q);
	}
	/* And the raw bytes as a hex string: never crash on non-hex. */
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
		if (payload_decode(s, &p, &why) == 0)
			payload_free(&p);
		free(s);
	}
	buf_free(&hex);
	buf_free(&again);
	return 0;
}
