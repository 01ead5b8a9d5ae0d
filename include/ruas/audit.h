/* SPDX-License-Identifier: ISC */
/*
 * ruas/audit.h - the audit trail: a "start" and an "end" record per spawn,
 * a "credential" per request for one of the run's credentials
 * (docs/credentials.md), a "check" per ruas_preflight(), an "audit" per
 * ruas_audit(), each one
 * "KIND key=value ..." line and the same as one JSON object. By default
 * they go to syslog (/dev/log, by the library itself, at audit_facility);
 * a sink in the spawn or preflight options sends them elsewhere, and the
 * configuration's audit_log file gets them whatever the sink
 * (docs/audit.md has every field).
 */
#ifndef RUAS_AUDIT_H
#define RUAS_AUDIT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	unsigned int version; /* RUAS_AUDIT_RECORD_VERSION */
	const char *event;    /* "start", "end", "credential", "check" or "audit" */
	const char *run;      /* a start's, end's or credential's run id; NULL for check and audit */
	const char *line;     /* "KIND key=value ...": no tag, no newline */
	const char *json;     /* {"event":KIND,...}: no newline */
} ruas_audit_record;
#define RUAS_AUDIT_RECORD_VERSION 1

/*
 * Called with each record in the thread that made it (the spawn's for a
 * start, the reaper's for an end, the child's credential thread for a
 * credential, the caller's for check and audit): so possibly from two
 * threads at once; the
 * record is valid only during the call, which may ask the child for its pid
 * or run id but must not signal, wait for or free it.
 */
typedef void (*ruas_audit_callback)(const ruas_audit_record *record, void *payload);

/* Where ruas_audit_sink sends the records. */
#define RUAS_AUDIT_TO_SYSLOG 0   /* the default: syslog, at audit_facility */
#define RUAS_AUDIT_TO_NONE 1     /* nowhere (the audit_log file still gets them) */
#define RUAS_AUDIT_TO_CALLBACK 2 /* callback(record, payload) */
#define RUAS_AUDIT_TO_FD 3       /* fd: each record's JSON and a newline, in one write(2) */

#define RUAS_AUDIT_SINK_VERSION 1
typedef struct {
	unsigned int version;
	int to; /* RUAS_AUDIT_TO_* */
	ruas_audit_callback callback;
	void *payload;
	int fd; /* the caller's; never closed by the library, and kept no longer than its handle */
} ruas_audit_sink;
#define RUAS_AUDIT_SINK_INIT                                                               \
	{RUAS_DESIGNATED(version) RUAS_AUDIT_SINK_VERSION,                                  \
	 RUAS_DESIGNATED(to) RUAS_AUDIT_TO_SYSLOG, RUAS_DESIGNATED(callback) NULL,          \
	 RUAS_DESIGNATED(payload) NULL, RUAS_DESIGNATED(fd) -1}
RUAS_EXTERN int ruas_audit_sink_init(ruas_audit_sink *sink, unsigned int version);

#ifdef __cplusplus
}
#endif
#endif
