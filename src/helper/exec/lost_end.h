/* SPDX-License-Identifier: ISC */
/*
 * lost_end.h - the end record of a run whose supervisor died (docs/audit.md).
 *
 * The library records a run's end when it reaps it; a supervisor that was
 * SIGKILLed never does. The helper, which outlives it long enough to end
 * the tree, then sends the end record itself to syslog, marked
 * supervisor=lost, as the target: syslogd and journald stamp it with the
 * target's uid (a record from a target is only as good as a target's word,
 * which is why it is marked). Only when the run's records go to syslog
 * (payload audit_facility non-zero); never to the audit_log, which no
 * target may write. A supervisor that died before the agent could start
 * gets one too (started=no): its start record was written.
 */
#ifndef RUAS_LOST_END_H
#define RUAS_LOST_END_H

#include "control.h"
#include "payload.h"

/* Whether the supervisor of p is still the process it was (pid and start time). */
int lost_end_supervisor_alive(const struct payload *p);
void lost_end_record(const struct payload *p, const struct msg_exit *e, long long started_ms);

#endif
