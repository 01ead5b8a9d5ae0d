/* SPDX-License-Identifier: ISC */
/*
 * ruas/config.h - a configuration of projects: loaded from ruas.conf(5), or
 * built in code from the embedder's own store (docs/library.md
 * "Configuration" and "Configuration built in code").
 */
#ifndef RUAS_CONFIG_H
#define RUAS_CONFIG_H

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ruas_config ruas_config;
typedef struct ruas_project ruas_project; /* borrowed from its ruas_config */

#define RUAS_CONFIG_OPTIONS_VERSION 1
typedef struct {
	unsigned int version;
	/* The account no run_as_user may be; (uid_t)-1, the default: geteuid(). */
	uid_t supervisor_uid;
	/* Non-zero: skip the check of the file's owner and mode. Only for tests. */
	int skip_owner_check;
} ruas_config_options;
#define RUAS_CONFIG_OPTIONS_INIT                                                           \
	{RUAS_DESIGNATED(version) RUAS_CONFIG_OPTIONS_VERSION,                              \
	 RUAS_DESIGNATED(supervisor_uid)(uid_t)-1, RUAS_DESIGNATED(skip_owner_check) 0}
/*
 * Each options struct's ruas_<struct>_init(): the defaults of `version`
 * (1 to its _VERSION), as its _INIT macro gives them, written only into
 * the fields that version has; 0, or RUAS_ERR_INVALID for a version it
 * does not know or NULL (nothing written).
 */
RUAS_EXTERN int ruas_config_options_init(ruas_config_options *opts, unsigned int version);

/*
 * Load and validate a configuration file (opts may be NULL). On
 * RUAS_ERR_CONFIG the error names the file, the line and the reason.
 */
RUAS_EXTERN int ruas_config_load(ruas_config **out, const char *path,
				 const ruas_config_options *opts, ruas_error **err);
/* The same from memory; `name` is used in messages in place of a path. */
RUAS_EXTERN int ruas_config_load_buffer(ruas_config **out, const char *text, size_t len,
					const char *name, const ruas_config_options *opts,
					ruas_error **err);
RUAS_EXTERN void ruas_config_free(ruas_config *cfg);
/*
 * How many audit records of this configuration's calls and runs no sink
 * took (a syslogd that stopped reading, a descriptor that refused): never
 * lost in silence (docs/audit.md).
 */
RUAS_EXTERN unsigned long ruas_config_audit_undelivered(const ruas_config *cfg);

RUAS_EXTERN const char *ruas_config_path(const ruas_config *cfg);
/* The sudo binary and the ruas-exec helper the configuration uses. */
RUAS_EXTERN const char *ruas_config_sudo(const ruas_config *cfg);
RUAS_EXTERN const char *ruas_config_helper(const ruas_config *cfg);
/*
 * The "supervisor" key: the user the supervisor runs as (sudo backend),
 * whose ruas-setup fragments ruas check and ruas-setup prune judge; NULL
 * when the configuration does not name one.
 */
RUAS_EXTERN const char *ruas_config_supervisor(const ruas_config *cfg);
RUAS_EXTERN size_t ruas_config_project_count(const ruas_config *cfg);
RUAS_EXTERN const ruas_project *ruas_config_project_at(const ruas_config *cfg, size_t i);
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
/* "sudo" or "pam" ("auto" resolved for this process), "none" without run_as_user. */
RUAS_EXTERN const char *ruas_project_backend(const ruas_project *p);
/* Seconds between SIGTERM and SIGKILL of the agent's tree (terminate_grace). */
RUAS_EXTERN unsigned int ruas_project_terminate_grace(const ruas_project *p);
/* Its runs' wall_time_max in seconds (0: none), open_files_max (0: as the run gets it). */
RUAS_EXTERN unsigned int ruas_project_wall_time_max(const ruas_project *p);
RUAS_EXTERN unsigned int ruas_project_open_files_max(const ruas_project *p);
/*
 * Its runs' file_size_max in bytes, in decimal as a spec gives it (C89 has
 * no 64-bit integer), NULL when none; core_dumps (0 or 1).
 */
RUAS_EXTERN const char *ruas_project_file_size_max(const ruas_project *p);
RUAS_EXTERN int ruas_project_core_dumps(const ruas_project *p);
/*
 * require_command (0 or 1): 1 when ruas check fails the project whose
 * command the target's login PATH does not find, 0 when it only warns.
 */
