/* SPDX-License-Identifier: ISC */
/*
 * source.h - a credential's value, fetched as the supervisor, in the
 * library's process (docs/credentials.md): from the supervisor's
 * environment as the spawn saw it, from a command (its stdout, kept for
 * ttl seconds), or from a file only the supervisor can read.
 *
 * A value is one line: a trailing newline (or CR LF) is dropped, and an
 * empty value or one with another newline, a CR or a NUL is refused,
 * since every consumer (an HTTP header, git's credential protocol) is
 * line-based. Values live in memory that is wiped when it is let go.
 */
#ifndef RUAS_CRED_SOURCE_H
#define RUAS_CRED_SOURCE_H

#include <sys/types.h>

#include "config/config_int.h"
#include "cred_wire.h"

#define CRED_VALUE_MAX ((unsigned)CRED_WIRE_VALUE_MAX) /* bytes of one value */
#define CRED_COMMAND_SECONDS 30 /* a from_command that takes longer is killed */

/* One credential of a run: its source, copied, and what is kept of its value. */
struct cred_slot {
	struct cred_source src;
	char *value;           /* from_env: captured at spawn; from_command: the kept output */
	long long expires_ms;  /* from_command: monotonic; the kept value is stale after */
	int env_missing;       /* from_env: the variable was not set */
};

/*
 * A copy of src for a run, with a from_env's value taken from env
 * ("NAME=value", NULL-terminated: the spawn's environment). 0 or -1 (ENOMEM).
 */
int cred_slot_init(struct cred_slot *s, const struct cred_source *src, const char *const *env);
/* Wipes and frees what s holds. */
void cred_slot_clear(struct cred_slot *s);

/*
 * The value now: 0 with *value (malloc'd, the caller wipes and frees it
 * with cred_value_free()), or -1 with why, one line for the supervisor's
 * record (what failed: the command's exit status and the first line of
 * its stderr, the file's owner or mode), never the value. env is what a
 * from_command runs with (in /, in a process group of its own, its
 * program found in PATH's absolute directories only); it is killed, group
 * and all, at CRED_COMMAND_SECONDS or when stop (a descriptor, -1: none)
 * is readable, and its end is waited for with those bounds too.
 */
int cred_slot_value(struct cred_slot *s, const char *const *env, int stop, char **value,
		    char *why, size_t whysz);
void cred_value_free(char *value);
/* The one line of raw (len bytes) as a value (as above): 0 with *out (malloc'd), or -1 with why. */
int cred_value_line(const char *raw, size_t len, char **out, char *why, size_t whysz);

#endif
