/* error.c - ruas_error: a code, a message, and where it came from. */
#include "error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

struct ruas_error {
	ruas_code code;
	char *message;
	char *file;
	int line;
	int errnum;
	int is_static;
};

static struct ruas_error oom_error = {RUAS_ERR_NOMEM, "out of memory", NULL,
				      0, 0, 1};

int error_set(ruas_error **err, ruas_code code, const char *file, int line,
	      int errnum, const char *fmt, ...)
{
	if (!err)
		return code;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
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
	*err = e;
	return code;
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