RUAS_EXTERN int ruas_project_require_command(const ruas_project *p);
/*
 * Its runs' cgroup limits as a spec gives them, in decimal: memory_max and
 * memory_swap_max in bytes ("0" for no swap), cpu_max in CPUs ("0.5");
 * NULL when none. tasks_max: 0 when none.
 */
RUAS_EXTERN const char *ruas_project_memory_max(const ruas_project *p);
RUAS_EXTERN const char *ruas_project_memory_swap_max(const ruas_project *p);
RUAS_EXTERN unsigned int ruas_project_tasks_max(const ruas_project *p);
RUAS_EXTERN const char *ruas_project_cpu_max(const ruas_project *p);
/* The effective allowlist (global plus the project's additions), NULL-terminated. */
RUAS_EXTERN const char *const *ruas_project_env_allowlist(const ruas_project *p);
/* The effective target_sudo_allowed (global plus the project's), NULL-terminated. */
RUAS_EXTERN const char *const *ruas_project_target_sudo_allowed(const ruas_project *p);

/*
 * ---------------------------------------------- configuration built in code
 * ruas_config_new(), ruas_config_set_people() when it serves people, then
 * ruas_config_add_project() per project: each value meets the rules of its
 * ruas.conf(5) key, with the same messages without a file and line. In the
 * specs NULL, and RUAS_UNSET for a number, means absent (the default);
 * lists are NULL-terminated ({NULL} is the file's [], not absent); every
 * string is copied.
 */
#define RUAS_UNSET (-1)

/*
 * One credential that the supervisor hands a run on request (ruas.conf(5)
 * "credentials", docs/credentials.md): its name, and exactly one source.
 */
typedef struct {
	const char *name;                /* required: ^[a-z0-9][a-z0-9_.-]*$, at most 64 */
	const char *from_env;            /* a variable of the spawn's environment */
	const char *const *from_command; /* a command the supervisor runs: its stdout */
	const char *from_file;           /* absolute; only the supervisor may read it */
	int ttl;                         /* from_command: seconds its output is kept; RUAS_UNSET: 0 */
} ruas_credential_spec;

/* A host whose git credential is one of the run's (ruas.conf(5) "git_hosts"). */
typedef struct {
	const char *host;       /* required: a host name and optional :port */
	const char *credential; /* required: the credential's name */
	const char *username;   /* NULL: "x-access-token" */
	const char *protocol;   /* "https" (NULL) or "http" */
} ruas_git_host_spec;

/*
 * The top-level keys of ruas.conf(5). Version 2 added the audit keys, 3
 * host_check_interval, 4 the limits of every project's runs, 5 the limits
 * the run's own cgroup holds and where that cgroup is made, 6
 * require_command, 7 credentials and git_hosts, 8 claude_api_key.
 */
