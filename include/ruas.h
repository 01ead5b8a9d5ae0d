/*
 * ruas.h - run as user, safely.
 *
 * libruas loads a configuration of projects, checks before anything starts
 * that each project's OS-user boundary is real, and spawns a project's agent
 * as its run_as_user: through `sudo -n -u USER -- ruas-exec`, which enters
 * the run's confinement and only then runs the user's login shell, with
 * the user's login environment (docs/backends.md).
 *
 * Conventions (after libgit2):
 *   - every type is opaque and has its own ruas_<noun>_free();
 *   - functions return 0 on success and a negative ruas_code on failure;
 *     when `err` is not NULL a ruas_error is stored there, which the caller
 *     frees with ruas_error_free();
 *   - options structs carry a version and have an _INIT macro;
 *   - the library never prints, never calls exit(), keeps no global state
 *     and may be used from several threads at once: distinct handles need no
 *     locking, a ruas_config may be shared read-only between threads, and a
 *     ruas_child may be waited on by one thread while others signal it.
 */
#ifndef RUAS_H
#define RUAS_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(RUAS_BUILDING_LIBRARY)
#define RUAS_EXTERN __attribute__((visibility("default")))
#else
#define RUAS_EXTERN
#endif

#define RUAS_VERSION "0.1.0"

/* Return codes. */
typedef enum {
	RUAS_OK = 0,
	RUAS_ERR_CONFIG = -1,   /* configuration refused: syntax, keys, values */
	RUAS_ERR_NOTFOUND = -2, /* no such project */
	RUAS_ERR_SYSTEM = -3,   /* a system call failed; see the message */
	RUAS_ERR_INVALID = -4,  /* invalid argument from the caller */
	RUAS_ERR_NOMEM = -5,    /* out of memory */
	RUAS_ERR_TOOLONG = -6,  /* arguments too long for the agent's exec */
	RUAS_ERR_ESCAPE = -7,   /* a path leaves the directory it must stay in */
	RUAS_ERR_START = -8     /* the agent did not start: see ruas_error_stage() */
} ruas_code;

/*
 * Where a start failed (RUAS_ERR_START from ruas_spawn()); RUAS_STAGE_NONE
 * for every other error.
 */
typedef enum {
	RUAS_STAGE_NONE = 0,
	RUAS_STAGE_SUDO = 1,     /* sudo or PAM refused the switch to run_as_user: no rule, a
				    password required, an expired or locked account */
	RUAS_STAGE_WORK_DIR = 2, /* the working directory could not be entered */
	RUAS_STAGE_EXEC = 3,     /* the agent's exec failed (ENOENT, EACCES, ENOEXEC, E2BIG...) */
	RUAS_STAGE_LOGIN = 4,    /* the target's login shell or login files never ran the agent:
				    a nologin shell, a login file that exited, no start in 60 s */
	RUAS_STAGE_HELPER = 5    /* ruas's own helper could not set up the run */
} ruas_stage;

/* ---------------------------------------------------------------- errors */

typedef struct ruas_error ruas_error;

RUAS_EXTERN ruas_code ruas_error_code(const ruas_error *err);
/* The full message, one line, naming the file, line, project and fix where known. */
RUAS_EXTERN const char *ruas_error_message(const ruas_error *err);
/*
 * The file the error is about, or NULL: the configuration file; for
 * RUAS_ERR_START at RUAS_STAGE_EXEC the command that could not be run, at
 * RUAS_STAGE_WORK_DIR the directory.
 */
RUAS_EXTERN const char *ruas_error_file(const ruas_error *err);
/* The line in that file, or 0 when libconfig gave none. */
RUAS_EXTERN int ruas_error_line(const ruas_error *err);
/*
 * The errno of the system call whose failure is the error: always for
 * RUAS_ERR_SYSTEM; for another code when a system call's failure is why
 * (RUAS_ERR_CONFIG: a configuration file that cannot be opened, ENOENT;
 * RUAS_ERR_INVALID: a descriptor given that is not open, EBADF;
 * RUAS_ERR_ESCAPE: the path's own error, such as ELOOP or EXDEV;
 * RUAS_ERR_START: the exec's or the work_dir's, such as ENOENT, EACCES,
 * ENOEXEC or E2BIG, and 0 for a refusal with none, such as sudo's); else 0.
 */
RUAS_EXTERN int ruas_error_errno(const ruas_error *err);
/* For RUAS_ERR_START, where the start failed; else RUAS_STAGE_NONE. */
RUAS_EXTERN ruas_stage ruas_error_stage(const ruas_error *err);
RUAS_EXTERN void ruas_error_free(ruas_error *err);

/* --------------------------------------------------------- configuration */

typedef struct ruas_config ruas_config;
typedef struct ruas_project ruas_project; /* borrowed from its ruas_config */

#define RUAS_CONFIG_OPTIONS_VERSION 1
typedef struct {
	unsigned int version;
	/*
	 * The supervisor's uid: a run_as_user with this uid is refused.
	 * (uid_t)-1 (the default) means geteuid().
	 */
	uid_t supervisor_uid;
	/*
	 * Non-zero: skip the check that the file is owned by root or the
	 * supervisor and writable by nobody else. Only for tests.
	 */
	int skip_owner_check;
} ruas_config_options;
#define RUAS_CONFIG_OPTIONS_INIT {RUAS_CONFIG_OPTIONS_VERSION, (uid_t)-1, 0}

/*
 * Load and validate a configuration file. On RUAS_ERR_CONFIG the error names
 * the file, the line where libconfig gives one, and the reason. opts may be NULL.
 */
RUAS_EXTERN int ruas_config_load(ruas_config **out, const char *path,
				 const ruas_config_options *opts, ruas_error **err);
/* The same from memory; `name` is used in messages in place of a path. */
RUAS_EXTERN int ruas_config_load_buffer(ruas_config **out, const char *text,
					size_t len, const char *name,
					const ruas_config_options *opts,
					ruas_error **err);
RUAS_EXTERN void ruas_config_free(ruas_config *cfg);
/*
 * How many audit records of this configuration's calls (and of the runs it
 * started) no sink took: a syslogd that stopped reading (each send gives up
 * after 250 ms rather than block the run), a sink descriptor that refused
 * the write. Never lost in silence: a supervisor may report it, and ruas
 * does (docs/audit.md). The audit_log file's failures are errors instead.
 */
