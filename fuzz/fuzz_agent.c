/* SPDX-License-Identifier: ISC */
/*
 * fuzz_agent - AGENT's body decoder (src/proto/agent.h), the inner helper's
 * input, on arbitrary bytes. Properties: it never crashes, leaks or reads
 * out of bounds; what it accepts has a non-empty first word, NULL-terminated
 * vectors and only names setenv() takes (not empty, no '='); it is
 * canonical: agent_encode() of the value writes the very same bytes, and
 * those decode again to the same value.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "agent.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agent_start a, b;
	const char *why = NULL;
	if (agent_decode(data, size, &a, &why) < 0) {
		CHECK(why != NULL);
		return 0;
	}
	CHECK(a.argc >= 1 && a.argv && a.argv[0][0] != '\0' && !a.argv[a.argc]);
	CHECK(a.env_names && a.env_values && a.work_dir);
	for (size_t i = 0; i < a.nenv; i++)
		CHECK(a.env_names[i][0] != '\0' && !strchr(a.env_names[i], '='));
	struct buf again = BUF_INIT;
	CHECK(agent_encode(&a, &again) == 0);
	same_bytes(&again, data, size);
	CHECK(agent_decode(again.data, again.len, &b, &why) == 0);
	CHECK(a.argc == b.argc && a.nenv == b.nenv);
	same_strv(a.argv, b.argv, a.argc, 1);
	same_strv(a.env_names, b.env_names, a.nenv, 1);
	same_strv(a.env_values, b.env_values, a.nenv, 1);
	same_str(a.work_dir, b.work_dir);
	agent_free(&a);
	agent_free(&b);
	buf_free(&again);
	return 0;
}
