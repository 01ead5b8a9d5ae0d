/* SPDX-License-Identifier: ISC */
/*
 * fuzz_start - START's decoder (src/proto/agent.h) on arbitrary bytes.
 * Properties: it never crashes or reads out of bounds; what it accepts is
 * START_EXEC with errno 0, or START_FAILED or START_NO_WORK_DIR with an
 * errno 1..4095; it is
 * canonical: msg_start_encode() writes the accepted bytes back exactly,
 * and those decode again to the same value. The other way, a state and an
 * errno made of the input's first 8 bytes: what the encoder takes decodes
 * to itself, and what it refuses leaves its buffer untouched.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "agent.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	int state = 0, errnum = -1, s2 = 0, e2 = -1;
	if (msg_start_decode(data, size, &state, &errnum) == 0) {
		CHECK((state == START_EXEC && errnum == 0) ||
		      ((state == START_FAILED || state == START_NO_WORK_DIR) && errnum >= 1 &&
		       errnum <= 4095));
		CHECK(msg_start_encode(&b, state, errnum) == 0);
		same_bytes(&b, data, size);
		CHECK(msg_start_decode(b.data, b.len, &s2, &e2) == 0 && s2 == state && e2 == errnum);
	}
	buf_free(&b);
	int32_t v[2];
	if (size < sizeof v)
		return 0;
	memcpy(v, data, sizeof v);
	if (msg_start_encode(&b, v[0], v[1]) == 0)
		CHECK(msg_start_decode(b.data, b.len, &s2, &e2) == 0 && s2 == v[0] && e2 == v[1]);
	else
		CHECK(b.len == 0);
	buf_free(&b);
	return 0;
}