RUAS_EXTERN unsigned long ruas_config_audit_undelivered(const ruas_config *cfg);

RUAS_EXTERN const char *ruas_config_path(const ruas_config *cfg);
/* The sudo binary and the ruas-exec helper the configuration uses. */
RUAS_EXTERN const char *ruas_config_sudo(const ruas_config *cfg);
RUAS_EXTERN const char *ruas_config_helper(const ruas_config *cfg);
RUAS_EXTERN size_t ruas_config_project_count(const ruas_config *cfg);
RUAS_EXTERN const ruas_project *ruas_config_project_at(const ruas_config *cfg,
							size_t i);
/* NULL when no project has this name. */
RUAS_EXTERN const ruas_project *ruas_config_project_find(const ruas_config *cfg,
							  const char *name);

RUAS_EXTERN const char *ruas_project_name(const ruas_project *p);
RUAS_EXTERN const char *ruas_project_work_dir(const ruas_project *p);
/* NULL when the project runs as the supervisor (legacy mode). */
RUAS_EXTERN const char *ruas_project_run_as_user(const ruas_project *p);
/* The person the project is scoped to, or NULL. */
RUAS_EXTERN const char *ruas_project_person(const ruas_project *p);
/* NULL-terminated; never empty. */
RUAS_EXTERN const char *const *ruas_project_command(const ruas_project *p);
/*
 * "sudo" or "pam", with backend = "auto" resolved for this process (pam when
 * it runs as root); "none" for a project without run_as_user.
 */
RUAS_EXTERN const char *ruas_project_backend(const ruas_project *p);
/* Seconds between SIGTERM and SIGKILL of the agent's tree (terminate_grace). */
RUAS_EXTERN unsigned int ruas_project_terminate_grace(const ruas_project *p);
/* The effective allowlist (global plus the project's additions), NULL-terminated. */
RUAS_EXTERN const char *const *ruas_project_env_allowlist(const ruas_project *p);
/*
 * The effective target_sudo_allowed (global plus the project's): commands,
 * as sudo -l prints them, that the target may run as another user without
 * a password with only a warning. NULL-terminated, possibly empty.
 */
RUAS_EXTERN const char *const *ruas_project_target_sudo_allowed(const ruas_project *p);

/* ------------------------------------------ configuration built in code */

/*
 * A configuration from the embedder's own store, with no configuration text
 * anywhere: ruas_config_new(), ruas_config_set_people() when it serves
 * people, then ruas_config_add_project() for each project. Each value
 * meets the rules of the same key in ruas.conf(5), in the same order and
 * with the same messages, only without a file and line:
 * RUAS_ERR_CONFIG, ruas_error_file() NULL, ruas_error_line() 0, and the
 * message without its "FILE:LINE: " prefix. What only a file can get wrong
 * (syntax, types, unknown keys) has no counterpart here.
 *
 * In the structs below a NULL pointer, and RUAS_UNSET for a number, means
 * that the key is absent, so that its default applies. Lists are
 * NULL-terminated; an empty one ({NULL}) is the file's [], which differs
 * from absent (for example scan_prune = [] prunes nothing). Every string
 * is copied: the caller keeps ownership of all it passes and may free or
 * reuse it as soon as the call returns.
 */
#define RUAS_UNSET (-1)

/* Version 2 added the audit keys, version 3 host_check_interval. */
#define RUAS_CONFIG_GLOBALS_VERSION 3
typedef struct {
	unsigned int version;
	/*
	 * Names the configuration in messages where a path would be
	 * (ruas_config_path()); NULL: "(ruas_config_new)".
	 */
	const char *name;
	/* The top-level keys of ruas.conf, with its defaults. */
	const char *const *env_allowlist;
	const char *sudo;
	const char *helper;
	const char *session_helper;
	const char *const *scan_prune;
	int scan_time_limit;
	const char *backend; /* "sudo", "pam" or "auto" */
	const char *pam_service;
	int terminate_grace;
	const char *const *target_sudo_allowed;
	const char *lifetime; /* "pidns", "subreaper" or "auto" */
	/* Version 2 (docs/audit.md): */
	const char *audit_facility; /* "authpriv", "auth", "daemon", "user", "local0".."local7" */
	const char *audit_log;      /* an absolute path for JSON lines; NULL: none */
	const char *audit_argv;     /* "truncated", "full" or "none" */
	int audit_argv_max;         /* bytes kept of each argument when truncated */
	/* Version 3: seconds a walk of the host's trees is reused (0: never). */
	int host_check_interval;
} ruas_config_globals;
#define RUAS_CONFIG_GLOBALS_INIT                                                          \
	{RUAS_CONFIG_GLOBALS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, RUAS_UNSET, NULL, \
	 NULL, RUAS_UNSET, NULL, NULL, NULL, NULL, NULL, RUAS_UNSET, RUAS_UNSET}

/*
 * A configuration with no projects yet. NULL globals are the defaults, the
 * same as those of a file that sets only projects. opts->supervisor_uid
 * (opts may be NULL) is the account that no run_as_user may be, as for a
 * file; skip_owner_check has no meaning here. Its people block, if it is
 * to have one, comes next (ruas_config_set_people()), then its projects.
 */
RUAS_EXTERN int ruas_config_new(ruas_config **out, const ruas_config_globals *globals,
				const ruas_config_options *opts, ruas_error **err);

/* One member of the people block: the keys of a member in ruas.conf(5). */
#define RUAS_PERSON_SPEC_VERSION 1
typedef struct {
	unsigned int version;
	const char *id;          /* required: ^[a-z0-9][a-z0-9_-]*$, at most 64, unique */
	const char *run_as_user; /* required: as a project's run_as_user */
} ruas_person_spec;
#define RUAS_PERSON_SPEC_INIT {RUAS_PERSON_SPEC_VERSION, NULL, NULL}

/*
 * The people block of ruas.conf(5) (docs/run-as-user.md): where the
 * people's worktrees and the shared credentials are, and who the members
 * are. members points to member_count specs (NULL with 0 is the file's
 * block without `members`, refused as that is; a non-NULL pointer with 0
 * is `members = ();`).
 */