#define RUAS_CONFIG_GLOBALS_VERSION 8
typedef struct {
	unsigned int version;
	const char *name; /* the configuration's name in messages; NULL: "(ruas_config_new)" */
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
	/* Version 4, the limits of each run (ruas.conf(5) "LIMITS"), a project's own win: */
	int open_files_max;        /* RLIMIT_NOFILE, soft and hard; RUAS_UNSET: as the run gets it */
	const char *file_size_max; /* RLIMIT_FSIZE: bytes, or "64M" (K, M, G, T); NULL: as it gets it */
	int core_dumps;            /* 1: as the host has them; 0 or RUAS_UNSET: none (RLIMIT_CORE 0) */
	int wall_time_max;         /* seconds, then terminated (terminate_grace); RUAS_UNSET, 0: none */
	/* Version 5, a cgroup v2 of each run's own (ruas.conf(5) "LIMITS"): */
	const char *memory_max;      /* memory.max: bytes, or "64M" (K, M, G, T); NULL: none */
	const char *memory_swap_max; /* memory.swap.max beside it: the same; NULL: "0" */
	int tasks_max;               /* pids.max; RUAS_UNSET: none */
	const char *cpu_max;         /* CPUs, in decimal: "0.5", "2"; NULL: none */
	const char *cgroup_parent;   /* the cgroup v2 directory runs are made in; NULL: ruas.conf(5) */
	/* Version 6: 1: a command the target's login PATH does not find is fatal; RUAS_UNSET, 0: a warning. */
	int require_command;
	/* Version 7: credential_count at credentials (NULL: none), every project's; the same for git_hosts. */
	const ruas_credential_spec *credentials;
	size_t credential_count;
	const ruas_git_host_spec *git_hosts;
	size_t git_host_count;
	/*
	 * Version 8: the credential (by name) that the Claude Code settings made
	 * for a person get as apiKeyHelper ("ruas-credential NAME"); NULL: none.
	 * Each project's effective credentials must have it.
	 */
	const char *claude_api_key;
} ruas_config_globals;
#define RUAS_CONFIG_GLOBALS_INIT                                                            \
	{RUAS_DESIGNATED(version) RUAS_CONFIG_GLOBALS_VERSION, RUAS_DESIGNATED(name) NULL,   \
	 RUAS_DESIGNATED(env_allowlist) NULL, RUAS_DESIGNATED(sudo) NULL,                     \
	 RUAS_DESIGNATED(helper) NULL, RUAS_DESIGNATED(session_helper) NULL,                  \
	 RUAS_DESIGNATED(scan_prune) NULL, RUAS_DESIGNATED(scan_time_limit) RUAS_UNSET,       \
	 RUAS_DESIGNATED(backend) NULL, RUAS_DESIGNATED(pam_service) NULL,                    \
	 RUAS_DESIGNATED(terminate_grace) RUAS_UNSET,                                         \
	 RUAS_DESIGNATED(target_sudo_allowed) NULL, RUAS_DESIGNATED(lifetime) NULL,           \
	 RUAS_DESIGNATED(audit_facility) NULL, RUAS_DESIGNATED(audit_log) NULL,               \
	 RUAS_DESIGNATED(audit_argv) NULL, RUAS_DESIGNATED(audit_argv_max) RUAS_UNSET,        \
	 RUAS_DESIGNATED(host_check_interval) RUAS_UNSET,                                     \
	 RUAS_DESIGNATED(open_files_max) RUAS_UNSET, RUAS_DESIGNATED(file_size_max) NULL,     \
	 RUAS_DESIGNATED(core_dumps) RUAS_UNSET, RUAS_DESIGNATED(wall_time_max) RUAS_UNSET,   \
	 RUAS_DESIGNATED(memory_max) NULL, RUAS_DESIGNATED(memory_swap_max) NULL,             \
	 RUAS_DESIGNATED(tasks_max) RUAS_UNSET, RUAS_DESIGNATED(cpu_max) NULL,                \
	 RUAS_DESIGNATED(cgroup_parent) NULL, RUAS_DESIGNATED(require_command) RUAS_UNSET,   \
	 RUAS_DESIGNATED(credentials) NULL, RUAS_DESIGNATED(credential_count) 0,              \
	 RUAS_DESIGNATED(git_hosts) NULL, RUAS_DESIGNATED(git_host_count) 0,                  \
	 RUAS_DESIGNATED(claude_api_key) NULL}
RUAS_EXTERN int ruas_config_globals_init(ruas_config_globals *globals, unsigned int version);

/*
 * A configuration with no projects yet; NULL globals are a file's defaults.
 * opts (may be NULL) gives supervisor_uid; skip_owner_check means nothing here.
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
#define RUAS_PERSON_SPEC_INIT                                                              \
	{RUAS_DESIGNATED(version) RUAS_PERSON_SPEC_VERSION, RUAS_DESIGNATED(id) NULL,       \
	 RUAS_DESIGNATED(run_as_user) NULL}
RUAS_EXTERN int ruas_person_spec_init(ruas_person_spec *spec, unsigned int version);

/*
 * The people block of ruas.conf(5): member_count specs at members (NULL
 * with 0 is a block without `members`, refused as that is; non-NULL with 0
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
#define RUAS_PEOPLE_SPEC_INIT                                                              \
	{RUAS_DESIGNATED(version) RUAS_PEOPLE_SPEC_VERSION, RUAS_DESIGNATED(worktrees) NULL, \
	 RUAS_DESIGNATED(credentials) NULL, RUAS_DESIGNATED(claude_projects) NULL,           \
	 RUAS_DESIGNATED(enforce) NULL, RUAS_DESIGNATED(members) NULL,                       \
	 RUAS_DESIGNATED(member_count) 0}
RUAS_EXTERN int ruas_people_spec_init(ruas_people_spec *spec, unsigned int version);

/*
 * Gives cfg its people block, judged as a file's is. It must come before
 * any project: cfg with projects or a people block already is
 * RUAS_ERR_INVALID. On any refusal cfg is unchanged. It changes cfg: no
 * other call on cfg may run meanwhile.
 */
