/* session_acct.c - the pam backend's lines before the report; see session_acct.h. */
#include <string.h>

#include "buf.h"
#include "payload.h"
#include "session_acct.h"

#define OK_LINE "\n" SESSION_ACCT " ok\n"
#define FAIL_LINE "\n" SESSION_ACCT " fail "
#define PIDNS_OK_LINE "\n" SESSION_PIDNS " ok\n"
#define PIDNS_FAIL_LINE "\n" SESSION_PIDNS " fail "

static void write_fail(FILE *out, const char *line, const char *reason)
{
	struct buf h = BUF_INIT;
	hex_encode(&h, reason, strlen(reason));
	fprintf(out, "%s%s\n", line, h.data ? h.data : "");
	buf_free(&h);
}

/* A verdict: the fail line wins over the ok line, wherever they are. */
static enum session_acct parse_lines(const char *out, const char *ok, const char *fail,
				     char **reason)
{
	const char *bad = strstr(out, fail);
	if (!bad)
		return strstr(out, ok) ? SESSION_ACCT_OK : SESSION_ACCT_NONE;
	const char *h = bad + strlen(fail);
	struct buf r = BUF_INIT;
	*reason = hex_decode(h, strcspn(h, "\n"), &r) == 0 ? buf_detach(&r) : NULL;
	buf_free(&r);
	return SESSION_ACCT_FAIL;
}

void session_acct_write_ok(FILE *out)
{
	fputs(OK_LINE, out);
}

void session_acct_write_fail(FILE *out, const char *reason)
{
	write_fail(out, FAIL_LINE, reason);
}

enum session_acct session_acct_parse(const char *out, char **reason)
{
	return parse_lines(out, OK_LINE, FAIL_LINE, reason);
}

void session_pidns_write(FILE *out, int errnum, const char *why)
{
	if (errnum == 0)
		fputs(PIDNS_OK_LINE, out);
	else
		write_fail(out, PIDNS_FAIL_LINE, why ? why : "");
}

enum session_acct session_pidns_parse(const char *out, char **why)
{
	return parse_lines(out, PIDNS_OK_LINE, PIDNS_FAIL_LINE, why);
}
