/* SPDX-License-Identifier: ISC */
/*
 * cred_wire.h - the run's credential socket (docs/credentials.md), between
 * a requester of the run (ruas-credential, git-credential-ruas, anything
 * that speaks it) and the library (src/lib/cred/serve.h), through the run's
 * PID namespace init, which passes on each connection (pidns.h
 * PIDNS_GATE). One connection, one request, one answer, then end of file:
 *
 *   request  NAME "\n"                    NAME: ^[a-z0-9][a-z0-9_.-]*$, 1..64 bytes
 *   answer   "ok " VALUE "\n"             VALUE: one line, 1..CRED_WIRE_VALUE_MAX bytes
 *            "error " MESSAGE "\n"        for the requester: what was wrong, never a value
 *
 * The socket is abstract; the run's environment names it as
 * RUAS_CREDENTIALS=@NAME (PAYLOAD_CREDENTIALS_PREFIX and 32 hex digits).
 */
#ifndef RUAS_PROTO_CRED_WIRE_H
#define RUAS_PROTO_CRED_WIRE_H

#define CRED_WIRE_ENV "RUAS_CREDENTIALS"
#define CRED_WIRE_OK "ok "
#define CRED_WIRE_ERROR "error "
#define CRED_WIRE_NAME_MAX 64
#define CRED_WIRE_VALUE_MAX 16384
/* The longest answer: "ok ", a value, "\n" (an error is shorter). */
#define CRED_WIRE_ANSWER_MAX (3 + CRED_WIRE_VALUE_MAX + 1)

#endif