#define RUAS_PEOPLE_SPEC_VERSION 1
typedef struct {
	unsigned int version;
	const char *worktrees;       /* required, absolute: person P's scope is <worktrees>/<P> */
	const char *credentials;     /* required, absolute: denied to every person */
	const char *claude_projects; /* NULL: <HOME of P's run_as_user>/.claude/projects */
	const char *enforce;         /* "none" (NULL) or "bwrap" */
	const ruas_person_spec *members;
	size_t member_count;
} ruas_people_spec;
#define RUAS_PEOPLE_SPEC_INIT {RUAS_PEOPLE_SPEC_VERSION, NULL, NULL, NULL, NULL, NULL, 0}

/*
 * Gives cfg its people block, validated by the code that judges a file's
 * (the same refusals and messages, without file and line; the members in
 * order, so the first bad one is named). It must come before any project:
 * a person must exist before a project names it, so cfg with projects is
 * refused (RUAS_ERR_INVALID), as is cfg that already has a people block
 * (one from its file, or an earlier call); so are members NULL with
 * member_count > 0 and an unknown version of the spec or of a member. On
 * any refusal cfg is unchanged. Afterwards ruas_config_add_project()
 * accepts projects that name its members, and ruas_preflight(),
 * ruas_spawn(), ruas_deny_list() and ruas_audit() treat the block exactly
 * as one loaded from a file. Strings are copied.
 *
 * Threads: as ruas_config_add_project(), this call changes cfg; no other
 * call on the same cfg may run while it does.
 */
RUAS_EXTERN int ruas_config_set_people(ruas_config *cfg, const ruas_people_spec *spec,
				       ruas_error **err);

#define RUAS_PROJECT_SPEC_VERSION 1
typedef struct {
	unsigned int version;
	/* Required: name (unique), work_dir (absolute), command (non-empty). */
	const char *name;
	const char *work_dir;
	const char *const *command;
	/* Optional, as the project keys of ruas.conf of the same names. */
	const char *run_as_user; /* NULL: legacy mode, the supervisor runs it */
	const char *const *env_allowlist;
	const char *person;
	const char *const *deny_settings_args;
	const char *const *scan_prune;
	const char *const *target_sudo_allowed;
	const char *backend;
	const char *pam_service;
	int terminate_grace;
	const char *lifetime;
} ruas_project_spec;
#define RUAS_PROJECT_SPEC_INIT                                                             \
	{RUAS_PROJECT_SPEC_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \
	 NULL, RUAS_UNSET, NULL}

/*
 * Validates the project and adds it at the end of cfg, which may also be a
 * loaded configuration: the project then starts from that file's globals.
 * On any refusal cfg is unchanged. A name that cfg already has is refused
 * as the file loader refuses it. A run_as_user with no passwd entry is
 * refused here (RUAS_ERR_CONFIG naming the project and the user; one that
 * cannot be looked up RUAS_ERR_SYSTEM), where the file loader leaves it to
 * ruas_preflight(), which a host still being provisioned may want.
 * Projects added this way work with
 * ruas_preflight(), ruas_spawn(), ruas_audit() and the accessors exactly as
 * loaded ones. Pointers from ruas_config_project_at() and _find() stay valid
 * across later additions, until ruas_config_free().
 *
 * Threads: this call changes cfg. No other call on the same cfg (preflight,
 * spawn, audit, deny, an accessor, another add) may run while it does;
 * guard the configuration with a lock of your own (a read-write lock: adds
 * under the write lock) when threads share it. Distinct configurations
 * need nothing.
 */
RUAS_EXTERN int ruas_config_add_project(ruas_config *cfg, const ruas_project_spec *spec,
					ruas_error **err);

/* ----------------------------------------------------------------- audit */

/*
 * The audit trail (docs/audit.md). The library leaves a record of:
 *   "start"  every spawn, once the agent's helper has its payload (or, in
 *            legacy mode, the command has started): the run id, project,
 *            person, supervisor, target, backend, lifetime, work_dir, argv
 *            (per audit_argv), the names (never the values) of the
 *            variables passed, the person's deny list as a sha256, and what
 *            the last ruas_preflight() on this configuration said of the
 *            project (checks=ok, fatal or none);
 *   "end"    every spawn, once it has been reaped (ruas_child_wait(),
 *            ruas_child_try_wait() or ruas_child_free()), exactly once:
 *            exit, signal, duration_ms and survivors_killed, how many
 *            processes of the run were still there when the agent ended
 *            and were killed (all three "-" when the end cannot be known:
 *            someone else reaped the child, or its helper did not answer
 *            at free);
 *   "check"  every ruas_preflight(), "audit" every ruas_audit(): the counts
 *            of projects and findings, and the ids of the fatal checks.
 * Each record is one line of "KIND key=value ..." (values that are not
 * plain tokens are quoted, with `"`, `\` and every byte outside printable
 * ASCII escaped, so that no argument can forge a record or a field) and the
 * same as one JSON object. By default the line goes to syslog as
 * "ruas[PID]: LINE" at the configuration's audit_facility (authpriv), sent
 * to /dev/log by the library itself (not syslog(3), whose openlog() is
 * the process's, so the embedder's own ident and facility stay as they
 * are). A sink in the spawn or preflight options replaces that; the JSON
 * file that the configuration names (audit_log) is written whatever the
 * sink, since it is the operator's.
 */
typedef struct {
	unsigned int version; /* RUAS_AUDIT_RECORD_VERSION */
	const char *event;    /* "start", "end", "check" or "audit" */
	const char *run;      /* a start's or end's run id; NULL for check and audit */
	const char *line;     /* "KIND key=value ...": no tag, no newline */
	const char *json;     /* {"event":KIND,...}: no newline */
} ruas_audit_record;
#define RUAS_AUDIT_RECORD_VERSION 1

/*
 * Called with each record, in the thread that made it: the one in
 * ruas_spawn() for a start, the one that reaped the child for an end, the
 * caller's for check and audit. The record and its strings are valid only
 * during the call. It must not call back into the library with the same
 * child handle.
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
#define RUAS_AUDIT_SINK_INIT {RUAS_AUDIT_SINK_VERSION, RUAS_AUDIT_TO_SYSLOG, NULL, NULL, -1}

/* ------------------------------------------------------------- preflight */

