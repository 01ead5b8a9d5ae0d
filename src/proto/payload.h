/* SPDX-License-Identifier: ISC */
/*
 * payload.h - PAYLOAD: what the library hands ruas-exec, the first message
 * of the spawn channel (channel.h), never on a command line.
 *
 * Body (codec.h): "RUAS", the version byte, the kind byte, then the kind's
 * fields in the order of struct payload. An exec payload comes with the
 * agent's stdin, stdout and stderr attached (SCM_RIGHTS); a check payload
 * with none. Version 10: binary (no hex), no report nonce (the report
 * comes back over the channel), the helper's own path in an exec payload
 * (the login shell runs it again, inside the run: agent.h). Version 11:
 * the target's name, and in an exec payload its passwd shell and home, as
 * the library looked them up: the helper reads no user database (it is
 * linked statically where it can be, and a static program must not load
 * NSS modules; see configure.ac, --enable-static-helper). Version 12: the
 * session (session.h) names the person whose private TMPDIR ruas-session
 * covers. Version 14: the helper says whether the agent's exec succeeded
 * (STARTED, started.h), which the library's ruas_spawn() waits for.
 * Version 15: STARTED names the agent's pid. Version 16: an exec payload
 * carries the run's rlimits (ruas.conf(5) "LIMITS"). Version 17: the
 * session says whether ruas-session keeps the run's cgroup (session.h),
 * and an exec payload names that cgroup. Version 18: a check payload names
 * the projects' commands (their first words), which the helper looks up in
 * its PATH as execvp would (REPORT's CMD). Version 19: an exec payload
 * names the run's credential gate (docs/credentials.md) and then comes
 * with a fourth descriptor, the library's end for the gate's connections.
 */
#ifndef RUAS_PROTO_PAYLOAD_H
#define RUAS_PROTO_PAYLOAD_H

#include <stddef.h>

#include "buf.h"

#define PAYLOAD_VERSION 19
enum payload_kind { PAYLOAD_EXEC = 1, PAYLOAD_CHECK = 2 };
/*
 * PAYLOAD_EXEC flags. EXEC_PTY: the agent's stdin is a pty slave that the
 * supervisor opened for it: the agent gets it as its controlling terminal
 * and becomes its foreground process group, and the helper reports the
 * agent's stops (control.h STOPPED, CONTINUED).
 */
enum { EXEC_PRIVATE_TMP = 1, EXEC_BWRAP = 2, EXEC_PTY = 4 };
#define EXEC_FLAGS_ALL (EXEC_PRIVATE_TMP | EXEC_BWRAP | EXEC_PTY)
/*
 * PAYLOAD_CHECK flags; CHECK_USERNS: can the target make the agent's PID
 * namespace? CHECK_ESC_KNOWN: the library holds this target's escalation
 * probes (sudo's, passwd -S, doas) from a check whose key still holds
 * (src/lib/check/probe_cache.h): the helper runs none, and takes sudo's
 * listing (for its secure_path) from known_listing.
 */
