/* SPDX-License-Identifier: ISC */
/* sink.c - see sink.h. */
#include "audit/sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "audit/log_file.h"
#include "buf.h"
#include "error.h"
#include "syslog_send.h"

int audit_dest_init(struct audit_dest *d, const ruas_audit_sink *in, int facility,
		    const char *fn, ruas_error **err)
{
	*d = (struct audit_dest){RUAS_AUDIT_TO_SYSLOG, NULL, NULL, -1, facility, -1, NULL};
	if (!in)
		return 0;
	if (in->version < 1 || in->version > RUAS_AUDIT_SINK_VERSION)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "%s: audit sink version %u is not one this libruas knows (1 to %u)",
				 fn, in->version, RUAS_AUDIT_SINK_VERSION);
	if (in->to < RUAS_AUDIT_TO_SYSLOG || in->to > RUAS_AUDIT_TO_FD)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "%s: audit sink \"to\" is %d, not one of RUAS_AUDIT_TO_SYSLOG, "
				 "_NONE, _CALLBACK or _FD", fn, in->to);
	if (in->to == RUAS_AUDIT_TO_CALLBACK && !in->callback)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "%s: audit sink RUAS_AUDIT_TO_CALLBACK without a callback", fn);
	if (in->to == RUAS_AUDIT_TO_FD && (in->fd < 0 || fcntl(in->fd, F_GETFD) < 0))
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, EBADF,
				 "%s: audit sink RUAS_AUDIT_TO_FD: %d is not an open descriptor",
				 fn, in->fd);
	d->to = in->to;
	d->callback = in->callback;
	d->payload = in->payload;
	d->fd = in->fd;
	return 0;
}

/* Room for the line in one syslog datagram, after "<PRI>Mmm dd hh:mm:ss ruas[PID]: ". */
#define SYSLOG_LINE_MAX (SYSLOG_SEND_MAX - 64)

/*
 * r's line for syslog: as it is when it fits in SYSLOG_LINE_MAX, else with
 * its arguments cut further (halving what each keeps) until it does, each
 * cut one with its original length in KEY_len, as audit_argv's own cut.
 * The other fields come before argv, so they are whole either way.
 */
static int syslog_line(const struct audit_record *r, const struct buf *line, struct buf *out)
{
	if (line->len <= SYSLOG_LINE_MAX)
		return buf_add(out, line->data, line->len);
	struct audit_field *f = calloc(r->nfields, sizeof *f);
	if (!f)
		return -1;
	memcpy(f, r->fields, r->nfields * sizeof *f);
	struct audit_record cut = {r->kind, f, r->nfields};
	int rc = 0;
	for (size_t keep = 4096; rc == 0 && keep >= 8; keep /= 2) {
		for (size_t i = 0; i < cut.nfields; i++)
			if (f[i].type == AUDIT_ARGV && (!f[i].max || f[i].max > keep))
				f[i].max = keep;
		buf_reset(out);
		rc = audit_record_line(&cut, out);
		if (out->len <= SYSLOG_LINE_MAX)
			break;
	}
	free(f);
	return rc; /* still too long (thousands of arguments): syslog_send() cuts it */
}

/* A record that no sink took: counted, never lost in silence (ruas_config_audit_undelivered()). */
static void undelivered(const struct audit_dest *d)
{
	if (d->undelivered)
		__atomic_add_fetch(&d->undelivered->n, 1, __ATOMIC_RELAXED);
}

static void to_syslog(const struct audit_dest *d, const struct audit_record *r,
		      const struct buf *line)
{
	struct buf fit = BUF_INIT;
	if (syslog_line(r, line, &fit) < 0 || fit.oom ||
	    syslog_send(NULL, d->facility, LOG_INFO, "ruas", fit.data) < 0)
		undelivered(d);
	buf_free(&fit);
}

static void to_sink(const struct audit_dest *d, const struct audit_record *r, const char *run,
		    const struct buf *line, const struct buf *json)
{
	switch (d->to) {
	case RUAS_AUDIT_TO_SYSLOG:
		to_syslog(d, r, line);
		break;
	case RUAS_AUDIT_TO_CALLBACK: {
		/* The JSON without its newline, as the header promises. */
		json->data[json->len - 1] = '\0';
		ruas_audit_record rec = {RUAS_AUDIT_RECORD_VERSION, audit_kind_name(r->kind), run,
					 line->data, json->data};
		d->callback(&rec, d->payload);
		json->data[json->len - 1] = '\n';
		break;
	}
	case RUAS_AUDIT_TO_FD:
		if (audit_log_write(d->fd, json->data, json->len) < 0)
			undelivered(d);
		break;
	default:
		break;
	}
}

int audit_emit(const struct audit_dest *d, const struct audit_record *r, const char *run)
{
	struct buf line = BUF_INIT, json = BUF_INIT;
	int rc = 0;
	if (audit_record_line(r, &line) < 0 || audit_record_json(r, &json) < 0) {
		errno = ENOMEM;
		rc = -1;
	} else {
		to_sink(d, r, run, &line, &json);
		if (d->log_fd >= 0)
			rc = audit_log_write(d->log_fd, json.data, json.len);
	}
	buf_free(&line);
	buf_free(&json);
	return rc;
}
