/* session_acct.c - the pam backend's account verdict line; see session_acct.h. */
#include <string.h>

#include "buf.h"
#include "payload.h"
#include "session_acct.h"

#define OK_LINE "\n" SESSION_ACCT " ok\n"
#define FAIL_LINE "\n" SESSION_ACCT " fail "

void session_acct_write_ok(FILE *out)
{
	fputs(OK_LINE, out);
}

void session_acct_write_fail(FILE *out, const char *reason)
{
	struct buf h = BUF_INIT;
	hex_encode(&h, reason, strlen(reason));
	fprintf(out, "%s%s\n", FAIL_LINE, h.data ? h.data : "");
	buf_free(&h);
}

enum session_acct session_acct_parse(const char *out, char **reason)
{
	const char *bad = strstr(out, FAIL_LINE);
	if (!bad)
		return strstr(out, OK_LINE) ? SESSION_ACCT_OK : SESSION_ACCT_NONE;
	const char *h = bad + strlen(FAIL_LINE);
	struct buf r = BUF_INIT;
	*reason = hex_decode(h, strcspn(h, "\n"), &r) == 0 ? buf_detach(&r) : NULL;
	buf_free(&r);
	return SESSION_ACCT_FAIL;
}