enum { CHECK_BWRAP = 1, CHECK_USERNS = 2, CHECK_ESC_KNOWN = 4 };
#define CHECK_FLAGS_ALL (CHECK_BWRAP | CHECK_USERNS | CHECK_ESC_KNOWN)
/*
 * How the agent's lifetime is owned (PAYLOAD_EXEC and session.h; see
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
	char *user; /* the target's name (both kinds): never empty, no '/' */
	/* PAYLOAD_EXEC */
	char *helper; /* ruas-exec's own absolute path: the login shell runs it again */
	char *shell;  /* the target's passwd shell, as found ("" for none: /bin/sh) */
	char *home;   /* the target's passwd home, as found ("" for none: /) */
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
	unsigned int lifetime; /* enum payload_lifetime */
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
	/*
	 * The run's rlimits, soft and hard, which the helper sets before the
	 * login shell starts: RLIMIT_NOFILE and RLIMIT_FSIZE (0: as the run
	 * gets them), and RLIMIT_CORE 0 unless core_dumps is 1.
	 */
	unsigned long long rlim_nofile;
	unsigned long long rlim_fsize;
	unsigned int core_dumps;
	/*
	 * The run's own cgroup, its path beneath the cgroup v2 mount as
	 * /proc/self/cgroup says it ("/ruas/run-ID"), or "" for none: the
	 * helper refuses to run anything of the target where it finds itself
	 * elsewhere (a PAM session of sudo's moved it). Version 17.
	 */
	char *cgroup;
	/*
	 * The run's credential gate: "" for none, else the abstract unix
	 * socket name (without its leading NUL) that the helper listens on,
	 * PAYLOAD_CREDENTIALS_PREFIX and 32 lower-case hex digits that the
	 * library drew; the agent gets it as RUAS_CREDENTIALS=@NAME, and the
	 * PID namespace's init passes each connection to the fourth
	 * descriptor (pidns.h PIDNS_GATE). Version 19.
	 */
	char *credentials;
	/*
	 * With a gate, the hosts whose git credentials it serves, each
	 * "PROTOCOL HOST NAME USER" (http or https, a host and optional
	 * :port, a credential's name, the user name git gets): the helper
	 * sets the run's GIT_CONFIG_COUNT, _KEY_n and _VALUE_n from them, so
	 * that git asks git-credential-ruas for those hosts. Version 19.
	 */
	char **git_hosts;
	size_t ngit_hosts;
	/* PAYLOAD_CHECK */
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
	char *known_listing; /* CHECK_ESC_KNOWN: the kept `sudo -n -l` ("" otherwise) */
	/*
	 * NULL-terminated "DEPTH PATH": the table's trees (anchors.h) that the
	 * library judges itself, once for all targets (src/lib/host/table.h),
	 * each to DEPTH levels: the helper judges such a tree's own path, the
	 * directories above it and the links on the way, but not what is in it.
	 */
	char **judged_trees;
	size_t njudged_trees;
	/*
	 * NULL-terminated, each non-empty: the first word of each distinct
	 * project command of this target, looked up as the target in the PATH
	 * of its login environment (REPORT's CMD records, by index). Version 18.
	 */
	char **commands;
	size_t ncommands;
};

#define PAYLOAD_CREDENTIALS_PREFIX "ruas-credentials-"
/* Is e a payload's git host: "http[s] HOST NAME USER", each of a shell-safe alphabet? 1 or 0. */
int payload_git_host_ok(const char *e);
/* Is name a payload's credentials gate: "" or the prefix and 32 lower-case hex digits? 1 or 0. */
int payload_credentials_ok(const char *name);
/* Is id a payload's run id: "" or 32 lower-case hex digits? 1 or 0. */
int payload_run_id_ok(const char *id);
/* Is f a payload's audit facility: 0, or one audit_facility can name, plus 1? 1 or 0. */
int payload_facility_ok(unsigned int f);

/* Appends the body of p to out. 0, or -1 on OOM or a payload that may not be sent. */
int payload_encode(const struct payload *p, struct buf *out);
/*
 * Decodes len bytes into *out (zeroed first). 0, or -1 with *why set to a
 * static reason. Strict: a short body, bad counts or flags, an embedded
 * NUL, an unknown version or kind, or trailing bytes are all refused.
 */
int payload_decode(const void *data, size_t len, struct payload *out, const char **why);
void payload_free(struct payload *p);

/*
 * HELLO: the helper's first message, before the library sends PAYLOAD. The
 * helper sends it only once it holds the channel itself (a socket, its
 * peer the supervisor), so the payload never lands in what sudo put in
 * between (log_input's pipe, and its I/O log). Body: "RUAS" and the
 * helper's PAYLOAD_VERSION byte; PAYLOAD_HELLO_FRAME bytes with the
 * channel's header, which is all the library reads before PAYLOAD.
 */
#define PAYLOAD_HELLO_BODY 5
#define PAYLOAD_HELLO_FRAME (5 + PAYLOAD_HELLO_BODY)
int payload_hello_encode(struct buf *out);
/* 0 with *version set (any, for the caller to compare), or -1: not a HELLO body. */
int payload_hello_decode(const void *body, size_t len, unsigned int *version);

#endif
