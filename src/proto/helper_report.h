/* SPDX-License-Identifier: ISC */
/*
 * helper_report.h - REPORT: what the helpers send back over the channel in
 * check mode (channel.h), the records as the library reads them, and the
 * one decoder (helper_report_read.c). The encoders, the helpers' half, are
 * helper_report_write.h; what both share is helper_report.c.
 *
 * The channel is the helper's alone (no login file runs in a check, and
 * nothing of the target's holds the channel), so no framing against forged
 * output is needed: the report is one message, and what the helper's
 * stdout and stderr say is only for a person to read.
 *
 * Body (codec.h): the origin byte (REPORT_FROM_SESSION: ruas-session, the
 * pam backend's root side, before ruas-exec runs; REPORT_FROM_HELPER:
 * ruas-exec), then records, each a tag byte and its fields:
 *
 *   from ruas-exec
 *   ESC     u8 tty (0: no terminal, 1: on a pty of its own), i32 TRUE_RC,
 *           i32 LIST_RC, str (sudo -n -l output), u8 CUT
 *   GIDS    u32 count (>= 1), u32 gid... (the session's egid, then its groups)
 *   DIR     u32 I, u8 state: OK | DENIED str(path) str(missing: r, x or rx)
 *           u32 MODE u32 UID | MISSING str(path) i32 ERRNO | ESCAPE str(why)
 *   ITEM    u32 I, str(path), u32 FLAGS (1..7), u32 MODE, u32 UID
 *   SCAN    u32 I, u64 TOTAL, u64 ENTRIES, u8 INCOMPLETE
 *   BWRAP   i32 RC, str(output)                (when asked: can bubblewrap run?)
 *   LIFETIME i32 ERRNO, str(why)               (when asked: can the target make
 *                                               the agent's PID namespace? 0: yes)
 *   PROBE   u32 K, u8 verdict                  (audit: can the target open path K?)
 *   ANCHOR  str(path), u8 HOW, u8 REL, str(ID), u32 MODE, u32 UID,
 *           u32 GID, u8 ACL, str(anchor)
 *   ANCHORS u64 TOTAL                          (required, after the ANCHOR records)
 *   PASSWD  i32 RC, str(output)                (`passwd -S`: the target's own
 *                                               password status, as passwd says it)
 *   DOAS    i32 RC, str(output)                (`doas -n true`, where doas is
 *                                               installed: 0 is root without a password)
 *   RLIMITS u64 NOFILE, u64 FSIZE             (the hard RLIMIT_NOFILE and RLIMIT_FSIZE
 *                                               the target's runs get from sudo or PAM;
 *                                               UINT64_MAX: unlimited)
 *   CMD     u32 K, u8 state, str, str          (a project's command looked up in the
 *                                               login PATH: helper_report_cmd.h)
 *
 *   from ruas-session
 *   ACCT    u8 ok, str(PAM's reason when not ok)
 *   PIDNS   i32 ERRNO, str(why)                (can root make the agent's PID
 *                                               namespace? 0: yes)
 *
 * ANCHOR names a trust anchor (src/common/anchors.h) that the target can
 * write, one record per failing path, at most ANCHOR_REPORT_CAP of them;
 * ANCHORS gives the count of all failing paths, so that a truncated list
 * shows. HOW is o (the target owns it), w (it may write it), r (it may
 * read a device), d (a default ACL entry) or c (a capability: not fully
 * judged); REL is self, parent, inside or link
 * (src/helper/exec/anchor_probe.h); ID an entry of the table. I indexes
 * the payload's dirs. RCs are exit codes, 128+signal, or -errno when the
 * command could not be started. A record that repeats, is out of range or
 * is of the other origin makes the whole report invalid; a helper's report
 * without ESC (both), GIDS and ANCHORS is invalid too.
 *
 * Owners and groups travel as numbers: the helper reads no user database
 * (payload.h, version 11), and the library names them
 * (src/lib/check/report_names.h) into the owner and group fields, which
 * the decoder leaves NULL.
 */
#ifndef RUAS_PROTO_HELPER_REPORT_H
#define RUAS_PROTO_HELPER_REPORT_H

#include <stddef.h>

#include "helper_report_cmd.h"

enum report_origin { REPORT_FROM_SESSION = 1, REPORT_FROM_HELPER = 2 };
enum report_tag {
	REC_ESC = 1,
	REC_GIDS,
	REC_DIR,
	REC_ITEM,
	REC_SCAN,
	REC_BWRAP,
	REC_LIFETIME,
	REC_PROBE,
	REC_ANCHOR,
	REC_ANCHORS,
	REC_ACCT,
	REC_PIDNS,
	REC_PASSWD,
	REC_DOAS,
	REC_ESC_KNOWN, /* in place of esc, esctty, passwd and doas: the payload said CHECK_ESC_KNOWN */
	REC_RLIMITS,
	REC_CMD, /* helper_report_cmd.h */
};
/* The most probes one audit sends (their verdicts index helper_report.probes). */
#define REPORT_MAX_PROBES 256