typedef enum {
	RUAS_SEVERITY_NONE = 0, /* no finding (ruas_group_risk; out-of-range items) */
	RUAS_SEVERITY_WARNING = 1,
	RUAS_SEVERITY_FATAL = 2
} ruas_severity;

typedef struct ruas_report ruas_report;

/* Version 2 added audit, version 3 fresh_host and reuse_verdict. */
#define RUAS_PREFLIGHT_OPTIONS_VERSION 3
typedef struct {
	unsigned int version;
	/* Concurrent sudo calls at most; 0 means the default (8). */
	unsigned int max_parallel;
	/*
	 * Version 2: where the "check" (ruas_preflight) or "audit" (ruas_audit)
	 * record goes; NULL: syslog (see "audit" above).
	 */
	const ruas_audit_sink *audit;
	/*
	 * Version 3: nonzero walks the host's trees now (as ruas check does)
	 * instead of reusing a walk younger than host_check_interval, and
	 * keeps the new one for the checks that follow.
	 */
	int fresh_host;
	/*
	 * Version 3: nonzero gives back the report of a check of this
	 * configuration that passed (no fatal finding) less than
	 * host_check_interval ago, when nothing it was judged on has changed
	 * since (the configuration file, the targets, sudo's, PAM's, doas's and
	 * polkit's files, the user database, the helpers, the work_dirs; the
	 * trees looked at again), instead of checking anew, as `ruas run` does.
	 * Only for a configuration read from a file (ruas_config_load).
	 */
	int reuse_verdict;
} ruas_preflight_options;
#define RUAS_PREFLIGHT_OPTIONS_INIT {RUAS_PREFLIGHT_OPTIONS_VERSION, 0, NULL, 0, 0}

/*
 * Run every startup check of every project, concurrently: passwordless sudo
 * to the target, no passwordless sudo from the target, work_dir access, the
 * descendant scan, root-equivalent groups, what outlives a run. Findings
 * are in the report, not in the return value: a return of 0 with fatal
 * findings is normal.
 */
RUAS_EXTERN int ruas_preflight(ruas_report **out, const ruas_config *cfg,
			       const ruas_preflight_options *opts,
			       ruas_error **err);
RUAS_EXTERN void ruas_report_free(ruas_report *report);

/* Non-zero when any project has a fatal finding. */
RUAS_EXTERN int ruas_report_has_fatal(const ruas_report *report);
/* Projects appear in configuration order. */
RUAS_EXTERN size_t ruas_report_project_count(const ruas_report *report);
RUAS_EXTERN const char *ruas_report_project_name(const ruas_report *report,
						 size_t project);
RUAS_EXTERN size_t ruas_report_item_count(const ruas_report *report,
					  size_t project);
RUAS_EXTERN ruas_severity ruas_report_item_severity(const ruas_report *report,
						    size_t project, size_t item);
/*
 * A stable identifier of the check that made the item; scripts may match on
 * it. Every one the library emits:
 *   "sudo"        check 1: sudo to the target does not work (sudo backend)
 *   "pam"         the pam backend's session helper failed
 *   "account"     the pam backend: PAM's account stack refused the target
 *   "escalation"  check 2: the target can run something as another user
 *                 without a password, or its rules could not be read; or
 *                 doas (where installed) lets it run commands as root
 *                 without a password; or a PAM auth stack of su, su-l,
 *                 sudo, sudo-i, doas, polkit-1, login, runuser,
 *                 runuser-l, sshd or other lets it in without one
 *   "password"    the target has an empty password (passwd -S says NP), which
 *                 PAM's nullok takes: fatal; passwd -S could not say: warning.
 *                 Or root has none (judged where /etc/shadow can be read: as
 *                 root): fatal, for every project
 *   "groups"      the target is in a root-equivalent (or secret-reading) group
 *   "anchors"     the target can write what root or the supervisor trusts
 *   "work_dir"    check 3: the target cannot enter its work_dir
 *   "containment" a person's work_dir resolves outside the person's scope
 *   "scan"        check 4: paths in work_dir the target cannot use (warning)
 *   "bwrap"       people.enforce = "bwrap", but bubblewrap cannot run
 *   "people"      people who share one run_as_user (warning)
 *   "audit"       ruas_audit(): a path a person's user must not read
 *   "lifetime"    the target can hand processes to what outlives a run:
 *                 lingering, a running systemd user manager, crontab or at
 *                 (warning, one per user)
 */
RUAS_EXTERN const char *ruas_report_item_check(const ruas_report *report,
					       size_t project, size_t item);
/* The full text, starting "ERROR: " or "WARNING: ", ending in a newline. */
RUAS_EXTERN const char *ruas_report_item_text(const ruas_report *report,
					      size_t project, size_t item);

/*
 * Findings about the host rather than one project, shown once (not once per
 * project), in the same form as a project's items; ruas_report_has_fatal()
 * counts them. The only one today, check "proc": /proc lets every local
 * user read every agent's command line (no hidepid; a warning). NULL or
 * RUAS_SEVERITY_NONE past the last.
 */
