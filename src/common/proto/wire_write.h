/*
 * wire_write.h - ruas-exec's half of the check report: one function per
 * record of the grammar in wire.h, which also has the parser (the
 * library's half). Each writes one whole line to `out`; the caller checks
 * the stream once, with fflush() and ferror(), when the report ends.
 */
#ifndef RUAS_WIRE_WRITE_H
#define RUAS_WIRE_WRITE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "wire.h"

/*
 * "ruas-report-begin NONCE", after a newline of its own: the profile may
 * have left a line unfinished.
 */
void wire_write_begin(FILE *out, const char *nonce);
void wire_write_end(FILE *out, const char *nonce);

/* esc (tty 0) or esctty (tty 1): sudo -n true, sudo -n -l and its output, cut or not. */
void wire_write_esc(FILE *out, int tty, int true_rc, int list_rc, const char *list, int cut);

/* gids: egid, then the n supplementary groups; n < 0 (unreadable) writes a gid the parser refuses. */
void wire_write_gids(FILE *out, gid_t egid, const gid_t *groups, int n);

/*
 * dir I: DIR_ESCAPE (d->path says why), DIR_DENIED, DIR_MISSING, and ok for
 * any other state. A NULL path or owner is written as "?".
 */
void wire_write_dir(FILE *out, size_t idx, const struct dir_result *d);
void wire_write_item(FILE *out, size_t idx, const struct scan_item *it);
void wire_write_scan(FILE *out, size_t idx, unsigned long long total,
		     unsigned long long entries, int incomplete);

void wire_write_bwrap(FILE *out, int rc, const char *output);
/* lifetime ERRNO HEX(why): can the target make the agent's PID namespace (0: yes)? */
void wire_write_lifetime(FILE *out, int errnum, const char *why);
/* probe K: verdict is an enum probe_verdict other than PROBE_UNKNOWN. */
void wire_write_probe(FILE *out, size_t idx, int verdict);

/* An anchor record to write (the parser fills struct anchor_hit, which owns its strings). */
struct wire_anchor {
	const char *path;
	char how;    /* as anchor_hit.how */
	int rel;     /* enum anchor_rel_wire */
	const char *id;
	unsigned int mode;
	const char *owner; /* NULL: "?" */
	const char *group; /* NULL: "?" */
	int acl;
	const char *anchor;
};

void wire_write_anchor(FILE *out, const struct wire_anchor *a);
/* anchors TOTAL: required, after the anchor records. */
void wire_write_anchors(FILE *out, size_t total);

#endif
