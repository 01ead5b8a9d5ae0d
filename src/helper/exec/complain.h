/* SPDX-License-Identifier: ISC */
/*
 * complain.h - ruas-exec's one-line messages on stderr, which the library
 * passes on to the supervisor (a spawn's stderr is the agent's; a check's
 * is read by the library): "ruas-exec: WHAT "ARG": WHY", the argument
 * quoted for display, so that a name with a newline or an escape sequence
 * stays on its line and cannot draw on the reader's terminal.
 */
#ifndef RUAS_HELPER_EXEC_COMPLAIN_H
#define RUAS_HELPER_EXEC_COMPLAIN_H

/* arg and why may be NULL. */
void complain(const char *what, const char *arg, const char *why);

/*
 * From here on, stderr (every fprintf, perror and complain of the helper)
 * still goes to descriptor 2, unbuffered, and its last whole line is kept
 * for complain_last(): the reason a failed start gives the supervisor
 * (started.h), which then need not depend on the agent's stderr being
 * read. 0, or -1 (stderr unchanged).
 */
int complain_keep(void);
/* That last line without its "ruas-exec: " and newline; "" when none. */
const char *complain_last(void);

#endif
