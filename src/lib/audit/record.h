/* SPDX-License-Identifier: ISC */
/*
 * record.h - an audit record (issue 16: the start and end of every spawn,
 * and a summary of each check and audit), formatted as the one syslog line
 * and as the one JSON object it is. Only the formatting: where records go
 * is the sink's business.
 *
 * The line is "KIND key=value ...": KIND first (start, end, check, audit,
 * credential),
 * then the fields in order. A value is a bare token when it is made only of
 * [A-Za-z0-9_.:/@+-] (names, numbers, ids), else a string in double
 * quotes in which `"`, `\` and every byte outside printable ASCII is
 * escaped (\" \\ \xHH): no newline, quote or control byte of an argument
 * can end the record or start a field. Lists are [v,v,...] of the same.
 */
#ifndef RUAS_AUDIT_RECORD_H
#define RUAS_AUDIT_RECORD_H

#include <stddef.h>

#include "buf.h"

enum audit_kind { AUDIT_START, AUDIT_END, AUDIT_CHECK, AUDIT_AUDIT, AUDIT_CREDENTIAL };

enum audit_type {
	AUDIT_STR,   /* s: any bytes but NUL; "-" when NULL */
	AUDIT_INT,   /* n */
	AUDIT_STRV,  /* v: NULL-terminated strings, each as AUDIT_STR */
	AUDIT_ARGV,  /* v, cut to max bytes each (0: whole); see audit_record_line */
};

struct audit_field {
	const char *key; /* [a-z_]+ */
	enum audit_type type;
	const char *s;
	long long n;
	const char *const *v;
	size_t max;
};

struct audit_record {
	enum audit_kind kind;
	const struct audit_field *fields;
	size_t nfields;
};

/* "start", "end", "check", "audit", "credential". */
const char *audit_kind_name(enum audit_kind kind);

/*
 * The syslog line, without a newline, appended to out. An AUDIT_ARGV field
 * with arguments longer than max bytes gives each of those as its first
 * max bytes, and after the list a field KEY_len=[i:len,...] with the index
 * and the original length of each one cut. 0, or -1 when out of memory.
 */
int audit_record_line(const struct audit_record *r, struct buf *out);

/*
 * The JSON object, one line with its newline, appended to out:
 * {"event":KIND, key: value, ...}, strings as JSON strings (bytes that are
 * not UTF-8 as \u00XX of each byte, so that every record parses), numbers
 * as numbers, lists as arrays; a cut AUDIT_ARGV adds "KEY_len":
 * {"i": len, ...}. 0, or -1 when out of memory.
 */
int audit_record_json(const struct audit_record *r, struct buf *out);

#endif
