/* SPDX-License-Identifier: ISC */
/*
 * sink.h - where audit records go (include/ruas.h "audit"): syslog at the
 * configuration's facility by default, or the embedder's sink; and always
 * the configuration's audit_log, when it names one.
 */
#ifndef RUAS_AUDIT_SINK_H
#define RUAS_AUDIT_SINK_H

#include "audit/count.h"
#include "audit/record.h"
#include "ruas.h"

/* A sink, checked and copied, with what it needs of the configuration. */
struct audit_dest {
	int to; /* RUAS_AUDIT_TO_* */
	ruas_audit_callback callback;
	void *payload;
	int fd;
	int facility;
	int log_fd; /* the audit_log, -1: none (the dest does not own it) */
	struct audit_count *undelivered; /* the configuration's count, or NULL; not the dest's ref */
};


/*
 * in (NULL: syslog) checked and copied into *d, with facility, and log_fd
 * -1. RUAS_ERR_INVALID naming fn and what was wrong.
 */
int audit_dest_init(struct audit_dest *d, const ruas_audit_sink *in, int facility,
		    const char *fn, ruas_error **err);

/*
 * Formats r and sends it to the sink and, with d->log_fd, the log. run is
 * the run id of a start or end (NULL otherwise). 0, or -1 with errno when
 * the log could not be written (the sink's own failures, like syslog's,
 * are not the caller's to act on).
 */
int audit_emit(const struct audit_dest *d, const struct audit_record *r, const char *run);

#endif
