/* SPDX-License-Identifier: ISC */
/*
 * ask.h - one request on the run's credential socket (cred_wire.h), for
 * ruas-credential and git-credential-ruas.
 */
#ifndef RUAS_CREDENTIAL_ASK_H
#define RUAS_CREDENTIAL_ASK_H

#include <stddef.h>

#include "cred_wire.h"

#define ASK_VALUE_SIZE (CRED_WIRE_ANSWER_MAX + 2)

/* Is s a credential name (^[a-z0-9][a-z0-9_.-]*$, at most CRED_WIRE_NAME_MAX)? 1 or 0. */
int ask_name_ok(const char *s);

/*
 * Asks for name: 0 with the value in value (size ASK_VALUE_SIZE, NUL-terminated;
 * wipe it with explicit_bzero once used), or -1 after a message on stderr
 * that begins with prog.
 */
int ask_credential(const char *prog, const char *name, char *value, size_t size);

#endif
