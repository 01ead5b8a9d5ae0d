/* SPDX-License-Identifier: ISC */
/* agent.c - AGENT and START, between ruas-exec's halves; see agent.h. */
#include "agent.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"

int agent_encode(const struct agent_start *a, struct buf *out)
{
	if (a->argc < 1 || enc_strv(out, a->argv, a->argc) < 0)
		return -1;
	enc_u32(out, (uint32_t)a->nenv);
	for (size_t i = 0; i < a->nenv; i++)
		if (enc_str(out, a->env_names[i]) < 0 || enc_str(out, a->env_values[i]) < 0)
			return -1;
	if (enc_str(out, a->work_dir) < 0 || enc_str(out, a->root ? a->root : "") < 0 ||
	    enc_str(out, a->scope ? a->scope : "") < 0)
		return -1;
	return out->oom ? -1 : 0;
}

int agent_decode(const void *data, size_t len, struct agent_start *out, const char **why)
{
	struct dec d;
	int rc = -1;
	memset(out, 0, sizeof *out);
	dec_init(&d, data, len);
	if (dec_strv_counted(&d, &out->argc, &out->argv) < 0)
		goto done;
	if (out->argc < 1 || out->argv[0][0] == '\0') {
		dec_fail(&d, "agent message has an empty command");
		goto done;
	}
	if (dec_count(&d, 8, &out->nenv) < 0)
		goto done;
	out->env_names = calloc(out->nenv + 1, sizeof(char *));
	out->env_values = calloc(out->nenv + 1, sizeof(char *));
	if (!out->env_names || !out->env_values) {
		dec_fail(&d, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < out->nenv; i++) {
		if (dec_str(&d, &out->env_names[i]) < 0 || dec_str(&d, &out->env_values[i]) < 0)
			goto done;
		/* A name setenv() would refuse or misread ('=' inside, empty). */
		if (!out->env_names[i][0] || strchr(out->env_names[i], '=')) {
			dec_fail(&d, "agent message names a variable that cannot be set");
			goto done;
		}
	}
	if (dec_str(&d, &out->work_dir) < 0 || dec_str(&d, &out->root) < 0 ||
	    dec_str(&d, &out->scope) < 0 || dec_done(&d) < 0)
		goto done;
	rc = 0;
done:
	if (rc < 0) {
		agent_free(out);
		if (why)
			*why = d.why ? d.why : "agent message invalid";
	}
	return rc;
}

void agent_free(struct agent_start *a)
{
	strv_free_n(a->argv, a->argc);
	strv_free_n(a->env_names, a->nenv);
	strv_free_n(a->env_values, a->nenv);
	free(a->work_dir);
	free(a->root);
	free(a->scope);
	memset(a, 0, sizeof *a);
}

/* START_EXEC with errno 0; a failure with an errno 1..4095. */
static int start_ok(int state, int32_t errnum)
{
	if (state == START_EXEC)
		return errnum == 0;
	return (state == START_FAILED || state == START_NO_WORK_DIR) && errnum >= 1 &&
	       errnum <= 4095;
}

int msg_start_encode(struct buf *out, int state, int errnum)
{
	if (!start_ok(state, errnum))
		return -1;
	enc_u8(out, (unsigned int)state);
	enc_i32(out, errnum);
	return out->oom ? -1 : 0;
}

int msg_start_decode(const void *body, size_t len, int *state, int *errnum)
{
	struct dec d;
	unsigned int s;
	int32_t e;
	dec_init(&d, body, len);
	if (dec_u8(&d, &s) < 0 || dec_i32(&d, &e) < 0 || dec_done(&d) < 0 ||
	    s > START_NO_WORK_DIR || !start_ok((int)s, e))
		return -1;
	*state = (int)s;
	*errnum = e;
	return 0;
}
