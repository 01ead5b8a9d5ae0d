/* SPDX-License-Identifier: ISC */
/* error.c - ruas_error: a code, a message, and where it came from. */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "proc.h"

struct ruas_error {
	ruas_code code;
	char *message;
	char *file;
	int line;
	int errnum;
	int is_static;
	ruas_stage stage;
};

static struct ruas_error oom_error = {RUAS_ERR_NOMEM, "out of memory", NULL,
				      0, 0, 1, RUAS_STAGE_NONE};

/* Out of descriptors names the limit (proc.h), so nobody looks for the cause elsewhere. */
static void descriptor_limit_hint(struct buf *b, int errnum)
{
	char words[256];
	buf_adds(b, descriptor_limit_words(errnum, words, sizeof words));
}

/* The error of error_set() and error_set_start(), at stage. */
__attribute__((format(printf, 7, 0))) static int
error_vset(ruas_error **err, ruas_code code, ruas_stage stage, const char *file, int line,
	   int errnum, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	struct buf b = BUF_INIT;
	buf_vprintf(&b, fmt, ap);
	descriptor_limit_hint(&b, errnum);
	struct ruas_error *e = calloc(1, sizeof *e);
	char *msg = buf_detach(&b);
	char *f = file ? strdup(file) : NULL;
	if (!e || !msg || (file && !f)) {
		free(e);
		free(msg);
		free(f);
		*err = &oom_error;
		return code;
	}
	e->code = code;
	e->message = msg;
	e->file = f;
	e->line = line;
	e->errnum = errnum;
	e->stage = stage;
	*err = e;
	return code;
}

int error_set(ruas_error **err, ruas_code code, const char *file, int line,
	      int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = error_vset(err, code, RUAS_STAGE_NONE, file, line, errnum, fmt, ap);
	va_end(ap);
	return r;
}

int error_set_start(ruas_error **err, ruas_stage stage, const char *file, int errnum,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = error_vset(err, RUAS_ERR_START, stage, file, 0, errnum, fmt, ap);
	va_end(ap);
	return r;
}

ruas_code ruas_error_code(const ruas_error *err)
{
	return err ? err->code : RUAS_OK;
}

const char *ruas_error_message(const ruas_error *err)
{
	return err ? err->message : "";
}

const char *ruas_error_file(const ruas_error *err)
{
	return err ? err->file : NULL;
}

int ruas_error_line(const ruas_error *err)
{
	return err ? err->line : 0;
}

int ruas_error_errno(const ruas_error *err)
{
	return err ? err->errnum : 0;
}

ruas_stage ruas_error_stage(const ruas_error *err)
{
	return err ? err->stage : RUAS_STAGE_NONE;
}


void ruas_error_free(ruas_error *err)
{
	if (!err || err->is_static)
		return;
	free(err->message);
	free(err->file);
	free(err);
}

int error_options_version(ruas_error **err, const char *fn, const unsigned int *version,
			  unsigned int oldest, unsigned int newest)
{
	if (!version || (*version >= oldest && *version <= newest))
		return 0;
	return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0, "%s: unknown options version %u", fn,
			 *version);
}