RUAS_EXTERN int ruas_config_set_people(ruas_config *cfg, const ruas_people_spec *spec,
				       ruas_error **err);

/*
 * Version 2 added the limits, 3 the cgroup's, 4 require_command, 5
 * credentials and git_hosts, 6 claude_api_key.
 */
#define RUAS_PROJECT_SPEC_VERSION 6
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
	/* Version 2: the limits of its runs, as ruas_config_globals's (absent: the global one). */
	int open_files_max;
	const char *file_size_max;
	int core_dumps;
	int wall_time_max;
	/* Version 3: its runs' cgroup limits, as ruas_config_globals's. */
	const char *memory_max;
	const char *memory_swap_max;
	int tasks_max;
	const char *cpu_max;
	/* Version 4: as ruas_config_globals's (absent: the global one). */
	int require_command;
	/* Version 5: its own credentials and git_hosts, each replacing a global one of the same name (host). */
	const ruas_credential_spec *credentials;
	size_t credential_count;
	const ruas_git_host_spec *git_hosts;
	size_t git_host_count;
	/* Version 6: as ruas_config_globals's (absent: the global one). */
	const char *claude_api_key;
} ruas_project_spec;
#define RUAS_PROJECT_SPEC_INIT                                                              \
	{RUAS_DESIGNATED(version) RUAS_PROJECT_SPEC_VERSION, RUAS_DESIGNATED(name) NULL,     \
	 RUAS_DESIGNATED(work_dir) NULL, RUAS_DESIGNATED(command) NULL,                       \
	 RUAS_DESIGNATED(run_as_user) NULL, RUAS_DESIGNATED(env_allowlist) NULL,              \
	 RUAS_DESIGNATED(person) NULL, RUAS_DESIGNATED(deny_settings_args) NULL,              \
	 RUAS_DESIGNATED(scan_prune) NULL, RUAS_DESIGNATED(target_sudo_allowed) NULL,         \
	 RUAS_DESIGNATED(backend) NULL, RUAS_DESIGNATED(pam_service) NULL,                    \
	 RUAS_DESIGNATED(terminate_grace) RUAS_UNSET, RUAS_DESIGNATED(lifetime) NULL,         \
	 RUAS_DESIGNATED(open_files_max) RUAS_UNSET, RUAS_DESIGNATED(file_size_max) NULL,     \
	 RUAS_DESIGNATED(core_dumps) RUAS_UNSET, RUAS_DESIGNATED(wall_time_max) RUAS_UNSET,   \
	 RUAS_DESIGNATED(memory_max) NULL, RUAS_DESIGNATED(memory_swap_max) NULL,             \
	 RUAS_DESIGNATED(tasks_max) RUAS_UNSET, RUAS_DESIGNATED(cpu_max) NULL,                \
	 RUAS_DESIGNATED(require_command) RUAS_UNSET, RUAS_DESIGNATED(credentials) NULL,      \
	 RUAS_DESIGNATED(credential_count) 0, RUAS_DESIGNATED(git_hosts) NULL,                \
	 RUAS_DESIGNATED(git_host_count) 0, RUAS_DESIGNATED(claude_api_key) NULL}
RUAS_EXTERN int ruas_project_spec_init(ruas_project_spec *spec, unsigned int version);

/*
 * Validates the project and adds it at the end of cfg (a loaded one too).
 * On any refusal cfg is unchanged; a run_as_user with no passwd entry is
 * RUAS_ERR_CONFIG here. It changes cfg: no other call on cfg may run
 * meanwhile; project pointers stay valid until ruas_config_free().
 */
RUAS_EXTERN int ruas_config_add_project(ruas_config *cfg, const ruas_project_spec *spec,
					ruas_error **err);

#ifdef __cplusplus
}
#endif
#endif