/*
 * The scan recurses once per level and holds one open directory per level,
 * so depth is what bounds its stack and memory, whatever RLIMIT_NOFILE
 * allows: a target user can build a tree of any depth in its own work_dir.
 * Deeper directories are not entered (their siblings still are) and the scan
 * is marked incomplete. 256 stays well below the usual soft RLIMIT_NOFILE of
 * 1024, whose EMFILE would end the whole walk instead. The scan's parallel
 * workers each hold up to that many, so it runs fewer workers when the
 * limit cannot hold them all (src/helper/exec/scan.h, SCAN_FDS_PER_WORKER).
 */
#define SCAN_MAX_DEPTH 256u

enum scan_flag {
	SCAN_NOT_READABLE = 1,
	SCAN_NOT_WRITABLE = 2,
	SCAN_NOT_SEARCHABLE = 4,
};

/* A scan item's uid when its owner could not be read (no uid is (uid_t)-1). */
#define REPORT_UID_UNKNOWN 0xffffffffu

struct scan_item {
	char *path;
	unsigned int flags;
	unsigned int mode;
	unsigned int uid;
	char *owner; /* the library's name for uid, or NULL */
};

enum dir_state { DIR_UNKNOWN = 0, DIR_OK, DIR_DENIED, DIR_MISSING, DIR_ESCAPE };

struct dir_result {
	int state;
	char *path;        /* DENIED, MISSING: the component at fault; ESCAPE: why */
	char missing[3];   /* DENIED: "r", "x" or "rx" */
	unsigned int mode; /* DENIED */
	unsigned int uid;  /* DENIED */
	char *owner;       /* DENIED: the library's name for uid, or NULL */
	int errnum;        /* MISSING */
	struct scan_item *items;
	size_t nitems;
	unsigned long long total, entries;
	int incomplete;
	int scanned;
};

#define ANCHOR_REPORT_CAP 64u

enum anchor_rel_wire { AREL_SELF = 1, AREL_PARENT, AREL_INSIDE, AREL_LINK };

struct anchor_hit {
	char *path;
	char how;    /* 'o', 'w', 'r', 'd' (a default ACL entry) or 'c' (a cap: not fully judged); the
			library's own walk (src/lib/host) adds 'h' (a directory it could not list) and
			't' (the walk ran out of time: path lists the trees, anchor the seconds) */
	int rel;     /* enum anchor_rel_wire */
	char id[33]; /* [a-z0-9-], as the table's */
	unsigned int mode;
	unsigned int uid, gid;
	char *owner; /* the library's names for uid and gid, or NULL */
	char *group;
	int acl;
	char *anchor;
};

enum probe_verdict { PROBE_UNKNOWN = 0, PROBE_READABLE, PROBE_DENIED, PROBE_MISSING };

struct helper_report {
	int complete; /* a whole, valid report of the helper's came */
	int esc_known; /* the helper ran no escalation probe: the library holds them (probe_cache.h) */
	int bwrap_seen, bwrap_rc;
	char *bwrap_out;
	int lifetime_seen, lifetime_errno; /* the PID namespace probe; 0: it works */
	char *lifetime_why;
	int passwd_seen, passwd_rc; /* `passwd -S` as the target: its exit code and output */
	char *passwd_out;
	int doas_seen, doas_rc; /* `doas -n true` as the target (doas installed) */
	char *doas_out;
	int probes[REPORT_MAX_PROBES]; /* enum probe_verdict by probe index */
	int esc_seen;
	int true_rc, list_rc; /* sudo -n true, sudo -n -l without a terminal */
	char *list_out;
	int esctty_seen;
	int tty_true_rc, tty_list_rc; /* the same on a pty */
	char *tty_list_out;
	int list_cut, tty_list_cut; /* the listing was longer than the helper keeps */
	int gids_seen;
	unsigned long *gids; /* the login session's groups, as the helper had them */
	size_t ngids;
	struct dir_result *dirs;
	size_t ndirs;
	int rlimits_seen; /* the hard limits a run gets (ruas.conf(5) LIMITS judges them) */
	unsigned long long hard_nofile, hard_fsize; /* UINT64_MAX: unlimited */
	int anchors_seen;
	unsigned long long anchors_total;
	struct anchor_hit *anchors; /* nanchors <= ANCHOR_REPORT_CAP */
	size_t nanchors;
	struct cmd_results cmds; /* CMD records by the payload's command index */
};

/* ruas-session's verdicts (pam backend), from its REPORT. */
enum session_acct { SESSION_ACCT_NONE = 0, SESSION_ACCT_OK, SESSION_ACCT_FAIL };
struct session_report {
	int acct;     /* enum session_acct */
	char *reason; /* FAIL: PAM's reason */
	int pidns_seen;
	int pidns_errno; /* 0: root can make the agent's PID namespace */
	char *pidns_why;
};

/* One REPORT, decoded: its origin says which half is filled. */
struct report {
	int origin; /* enum report_origin */
	struct session_report session;
	struct helper_report helper;
};

/*
 * Decodes one REPORT body. ndirs is how many dirs the check's payload
 * sent (a helper's DIR, ITEM and SCAN must index one of them). 0 with
 * *out filled (a helper's with complete set); -1 with *why a static
 * reason and *out empty.
 */
int report_decode(const void *body, size_t len, size_t ndirs, struct report *out,
		  const char **why);
void report_free(struct report *r);
void helper_report_free(struct helper_report *r);
void session_report_free(struct session_report *s);

/* Frees n scan items and the array: the scan's result and the decoded report hold them. */
void scan_items_free(struct scan_item *items, size_t n);

#endif
