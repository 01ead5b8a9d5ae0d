/* SPDX-License-Identifier: ISC */
/*
 * syslog_send.h - one message to the local syslog socket, without syslog(3).
 *
 * syslog(3) keeps its ident, facility and socket in process-wide state that
 * openlog() sets: a library that called it would rename the embedder's own
 * log lines, and two threads could race on it. This sends each message on
 * a socket of its own, in the form glibc's syslog(3) sends (RFC 3164:
 * "<PRI>Mmm dd hh:mm:ss TAG[PID]: MESSAGE"), which journald, rsyslog and
 * syslog-ng all parse, and keeps nothing between calls.
 */
#ifndef RUAS_SYSLOG_SEND_H
#define RUAS_SYSLOG_SEND_H

/* The socket: /dev/log, unless the caller names another (tests). */
#define SYSLOG_SEND_PATH "/dev/log"

/*
 * The longest datagram sent: rsyslog's default maxMessageSize (journald
 * takes more). A longer message is cut to fit rather than dropped; callers
 * that know their message's structure cut it better first (audit/sink.c).
 */
#define SYSLOG_SEND_MAX 8192

/* How long one message may take at most: a syslogd that stops reading never stalls a run. */
#define SYSLOG_SEND_MS 250

/*
 * Sends msg (no newline; any byte but NUL is sent as it is, so escape
 * first) with priority facility | severity (<syslog.h>'s LOG_* values) and
 * the tag "tag[getpid()]". A datagram socket first, a stream socket (with
 * a NUL after the message, as glibc does) when the path is one. path NULL:
 * SYSLOG_SEND_PATH. Never blocks past SYSLOG_SEND_MS: a receiver whose
 * queue is full, or that never accepts, is -1 with ETIMEDOUT. 0, or -1
 * with errno.
 */
int syslog_send(const char *path, int facility, int severity, const char *tag, const char *msg);

#endif
