/* SPDX-License-Identifier: ISC */
/*
 * fuzz_started - STARTED's decoder (src/proto/started.h) on arbitrary
 * bytes. Properties: it never crashes or reads out of bounds; what it
 * accepts is in range (a success with no stage, errno or reason; a failure
 * with a stage 1..STARTED_STAGE_MAX, an errno 0..4095 and a reason of at
 * most STARTED_REASON_MAX printable bytes; a lifetime pidns or subreaper);
 * it is canonical: msg_started_encode() writes the accepted bytes back
 * exactly, and those decode again to the same value. started_reason_fit()
 * of the input always makes a reason the encoder takes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "payload.h"
#include "started.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = BUF_INIT;
	struct msg_started m, back;
	if (msg_started_decode(data, size, &m) == 0) {
		CHECK(m.ok == 0 || m.ok == 1);
		CHECK(m.lifetime == LIFETIME_PIDNS || m.lifetime == LIFETIME_SUBREAPER);
		CHECK(m.pid_level <= 32 && m.agent_pid <= 0x3fffffff);
		if (m.ok)
			CHECK(m.stage == 0 && m.errnum == 0 && m.reason[0] == '\0');
		else
			CHECK(m.stage >= 1 && m.stage <= STARTED_STAGE_MAX && m.errnum >= 0 &&
			      m.errnum <= 4095 && strlen(m.reason) <= STARTED_REASON_MAX &&
			      m.agent_pid == 0 && m.pid_level == 0);
		for (const char *c = m.reason; *c; c++)
			CHECK((unsigned char)*c >= 0x20 && (unsigned char)*c != 0x7f);
		CHECK(msg_started_encode(&b, &m) == 0);
		same_bytes(&b, data, size);
		CHECK(msg_started_decode(b.data, b.len, &back) == 0 && back.ok == m.ok &&
		      back.stage == m.stage && back.errnum == m.errnum &&
		      back.lifetime == m.lifetime && back.agent_pid == m.agent_pid &&
		      back.pid_level == m.pid_level && strcmp(back.reason, m.reason) == 0);
		free(back.reason);
		free(m.reason);
	}
	buf_free(&b);
	char *text = malloc(size + 1), fit[STARTED_REASON_MAX + 1];
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	started_reason_fit(fit, sizeof fit, text);
	free(text);
	struct msg_started f = {0, STARTED_STAGE_EXEC, 2, LIFETIME_PIDNS, 0, 0, fit};
	CHECK(msg_started_encode(&b, &f) == 0);
	buf_free(&b);
	return 0;
}
