/* SPDX-License-Identifier: ISC */
/* helper_report_cmd.c - see helper_report_cmd.h. */
#include "helper_report_cmd.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helper_report.h"

void report_put_cmd(struct buf *b, size_t k, int state, const char *path, const char *searched)
{
	enc_u8(b, REC_CMD);
	enc_u32(b, (uint32_t)k);
	enc_u8(b, (unsigned int)state);
	(void)enc_str(b, path ? path : "");
	(void)enc_str(b, searched ? searched : "");
}

int report_cmd_record(struct dec *d, struct cmd_results *r)
{
	uint32_t k;
	unsigned int state;
	char *path = NULL, *searched = NULL;
	if (dec_u32(d, &k) < 0 || dec_u8(d, &state) < 0 || dec_str(d, &path) < 0 ||
	    dec_str(d, &searched) < 0)
		goto bad;
	if (k >= REPORT_MAX_CMDS) {
		dec_fail(d, "report's command index is out of range");
		goto bad;
	}
	if (state < CMD_FOUND || state > CMD_NOT_EXEC) {
		dec_fail(d, "report's command state is unknown");
		goto bad;
	}
	if (k >= r->n) {
		struct cmd_result *v = realloc(r->v, (k + 1) * sizeof *v);
		if (!v) {
			dec_fail(d, "out of memory");
			goto bad;
		}
		memset(v + r->n, 0, (k + 1 - r->n) * sizeof *v);
		r->v = v;
		r->n = k + 1;
	}
	if (r->v[k].seen) {
		dec_fail(d, "report repeats a command's record");
		goto bad;
	}
	r->v[k] = (struct cmd_result){1, (int)state, path, searched};
	return 0;
bad:
	free(path);
	free(searched);
	return -1;
}

void cmd_results_free(struct cmd_results *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].searched);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
