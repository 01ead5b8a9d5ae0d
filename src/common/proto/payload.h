/*
 * payload.h - what the supervisor hands to ruas-exec and ruas-session, as
 * a message of the spawn channel (channel.h), never on a command line.
 *
 * Lower-case hex, from the days when it crossed sudo -i's escaping as an
 * argument. Inside: "RUAS", version, kind, then fields, each string a
 * 32-bit big-endian length and its bytes (no NUL allowed). Version 6: the
 * channel; a session payload's inner is "", since ruas-exec's own payload
 * follows on the channel. Version 7: an exec payload ends with its root.
 * Version 9: then its run id and audit facility.
 */
#ifndef RUAS_PAYLOAD_H
#define RUAS_PAYLOAD_H

#include <stddef.h>

#include "buf.h"

#define PAYLOAD_VERSION 9
enum payload_kind { PAYLOAD_EXEC = 1, PAYLOAD_CHECK = 2, PAYLOAD_SESSION = 3 };
enum session_mode { SESSION_EXEC = 1, SESSION_CHECK = 2 };
/*
 * PAYLOAD_EXEC flags. EXEC_PTY: the agent's stdin is a pty slave that the
 * supervisor opened for it: the agent gets it as its controlling terminal
 * and becomes its foreground process group, and the helper reports the
 * agent's stops (channel.h STOPPED, CONTINUED).
 */
enum { EXEC_PRIVATE_TMP = 1, EXEC_BWRAP = 2, EXEC_PTY = 4 };
/* PAYLOAD_CHECK flags; CHECK_USERNS: can the target make the agent's PID namespace? */
enum { CHECK_BWRAP = 1, CHECK_USERNS = 2 };
/*
 * How the agent's lifetime is owned (PAYLOAD_EXEC and PAYLOAD_SESSION; see
 * src/common/pidns.h): the subreaper alone, a PID namespace or nothing, or
 * a PID namespace where one can be made and the subreaper where not.
 */
enum payload_lifetime { LIFETIME_SUBREAPER = 0, LIFETIME_PIDNS = 1, LIFETIME_AUTO = 2 };

struct payload_dir {
	char *work_dir;
	char *scope; /* "" or the person's scope that work_dir must resolve inside */
	char **prune; /* NULL-terminated */
	size_t nprune;
};

struct payload {
	int kind;
	/* PAYLOAD_EXEC */
	char *work_dir;
	char *scope; /* "" or the person's scope: enter work_dir only through it */
	char **env_names;  /* nenv entries */
	char **env_values; /* nenv entries */
	size_t nenv;
	char **argv; /* NULL-terminated, argc >= 1 */
	size_t argc;
	/*
	 * The supervisor to watch (0: none) and its start time in clock ticks
	 * (/proc/PID/stat field 22), so that a recycled pid is not mistaken
	 * for it; and the grace between SIGTERM and SIGKILL of the agent's tree.
	 */
	unsigned int supervisor_pid;
	unsigned long long supervisor_start;
	unsigned int grace_seconds;
	unsigned int exec_flags;
	char *person; /* "" or the person id (names the private TMPDIR) */
	char **deny;  /* NULL-terminated; masked with bwrap when EXEC_BWRAP */
	size_t ndeny;
	unsigned int lifetime; /* EXEC and SESSION: enum payload_lifetime */
	/*
	 * "" (work_dir is the project's own), or the project's work_dir, which
	 * a per-spawn work_dir must resolve beneath: entered first (through
	 * the scope when there is one), then work_dir beneath it.
	 */
	char *root;
	/*
	 * The audit's run id ("" or 32 lower-case hex digits), the agent's
	 * RUAS_RUN_ID; and the syslog facility (<syslog.h>'s LOG_*, shifted)
	 * plus 1 at which the helper records the run's end itself when the
	 * supervisor dies, or 0 for no such record (the supervisor's sink is
	 * not syslog).
	 */
	char *run_id;
	unsigned int audit_facility;
	/* PAYLOAD_CHECK */
	char *nonce;
	char *sudo_path;
	unsigned int scan_cap;
	unsigned int scan_seconds;
	struct payload_dir *dirs;
	size_t ndirs;
	unsigned int check_flags;
	char **probes; /* NULL-terminated: paths to try to open as the target (audit) */
	size_t nprobes;
	char **anchors; /* NULL-terminated "ID PATH": trust anchors the library knows (anchors.h) */
	size_t nanchors;
	/* PAYLOAD_SESSION: for ruas-session, the pam backend's root side */
	char *user;
	char *service;
	char *ruser;       /* the supervisor, for PAM_RUSER */
	char *tty;         /* the caller's terminal, for PAM_TTY: "/dev/..." or "" for none */
	unsigned int mode; /* enum session_mode */
	char *helper;      /* ruas-exec */
	char *inner;       /* ruas-exec's own payload, hex */
};

/*
 * Is t a session payload's tty: "" or what ttyname(3) gives, /dev/... of
 * printable ASCII without a ".." component, at most 255 bytes (what PAM
 * modules log and match on)? 1 or 0.
 */
int payload_tty_ok(const char *t);
/* Is id a payload's run id: "" or 32 lower-case hex digits? 1 or 0. */
int payload_run_id_ok(const char *id);
/* Is f a payload's audit facility: 0, or one audit_facility can name, plus 1? 1 or 0. */
int payload_facility_ok(unsigned int f);

/* Appends the hex encoding of p to out. 0, or -1 on OOM or invalid payload. */
int payload_encode(const struct payload *p, struct buf *out);
/*
 * Decodes hex into *out (zeroed first). 0, or -1 with *why set to a static
 * reason. Strict: odd length, upper case, bad counts, embedded NUL, unknown
 * version or trailing bytes are all refused.
 */
int payload_decode(const char *hex, struct payload *out, const char **why);
void payload_free(struct payload *p);

/* Lower-case hex of len bytes, appended to out. */
int hex_encode(struct buf *out, const void *data, size_t len);
/* Decodes lower-case hex; -1 on any other byte or an odd length. */
int hex_decode(const char *hex, size_t hexlen, struct buf *out);

#endif
