/* SPDX-License-Identifier: ISC */
/*
 * helper_report_cmd.h - REPORT's CMD record (issue 28): what the helper,
 * as the target, found of one of the payload's commands (payload.h,
 * version 18) when it looked it up as execvp(3) would:
 *
 *   CMD  u32 K, u8 state, str(path), str(PATH searched)
 *
 * K indexes the payload's commands, each once. state: FOUND (path: the
 * program it would run), MISSING (no PATH element, or the path itself,
 * has it; path: "" or the path), NOT_EXEC (path: one that exists but is
 * not a regular file the target may execute), or NO_PATH (no PATH in its
 * login environment, confstr's default searched). The library judges them
 * (src/lib/check/command_check.h).
 */
#ifndef RUAS_PROTO_HELPER_REPORT_CMD_H
#define RUAS_PROTO_HELPER_REPORT_CMD_H

#include <stddef.h>

#include "buf.h"

struct dec;

#define REPORT_MAX_CMDS 1024u

enum cmd_state { CMD_UNKNOWN = 0, CMD_FOUND, CMD_MISSING, CMD_NOT_EXEC };

struct cmd_result {
	int seen;
	int state;  /* enum cmd_state */
	char *path; /* FOUND: the program; NOT_EXEC: the path at fault; MISSING: "" or the path */
	char *searched; /* the PATH searched ("" for a command with a '/') */
};

struct cmd_results {
	struct cmd_result *v; /* by K; n of them */
	size_t n;
};

/* The helper's half: one CMD record. */
void report_put_cmd(struct buf *b, size_t k, int state, const char *path, const char *searched);
/* The decoder's half: a CMD record into r (grown to hold K). 0, or -1 after dec_fail(). */
int report_cmd_record(struct dec *d, struct cmd_results *r);
void cmd_results_free(struct cmd_results *r);

#endif
