/*
 * wire.h - what ruas-exec prints back in check mode: the grammar, the
 * records as the library reads them, and the parser (wire_parse.c). The
 * writer, ruas-exec's half, is wire_write.h; what both share is wire.c.
 *
 * The target's login shell runs its profile before the helper, and a
 * profile may print anything. The helper's records therefore sit between
 * two marker lines carrying a nonce that only this call knows:
 *
 *   ruas-report-begin NONCE
 *   esc TRUE_RC LIST_RC HEX(sudo -n -l output) CUT(0|1)      (no terminal)
 *   esctty TRUE_RC LIST_RC HEX(sudo -n -l output) CUT(0|1)   (on a pty of its own)
 *   gids G[,G...]                      (the session's egid and groups)
 *   dir I ok
 *   dir I denied HEX(path) MISSING(r|x|rx) MODE(octal) HEX(owner)
 *   dir I missing HEX(path) ERRNO
 *   dir I escape HEX(why)
 *   item I HEX(path) FLAGS MODE(octal) HEX(owner)
 *   scan I TOTAL ENTRIES INCOMPLETE(0|1)
 *   bwrap RC HEX(output)              (when asked: can bubblewrap run?)
 *   lifetime ERRNO HEX(why)           (when asked: can the target make the agent's
 *                                      PID namespace, src/common/pidns.h? 0: yes)
 *   probe K readable|denied|missing   (audit: can the target open path K?)
 *   anchor HEX(path) HOW REL ID MODE(octal) HEX(owner) HEX(group) ACL(0|1) HEX(anchor)
 *   anchors TOTAL
 *   ruas-report-end NONCE
 *
 * `anchor` names a trust anchor (src/common/anchors.h) that the target can write,
 * one record per failing path, at most ANCHOR_REPORT_CAP of them; `anchors`
 * (required) gives the count of all failing paths, so that a truncated list
 * shows. HOW is o (the target owns it), w (it may write it) or r (it may
 * read a device); REL is self, parent, inside or link (src/helper/exec/anchor_probe.h);
 * ID an entry of the table.
 *
 * I indexes the payload's dirs. RCs are exit codes, 128+signal, or
 * -errno when the command could not be started.
 *
 * The pam backend's check adds one line of ruas-session's own, after a
 * newline of its own, before it starts ruas-exec (so before the target's
 * profile and the report):
 *
 *   ruas-session-acct ok
 *   ruas-session-acct fail HEX(PAM's reason)    (pam_acct_mgmt refused)
 *
 * and, after it, one more: can root make the agent's PID namespace?
 *
 *   ruas-session-pidns ok
 *   ruas-session-pidns fail HEX(why)
 *
 * session_acct.h writes and reads both.
 */
#ifndef RUAS_WIRE_H
#define RUAS_WIRE_H

#define WIRE_BEGIN "ruas-report-begin"
#define WIRE_END "ruas-report-end"

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

struct scan_item {
	char *path;
	unsigned int flags;
	unsigned int mode;
	char *owner;
};

enum dir_state { DIR_UNKNOWN = 0, DIR_OK, DIR_DENIED, DIR_MISSING, DIR_ESCAPE };

struct dir_result {
	int state;
	char *path;        /* DENIED, MISSING: the component at fault; ESCAPE: why */
	char missing[3];   /* DENIED: "r", "x" or "rx" */
	unsigned int mode; /* DENIED */
	char *owner;       /* DENIED */
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
	char how;    /* 'o', 'w', 'r', 'd' (a default ACL entry) or 'c' (a cap: not fully judged) */
	int rel;     /* enum anchor_rel_wire */
	char id[33]; /* [a-z0-9-], as the table's */
	unsigned int mode;
	char *owner;
	char *group;
	int acl;
	char *anchor;
};

enum probe_verdict { PROBE_UNKNOWN = 0, PROBE_READABLE, PROBE_DENIED, PROBE_MISSING };

struct helper_report {
	int complete; /* both markers seen */
	int bwrap_seen, bwrap_rc;
	char *bwrap_out;
	int lifetime_seen, lifetime_errno; /* the PID namespace probe; 0: it works */
	char *lifetime_why;
	int probes[256]; /* enum probe_verdict by probe index */
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
	int anchors_seen;
	unsigned long long anchors_total;
	struct anchor_hit *anchors; /* nanchors <= ANCHOR_REPORT_CAP */
	size_t nanchors;
};

/* 0 when a complete, well-formed report for this nonce was found; else -1. */
int helper_report_parse(const char *out, size_t len, const char *nonce,
			size_t ndirs, struct helper_report *r);
void helper_report_free(struct helper_report *r);

/*
 * Shared by both halves (wire.c). The words of REL ("?" for none) and of a
 * probe's verdict, and back: 0 (PROBE_UNKNOWN) for a word that is none.
 */
const char *wire_rel_word(int rel);
int wire_rel_of(const char *word);
const char *wire_probe_word(int verdict);
int wire_probe_of(const char *word);
/* Frees n scan items and the array: the scan's result and the parsed report hold them. */
void scan_items_free(struct scan_item *items, size_t n);

#endif
