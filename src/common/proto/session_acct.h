/*
 * session_acct.h - the pam backend's account verdict, and whether root can
 * make the agent's PID namespace: the lines that ruas-session prints in
 * check mode before ruas-exec's report (their grammar is in wire.h),
 * written by ruas-session and read by the preflight.
 */
#ifndef RUAS_SESSION_ACCT_H
#define RUAS_SESSION_ACCT_H

#include <stdio.h>

#define SESSION_ACCT "ruas-session-acct"
#define SESSION_PIDNS "ruas-session-pidns"

enum session_acct { SESSION_ACCT_NONE = 0, SESSION_ACCT_OK, SESSION_ACCT_FAIL };

/* "ruas-session-acct ok", after a newline of its own. */
void session_acct_write_ok(FILE *out);
/* "ruas-session-acct fail HEX(reason)", after a newline of its own. */
void session_acct_write_fail(FILE *out, const char *reason);

/*
 * The verdict in a session's output: FAIL when a fail line is there (it
 * wins over an ok line), with *reason the decoded reason, malloc'd (NULL
 * when it does not decode); OK when only an ok line is; NONE when neither
 * is. *reason is set only for FAIL.
 */
enum session_acct session_acct_parse(const char *out, char **reason);

/*
 * "ruas-session-pidns ok" when errnum is 0, else "ruas-session-pidns fail
 * HEX(why)", after a newline of its own; and its verdict, as for the
 * account's (fail wins; *why set only for FAIL).
 */
void session_pidns_write(FILE *out, int errnum, const char *why);
enum session_acct session_pidns_parse(const char *out, char **why);

#endif