RUAS_EXTERN size_t ruas_report_host_count(const ruas_report *report);
RUAS_EXTERN ruas_severity ruas_report_host_severity(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_host_check(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_host_text(const ruas_report *report, size_t item);
/*
 * What an item is about and what to do, beside its text (NULL past the last
 * item, for a NULL report, and where none applies):
 *   user  the OS user the finding is about: the project's run_as_user, a
 *         person's user, the target of ruas_check_targets(), or "root"
 *         (check "password": root has none). NULL for "audit_log" (the
 *         supervisor's log) and for host items.
 *   path  the file or directory it is about: the work_dir as configured
 *         ("work_dir", "containment", "scan"), the path an "anchors" or
 *         "audit" finding names, the helper, sudo, the login shell, the PAM
 *         service file, doas.conf or the PAM/polkit file of an "escalation"
 *         rule, the audit log, "/proc". NULL where the finding is about an
 *         account, a rule sudo lists, a group or a setting.
 *   fix   what to do, in the text's own words (its fix sentences and
 *         commands, names quoted as in the text), without "Fix: " and
 *         without "Then restart ruas."; plain text, possibly several lines
 *         with no final newline. Never NULL for a fatal item; NULL for a
 *         warning whose text gives no fix.
 * Strings live as long as the report.
 */
RUAS_EXTERN const char *ruas_report_item_user(const ruas_report *report, size_t project,
					      size_t item);
RUAS_EXTERN const char *ruas_report_item_path(const ruas_report *report, size_t project,
					      size_t item);
RUAS_EXTERN const char *ruas_report_item_fix(const ruas_report *report, size_t project,
					     size_t item);
RUAS_EXTERN const char *ruas_report_host_path(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_host_fix(const ruas_report *report, size_t item);
/*
 * What the check could not judge as this supervisor, because only root can
 * read it: each a file or directory (`path`) and what in it was not judged
 * (`what`, such as "empty passwords"). Not a finding: a root check
 * (ruas-setup check, or ruas check as root) judges them. Empty as root.
 */
RUAS_EXTERN size_t ruas_report_unjudged_count(const ruas_report *report);
RUAS_EXTERN const char *ruas_report_unjudged_what(const ruas_report *report, size_t item);
RUAS_EXTERN const char *ruas_report_unjudged_path(const ruas_report *report, size_t item);

/* ----------------------------------------------------------------- spawn */

typedef struct ruas_child ruas_child;

/*
 * Version 2 added the descriptors, work_dir and set_env, version 3 pty,
 * version 4 pty_relay and a pty by default on a terminal, version 5 audit. A caller built
 * against version 1 (whose struct ends after env), 2 or 3 keeps working as
 * it did: the library reads only the fields of the version it names, and
 * gives a pty to none of them unless a version 3 caller asks for one.
 */
#define RUAS_SPAWN_OPTIONS_VERSION 5
typedef struct {
	unsigned int version;
	/*
	 * The supervisor environment to take allowlisted values from (and, in
	 * legacy mode, the whole environment of the command). NULL-terminated
	 * "NAME=value" strings; NULL means `environ`. Pass your own copy when
	 * other threads may call setenv().
	 */
	const char *const *env;
	/*
	 * What the agent gets as its stdin, stdout and stderr: a descriptor of
	 * the caller's (a pipe end, a file, a socket), or -1 to inherit this
	 * process's own 0, 1 or 2 (/dev/null when that is closed). The library
	 * duplicates them during the call and keeps nothing: close your ends
	 * as you would after fork(). Nothing else of this process reaches the
	 * agent, whatever the other threads have open. Behind sudo or
	 * ruas-session they are handed to the helper over the spawn channel,
	 * so no backend puts anything between them and the agent.
	 */
	int stdin_fd;
	int stdout_fd;
	int stderr_fd;
	/*
	 * Where the agent starts (its cwd and PWD): NULL for the project's
	 * work_dir, or a directory beneath it, for this spawn (a chat session
	 * bound to a subdirectory). Relative: to the project's work_dir.
	 * Absolute: spelled beneath the project's work_dir as configured. No
	 * ".." component, even one that would stay inside; "." and repeated
	 * slashes are dropped. It must resolve beneath the project's work_dir
	 * on the real filesystem (ruas_path_resolve_beneath()): a symlink out
	 * of it, an absolute symlink or a path not beneath it is
	 * RUAS_ERR_ESCAPE, naming the project, the path and why; a missing
	 * one or one that is not a directory is a start that failed at its
	 * work_dir (RUAS_ERR_START, RUAS_STAGE_WORK_DIR, ENOENT or ENOTDIR);
	 * "" is RUAS_ERR_INVALID. The library checks this as the supervisor
	 * before anything starts (where the supervisor may not search that
	 * far, a target's private directory, it leaves the verdict to the
	 * helper). With run_as_user, ruas-exec then checks it again as the
	 * target, on descriptors: the project's work_dir (through the
	 * person's scope, for a person), then this beneath it, so that a
	 * swap between the two checks cannot lead elsewhere. That check
	 * failing, or the target being unable to enter it, is the same
	 * RUAS_ERR_START at RUAS_STAGE_WORK_DIR (EACCES, ENOENT; EXDEV for a
	 * path that leaves), with the helper's reason ("cannot enter
	 * work_dir ...", "work_dir is not contained in ..."), which it also
	 * writes on the agent's stderr. Without run_as_user (legacy mode)
	 * there is no target to check again as: the command starts in the
	 * real path of the directory the library checked.
	 */
	const char *work_dir;
	/*
	 * Values for this spawn that are not in env (a session token):
	 * NULL-terminated "NAME=value" strings, or NULL. Each NAME must be in
	 * the project's env_allowlist and appear once; any other name, an
	 * entry without '=' or with an empty NAME is RUAS_ERR_INVALID naming
	 * it (nothing is dropped, nothing starts). A value here overrides the
	 * one of the same name in env; values may hold any byte but NUL. In
	 * legacy mode they are set over the command's environment.
	 */
	const char *const *set_env;
	/*
	 * A pseudo-terminal of the agent's own, as sudo's use_pty and su --pty
	 * give (only with run_as_user; docs/backends.md "Terminals"):
	 *   RUAS_PTY_AUTO (-1, the default)  one when the agent's stdin
	 *       (stdin_fd, or this process's 0) is a terminal; then each of its
	 *       stdin, stdout and stderr that is a terminal becomes the pty, and
	 *       the others (a file, a pipe) pass through as they are, as under
	 *       sudo's use_pty. Without a terminal nothing changes: the stdio
	 *       pass through byte for byte;
	 *   RUAS_PTY_NONE (0)  none: the stdio pass through as they are. A
	 *       terminal passed this way is the agent's to read and write while
	 *       it runs (it is in a session of its own, so it cannot push input
	 *       into it with TIOCSTI), with no job control;
	 *   RUAS_PTY_ALWAYS (1)  one always: stdin, stdout and stderr are all
	 *       the pty (stdin_fd, stdout_fd and stderr_fd must then be -1).
	 * The supervisor opens the pair, in its own uid: the agent gets the
	 * slave as its controlling terminal, in a session of its own, as its
	 * foreground process group, so that job control works inside, and it
	 * never holds the caller's terminal. The pty starts with the modes and
	 * window size of the first of those stdio that is a terminal (else the
	 * defaults). Any other value is RUAS_ERR_INVALID, and so is
	 * RUAS_PTY_ALWAYS without run_as_user; RUAS_PTY_AUTO without
	 * run_as_user gives no pty. Version 3 callers: 0 was the default there.
	 */
	int pty;
	/*
	 * Version 4: who copies between the caller's stdio and the pty.
	 *   RUAS_PTY_RELAY_LIBRARY (0, the default)  the library, in a thread
	 *       of the handle's, as sudo does for its command: the terminal goes
	 *       raw while this process is in its foreground (so that Ctrl-C,
	 *       Ctrl-Z and Ctrl-\ reach the agent's foreground job, not this
	 *       process) and gets its exact modes back when the agent ends or
	 *       stops, and at ruas_child_wait() or ruas_child_free(); nothing
	 *       is read from it while this process is in the background, and
	 *       the library never stops this process; the window size follows
	 *       the caller's terminal within a quarter of a second; a wait
	 *       returns once all the agent printed has been written out.
	 *       ruas_child_pty_fd() and ruas_child_state_fd() are then -1. When
	 *       the agent itself stops (Ctrl-Z to a program that is not a
	 *       shell), the relay gives the terminal back and reads nothing until
	 *       the agent runs again: ruas_child_state() says
	 *       RUAS_CHILD_STOPPED, and the caller continues it with
	 *       ruas_child_signal(child, SIGCONT). The library never touches
	 *       this process's signals: to suspend the whole run on Ctrl-Z, as
	 *       ruas run does, relay yourself;
	 *   RUAS_PTY_RELAY_CALLER (1)  the caller, through the master,
	 *       ruas_child_pty_fd(), learning of the agent's stops from
	 *       ruas_child_state() (version 3 callers always relay themselves).
	 */
	int pty_relay;
	/*
	 * Version 5: where this spawn's start and end records go; NULL: syslog
	 * (see "audit" above). Copied: the sink struct need not outlive the
	 * call, but a callback's payload and a descriptor must outlive the
	 * child handle.
	 */
	const ruas_audit_sink *audit;
} ruas_spawn_options;
#define RUAS_PTY_NONE 0
#define RUAS_PTY_AUTO (-1)
#define RUAS_PTY_ALWAYS 1
#define RUAS_PTY_RELAY_LIBRARY 0
#define RUAS_PTY_RELAY_CALLER 1
#define RUAS_SPAWN_OPTIONS_INIT                                                              \
	{RUAS_SPAWN_OPTIONS_VERSION, NULL, -1, -1, -1, NULL, NULL, RUAS_PTY_AUTO,              \
	 RUAS_PTY_RELAY_LIBRARY, NULL}

/*
 * Start the project's command with `args` (NULL-terminated, may be NULL)
 * appended, with the stdio of opts (inherited by default; opts NULL: the
 * defaults of RUAS_SPAWN_OPTIONS_INIT, a pty on a terminal included). With run_as_user
 * it runs through `sudo -n -u USER -- ruas-exec --channel-fd 0` (or
 * ruas-session, for a root supervisor), and the ruas-exec helper receives
 * argv, work_dir and the allowlisted variables over the spawn channel, a
 * socketpair handed to it as a descriptor, once it has said that it holds
 * the channel itself: nothing of them is on any command line, in sudo's
 * log or I/O log, or in a file. What the agent's exec would refuse is
 * RUAS_ERR_TOOLONG (E2BIG) before anything starts, naming what: one
 * argument or NAME=value of more than 131071 bytes (MAX_ARG_STRLEN), or
 * arguments and variables of more than 2 MiB in all (the kernel's limit
 * with the usual 8 MiB stack), less 64 KiB left for the target's login
 * environment; a target whose stack limit is smaller fails at the exec
 * (RUAS_ERR_START, RUAS_STAGE_EXEC, E2BIG).
 *
 * The call returns once the agent's exec has succeeded (after the target's
 * login files have run; they get 60 s) or failed: a start that failed is
 * RUAS_ERR_START, never an exit status that could be the agent's, with
 * ruas_error_stage() saying where (sudo or PAM refused the switch, the
 * work_dir, the exec, the login shell, the helper), ruas_error_errno() why
 * (ENOENT, EACCES, ENOEXEC, E2BIG...; 0 for sudo's refusal) and
 * ruas_error_file() what (the command, the work_dir), and a message that
 * names the project and the stage and quotes sudo's or the kernel's
 * reason, whatever the agent's stderr is. Nothing of the target is left
 * running then, and the run's audit records say that it never started.
 * Until the call returns nothing relays the agent's pty or reads its
 * pipes: login files that print more than a pipe or pty holds, or wait
 * for input, stall the start until those 60 s. A helper that other users can read
 * is not started (RUAS_ERR_CONFIG): see docs/security.md. The target's
 * passwd entry is looked up at each spawn (its login shell and home go to
 * the helper in the payload): a run_as_user that has none by then is
 * RUAS_ERR_CONFIG, one that cannot be looked up RUAS_ERR_SYSTEM, before
 * anything starts. Without run_as_user it runs as the
 * supervisor, with the supervisor's environment, in work_dir.
 * Run ruas_preflight() first: spawn does not repeat the checks. When the
 * configuration names an audit_log that cannot be written, nothing starts:
 * RUAS_ERR_SYSTEM naming the project, the path, what is wrong and the fix.
 */
RUAS_EXTERN int ruas_spawn(ruas_child **out, const ruas_config *cfg,
			   const char *project, const char *const *args,
			   const ruas_spawn_options *opts, ruas_error **err);

/*
 * Every ruas_child_* function given a NULL handle refuses it: those that
 * take an ruas_error return RUAS_ERR_INVALID with an error naming the
 * function, the others RUAS_ERR_INVALID (ruas_child_run_id: NULL), and
 * ruas_child_free(NULL) does nothing. None crashes.
 */
/*
 * The pid of the process started (sudo or ruas-session, or the command in
 * legacy mode): the one to wait for, and to kill(2) as Popen's pid (sudo
 * and ruas-session relay SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and
 * SIGPIPE to the agent, and SIGTERM ends the tree, as ruas_child_signal();
 * SIGALRM is sudo's own command timeout, which ends the run within 2 s:
 * send it with ruas_child_signal()). Relayed from a supervisor in sudo's
 * process group only by a sudo that tells its invoker from its command
 * (Debian 12's 1.9.13 does).
 */
RUAS_EXTERN pid_t ruas_child_pid(const ruas_child *child);
/*
 * The agent's own pid as this host sees it (its PID namespace's is another
 * number), for logs and audit; 0 when it cannot be told (a /proc that
 * hides the target's processes). The kernel names it to the helper, but a
 * login file of the target's, which runs first, could claim the part, as
 * it could run anything: a hint, not evidence. Only for that: signal the
 * agent through ruas_child_signal(), which never hits a recycled pid.
 */
RUAS_EXTERN pid_t ruas_child_agent_pid(const ruas_child *child);
/*
 * The run id of this spawn, as in its audit records and in the agent's
 * environment as RUAS_RUN_ID: 32 lower-case hex digits, random (128 bits),
 * owned by the handle.
 */
RUAS_EXTERN const char *ruas_child_run_id(const ruas_child *child);
/*
 * Block until the child ends. *exit_code gets its exit status, or 128+N when
 * it was killed by signal N. May be called again after it returned: it
 * returns the same result.
 */
RUAS_EXTERN int ruas_child_wait(ruas_child *child, int *exit_code,
				ruas_error **err);
/* Like ruas_child_wait, but returns 1 at once when the child still runs. */
RUAS_EXTERN int ruas_child_try_wait(ruas_child *child, int *exit_code,
				    ruas_error **err);
/*
 * Ends the agent's whole process tree: SIGTERM now, SIGKILL to whatever is
 * left after the project's terminate_grace. The ruas-exec helper, which
 * runs as the target, enforces this, including for descendants that called
 * setsid() or double-forked; it does the same by itself when the
 * supervisor dies. Returns at once; wait with ruas_child_wait().
 */
RUAS_EXTERN int ruas_child_terminate(ruas_child *child, ruas_error **err);
/*
 * Send a signal; a no-op once the child has been reaped. Behind sudo or
 * ruas-session it travels over the spawn channel to the helper, which
 *   SIGTERM   ends the whole tree, as ruas_child_terminate();
 *   SIGKILL   ends the whole tree at once;
 *   any other (SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH,
 *             SIGCONT, SIGSTOP, ...) delivers it to the agent's process
 *             group, never to the helper.
 * A signal sent after ruas_spawn() returned is never lost: it is queued
 * for the helper even while it is busy. Without run_as_user it is kill(2)
 * of the command. As with kill(2), 0 sends nothing (and returns 0); a
 * number that is no signal (below 0, above SIGRTMAX) is RUAS_ERR_INVALID.
 */
RUAS_EXTERN int ruas_child_signal(ruas_child *child, int sig, ruas_error **err);
/*
 * A descriptor, owned by the handle (do not close it), that polls readable
 * once the child has ended; then ruas_child_try_wait() reaps it without
 * blocking. For event loops (epoll, asyncio's add_reader, Go's netpoll).
 * -1 on a kernel without pidfd_open (Linux < 5.3).
 */
RUAS_EXTERN int ruas_child_pidfd(const ruas_child *child);
/*
 * After a wait has reported the end: the signal that killed the agent, or
 * 0 when it exited (with the status the wait gave). 128+N from the wait
 * alone cannot tell `exit 130` from SIGINT; this can, for bindings that
 * mirror os/exec's ProcessState or subprocess's negative returncode.
 * Any thread may ask at any time: 0 until the child has been reaped.
 */
RUAS_EXTERN int ruas_child_term_signal(const ruas_child *child);
/*
 * The master of the agent's pty (spawn option pty), owned by the handle
 * (do not close it; it stays open until ruas_child_free()), close-on-exec
 * and non-blocking; -1 when the agent has none or the library relays it
 * (pty_relay). What is written to it is
 * the agent's terminal input; what it reads is the agent's terminal
 * output; once every process of the run has gone it reads EIO. Set the
 * agent's window size with ioctl(fd, TIOCSWINSZ, &ws): the kernel sends
 * SIGWINCH to the agent's foreground job.
 */
RUAS_EXTERN int ruas_child_pty_fd(const ruas_child *child);

/* ruas_child_state(): how the agent of a pty spawn is. */
#define RUAS_CHILD_RUNNING 0
#define RUAS_CHILD_STOPPED 1 /* the agent itself is stopped (a SIGSTOP, a job control stop) */
#define RUAS_CHILD_ENDING 2  /* the helper has said its last word: wait for the child */
/*
 * A descriptor owned by the handle that polls readable when the helper has
 * news of a pty spawn's agent (it stopped, it runs again, it ended); -1
 * without a pty, or when the library relays it. Read the news with ruas_child_state(). Once it is
 * RUAS_CHILD_ENDING the descriptor stays readable: stop polling it, and
 * wait for the child (ruas_child_pidfd()).
 */
RUAS_EXTERN int ruas_child_state_fd(const ruas_child *child);
/*
 * Takes the helper's news without blocking and says how the agent is:
 * RUAS_CHILD_RUNNING, RUAS_CHILD_STOPPED (*stop_signal, when not NULL,
 * gets the signal that stopped it) or RUAS_CHILD_ENDING. Without a pty,
 * RUAS_CHILD_RUNNING until the helper has ended. A stopped agent goes on
 * with ruas_child_signal(child, SIGCONT): a terminal's caller restores its
 * terminal and stops itself first, as sudo does for Ctrl-Z, and sends
 * SIGCONT once it is resumed.
 */
RUAS_EXTERN int ruas_child_state(ruas_child *child, int *stop_signal);

/*
 * Frees the handle. A child still running is ended first, its whole tree
 * at once as with SIGKILL, and reaped: free leaves neither a zombie nor an
 * orphan, and returns within about 2 s even when the helper does not answer.
 */
RUAS_EXTERN void ruas_child_free(ruas_child *child);

/* ------------------------------------------------------------- people */

/*
 * Person `person`'s deny list, computed now from the real filesystem: the
 * credentials root, every other person's scope (<worktrees>/<id>), and each
 * existing directory in claude_projects that belongs to another person.
 * *paths (absolute, NULL-terminated) and *warnings (one line each; may be
 * NULL to skip) are freed with ruas_strv_free().
 */
RUAS_EXTERN int ruas_deny_list(char ***paths, char ***warnings,
			       const ruas_config *cfg, const char *person,
			       ruas_error **err);
/*
 * The same as a Claude Code settings object: permissions.deny holds
 * "Read(//ABS/ **)" and "Edit(//ABS/ **)" (without the space) for each path,
 * and sandbox.filesystem.denyRead
 * each path. Free *json with ruas_free().
 */
RUAS_EXTERN int ruas_deny_claude_settings(char **json, const ruas_config *cfg,
					  const char *person, ruas_error **err);
RUAS_EXTERN void ruas_strv_free(char **v);

/*
 * The OS-level audit: for each person, as that person's run_as_user, try to
 * open and list every path on their deny list and the supervisor's home
 * secrets (~/.ssh, ~/.claude, ~/.config, credential files). The report has
 * one entry per person: a warning for each path the OS lets through (where
 * isolation rests on deny rules only; paths that enforce = "bwrap" masks
 * count as enforced) and for people who share a run_as_user. No items at
 * all means the OS enforces everything.
 */
RUAS_EXTERN int ruas_audit(ruas_report **out, const ruas_config *cfg,
			   const ruas_preflight_options *opts, ruas_error **err);

/*
 * Containment on the real filesystem: 0 when absolute `path` is under
 * absolute `root` and resolves inside it, component by component in the
 * kernel (openat2 RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS; an O_NOFOLLOW
 * walk where openat2 is missing). "..", symlinks out of root and absolute
 * symlinks give RUAS_ERR_ESCAPE. With fd non-NULL, *fd is an O_PATH
 * descriptor of what was resolved: use it (openat, fchdir), not the name,
 * to rule out a swap after the check. Every path an agent host accepts on a
 * person's behalf should pass through this with the person's scope as root.
 */
RUAS_EXTERN int ruas_path_resolve_beneath(const char *root, const char *path,
					  int *fd, ruas_error **err);

/* ------------------------------------------------------- provisioning */

/*
 * NULL when `name` is a plain user name (^[a-z_][a-z0-9_-]*$, at most 32
 * bytes), which sudoers cannot read as anything but one user; else why not.
 */
RUAS_EXTERN const char *ruas_user_name_problem(const char *name);

/*
 * What membership of a target user in a group means, as ruas_preflight()
 * and ruas_check_targets() judge it (check "groups"):
 *   RUAS_SEVERITY_FATAL   gid 0, whatever its name, and the groups that give
 *                         root by design: disk, kmem, docker, lxd, incus,
 *                         incus-admin, libvirt;
 *   RUAS_SEVERITY_WARNING groups that read secrets or other people's input
 *                         (shadow, adm, systemd-journal, tty, video, input)
 *                         and sudo, wheel, admin, which give root with a
 *                         password (passwordless sudo is the escalation check's);
 *   RUAS_SEVERITY_NONE    any other group.
 * `name` may be NULL (a gid without a name); names match exactly. With `why`
 * non-NULL, *why is a static sentence saying why ("its members ..."), or
 * NULL for RUAS_SEVERITY_NONE.
 */
RUAS_EXTERN ruas_severity ruas_group_risk(const char *name, unsigned long gid,
					  const char **why);
/*
 * The named groups behind ruas_group_risk(), one by one, for tools that must
 * apply the same list (ruas-setup useradd's script): entry `index`'s name,
 * severity and why (any pointer may be NULL). 0, or RUAS_ERR_NOTFOUND past
 * the last entry. gid 0 is not an entry: compare the number.
 */
RUAS_EXTERN int ruas_group_risk_at(size_t index, const char **name,
				   ruas_severity *severity, const char **why);

/*
 * The sudoers fragment that lets `supervisor` run commands as each of
 * `targets` (NULL-terminated) without a password, and nothing more:
 * "SUPERVISOR ALL=(TARGET) NOPASSWD: ALL" and "Defaults:TARGET listpw=never"
 * (so that the target can list its own rules, and ruas_preflight() run
 * by the supervisor sees them all) for each distinct target,
 * sorted, under a comment header. Refuses (RUAS_ERR_INVALID) names that are
 * not plain user names, root, uid-0 accounts, and the supervisor as its own
 * target. *out is malloc'd: release it with ruas_free().
 */
RUAS_EXTERN int ruas_sudoers_fragment(char **out, const char *supervisor,
				      const char *const *targets,
				      ruas_error **err);
RUAS_EXTERN void ruas_free(void *p);

/*
 * Version 2 added sudo_allowed; a caller built against version 1 passes
 * the shorter struct with version = 1, which is still accepted.
 */
#define RUAS_TARGET_OPTIONS_VERSION 2
typedef struct {
	unsigned int version;
	/*
	 * When set, also check that this user has passwordless sudo to each
	 * target (as ruas check does). The caller must be root or that user.
	 */
	const char *supervisor;
	const char *sudo;   /* NULL: the configured default */
	const char *helper; /* NULL: the installed ruas-exec */
	unsigned int max_parallel;
	/*
	 * NULL, or NULL-terminated commands that the targets may run as another
	 * user without a password (target_sudo_allowed): warnings, not errors.
	 * The same refusals as in the configuration apply (ALL, shells, ...).
	 */
	const char *const *sudo_allowed;
} ruas_target_options;
#define RUAS_TARGET_OPTIONS_INIT {RUAS_TARGET_OPTIONS_VERSION, NULL, NULL, NULL, 0, NULL}

/*
 * The checks that depend on a target user alone, the same code that
 * ruas_preflight() runs: sudo -i to it works, it cannot run passwordless
 * sudo itself, and it is in no root-equivalent group. The report has one
 * entry per target (in the report's project-name accessors).
 */
RUAS_EXTERN int ruas_check_targets(ruas_report **out,
				   const char *const *targets,
				   const ruas_target_options *opts,
				   ruas_error **err);

#ifdef __cplusplus
}
#endif
#endif /* RUAS_H */
