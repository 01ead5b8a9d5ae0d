/* SPDX-License-Identifier: ISC */
/*
 * serve.h - a run's credentials, served (docs/credentials.md).
 *
 * The spawn draws the gate's name and makes a SOCK_SEQPACKET pair: one
 * end goes to ruas-exec with the payload, which listens at the name and
 * hands that listener and this end to the run's PID namespace init
 * (pidns.h PIDNS_GATE). The init accepts each connection and passes it
 * here with the peer's pid inside the namespace, which the kernel gives as
 * 0 for a peer outside; this side then checks the peer's uid itself
 * (SO_PEERCRED, in this process's namespaces) and answers in a thread of
 * the child's own.
 *
 * On a connection, one request and one answer, each one line:
 *   request  NAME "\n"
 *   answer   "ok " VALUE "\n"  or  "error " MESSAGE "\n"
 * The message names what was wrong for the requester (an unknown name, a
 * source that failed, a request from outside the run); what failed in a
 * source goes only to the record (audit), which never holds a value.
 */
#ifndef RUAS_CRED_SERVE_H
#define RUAS_CRED_SERVE_H

#include <sys/types.h>

#include "audit/run.h"
#include "buf.h"
#include "config/config_int.h"
#include "ruas.h"

struct cred_serve;

/*
 * The run's server, not yet started, for p (whose credentials list is not
 * empty, or cb is not NULL) run as target_uid; env is the spawn's
 * environment (from_env's values are taken from it now; from_command runs
 * with it); cb (with payload) is asked for a name no source has. *name gets
 * the gate's name (payload.h) and *helper_end the descriptor for the
 * payload (the caller closes it once sent). NULL with errno.
 */
struct cred_serve *cred_serve_new(const struct ruas_project *p, uid_t target_uid,
				  const char *const *env, ruas_credential_callback cb, void *payload,
				  char name[64], int *helper_end);
/* Serves until cred_serve_free(), recording each request to audit (borrowed until then). 0 or an errno. */
int cred_serve_start(struct cred_serve *cs, struct audit_run *audit);
/* Stops the thread (any request being served is cut), closes the gate, wipes every value. */
void cred_serve_free(struct cred_serve *cs);

/* One request on conn (the unit tests call it): from_inside is the init's verdict. */
void cred_serve_conn(struct cred_serve *cs, int conn, unsigned long inner_pid);

#endif
