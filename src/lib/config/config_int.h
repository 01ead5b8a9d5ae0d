/* SPDX-License-Identifier: ISC */
/* config_int.h - the loaded configuration, as the rest of libruas sees it. */
#ifndef RUAS_CONFIG_INT_H
#define RUAS_CONFIG_INT_H

#include <sys/types.h>
#include <time.h>

#include "ruas.h"

#ifndef RUAS_SUDO_PATH
#define RUAS_SUDO_PATH "/usr/bin/sudo"
#endif
#ifndef RUAS_HELPER_PATH
#define RUAS_HELPER_PATH "/usr/local/libexec/ruas/ruas-exec"
#endif
#ifndef RUAS_SESSION_PATH
#define RUAS_SESSION_PATH "/usr/local/libexec/ruas/ruas-session"
#endif
#define DEFAULT_SCAN_TIME_LIMIT 60u
#define DEFAULT_HOST_CHECK_INTERVAL 300u
#define DEFAULT_TERMINATE_GRACE 5u
#define DEFAULT_PAM_SERVICE "ruas"

enum backend { BACKEND_AUTO = 0, BACKEND_SUDO, BACKEND_PAM };
/* lifetime: who owns the agent's tree (docs/run-as-user.md, src/common/pidns.h). */
enum lifetime { LIFETIME_CFG_AUTO = 0, LIFETIME_CFG_PIDNS, LIFETIME_CFG_SUBREAPER };
#define SCAN_REPORT_CAP 50u

/*
 * The limits of a run (ruas.conf(5) "LIMITS"): rlimits that ruas-exec sets,
 * soft and hard, before the target's login shell starts, and the wall
 * clock that the library keeps (src/lib/spawn/wall_time.h).
 */
struct run_limits {
	unsigned long long open_files; /* RLIMIT_NOFILE; 0: as the run gets it */
	unsigned long long file_size;  /* RLIMIT_FSIZE in bytes; 0: as the run gets it */
	char file_size_text[24];       /* the same in decimal (ruas_project_file_size_max()) */
	int core_dumps;                /* 0 (the default): RLIMIT_CORE 0 */
	unsigned int wall_time;        /* seconds; 0: none */
	/* The run's own cgroup v2 (src/lib/cgroup/run.h); none of them: no cgroup of its own. */
	unsigned long long memory;      /* memory.max in bytes; 0: none */
	unsigned long long memory_swap; /* memory.swap.max in bytes beside memory (0: no swap) */
	int memory_swap_set;            /* memory_swap_max was given (it needs a memory_max) */
	unsigned long long tasks;       /* pids.max; 0: none */
	unsigned int cpu_milli;         /* cpu.max in thousandths of a CPU; 0: none */
	char memory_text[24], memory_swap_text[24], cpu_text[24]; /* the accessors' decimal */
};
#define MEMORY_MAX_MIN (8ULL << 20) /* sudo and ruas's helper need a few MiB before the agent */
#define TASKS_MAX_MIN 8u	    /* sudo, the helpers, the login shell and the agent */
#define TASKS_MAX_MAX 4194304u	    /* pid_max's top */
#define CPU_MAX_MIN_MILLI 10u	    /* 0.01 CPUs: cpu.max's smallest quota, 1 ms in 100 ms */
#define CPU_MAX_MAX_MILLI 1024000u  /* 1024 CPUs */
#define OPEN_FILES_MIN 16u
#define OPEN_FILES_MAX 1048576u /* fs.nr_open's default */
#define WALL_TIME_MAX_MAX 31536000u /* a year */

/*
 * A credential the supervisor hands out on request (docs/credentials.md):
 * its name, and where its value comes from.
 */
enum cred_kind { CRED_ENV = 1, CRED_COMMAND, CRED_FILE };
#define CRED_NAME_MAX 64
#define CRED_TTL_MAX 86400u
struct cred_source {
	char *name;
	enum cred_kind kind;
	char *env;    /* CRED_ENV: a variable of the supervisor's environment */
	char **argv;  /* CRED_COMMAND: run as the supervisor, NULL-terminated */
	char *file;   /* CRED_FILE: absolute; only the supervisor may read it */
	unsigned int ttl; /* CRED_COMMAND: seconds its output is kept; 0: run at each request */
	int line;
};
struct cred_list {
	struct cred_source *v;
	size_t n;
};
void cred_list_free(struct cred_list *l);
/* A host whose git credential is one of the run's (git_hosts): git-credential-ruas answers it. */
struct git_host {
	char *host;       /* a host name and optional :port */
	char *credential; /* the credential's name */
	char *username;   /* what git gets as the user name: "x-access-token" by default */
	int http;         /* protocol "http" (else https) */
	int line;
};
struct git_host_list {
	struct git_host *v;
	size_t n;
};
void git_host_list_free(struct git_host_list *l);
/* The source named name in l, or NULL. */
const struct cred_source *cred_list_find(const struct cred_list *l, const char *name);

struct ruas_project {
	char *name;
	char *work_dir;
	char *run_as_user; /* NULL: legacy mode */
	char **command;    /* NULL-terminated */
	size_t ncommand;
	char **env_allowlist; /* effective: global plus the project's, NULL-terminated */
	size_t nallow;
	char **scan_prune; /* effective, NULL-terminated */
	size_t nprune;
	char *person;             /* NULL: not person-scoped */
	char **deny_settings_args; /* NULL-terminated, "{file}" replaced at spawn */
	size_t ndeny_args;
	char **target_sudo_allowed; /* effective: global plus the project's; NULL: none */
	size_t nsudo_allowed;
	enum backend backend;  /* as configured (auto resolved at use) */
	char *pam_service;     /* effective */
	unsigned int terminate_grace; /* effective */
	enum lifetime lifetime;       /* effective, as configured */
	struct run_limits limits;     /* effective: the global ones, each the project's where it has one */
	int require_command; /* effective: a command the login PATH does not find is fatal */
	/* effective: the global credentials, each replaced by the project's of the same name, and its own */
	struct cred_list credentials;
	struct git_host_list git_hosts; /* effective: the global ones, a project's own of the same host instead */
	/* effective: the credential Claude Code's apiKeyHelper asks for (deny_files.c); NULL: none */
	char *claude_api_key;
	int line;
	/*
	 * What the last ruas_preflight() on this configuration said of the
	 * project, for its start records: a cache that a preflight writes
	 * through a const configuration, so only with __atomic builtins.
	 */
	int checks; /* enum project_checks */
};

enum project_checks { CHECKS_NONE = 0, CHECKS_OK, CHECKS_FATAL };

/* auto: pam for a root supervisor, sudo otherwise. */
enum backend project_backend(const struct ruas_project *p);
/*
 * The lifetime a spawn asks for: as configured, but auto on the sudo backend
 * with target_sudo_allowed is the subreaper, since sudo, being set-user-ID,
 * cannot work in the user namespace that the sudo backend's PID namespace
 * needs.
 */
enum lifetime project_lifetime(const struct ruas_project *p);

struct ruas_person {
	char *id;
	char *run_as_user;
	int line;
};

struct ruas_people {
	char *worktrees;       /* person P's scope is <worktrees>/<P's id> */
	char *credentials;     /* denied to every person */
	char *claude_projects; /* NULL: <HOME of P's run_as_user>/.claude/projects */
	int enforce_bwrap;
	struct ruas_person *members;
	size_t nmembers;
};

/* The audit keys (docs/audit.md). */
enum audit_argv_mode { AUDIT_ARGV_TRUNCATED = 0, AUDIT_ARGV_FULL, AUDIT_ARGV_NONE };
#define DEFAULT_AUDIT_ARGV_MAX 256u
struct audit_settings {
	int facility;             /* LOG_AUTHPRIV, ... (<syslog.h>'s, already shifted) */
	char *log;                /* the JSON lines file, NULL: none */
	enum audit_argv_mode argv;
	unsigned int argv_max;
};

struct ruas_config {
	char *path;
	/*
	 * Audit records that no sink took (a syslogd that does not read, a
	 * sink descriptor that refused the write), counted by any thread; a
	 * child that outlives the configuration keeps it (audit/sink.h).
	 */
	struct audit_count *audit_undelivered;
	/* The file it was read from (ruas_config_load), when it was: a kept verdict's key. */
	struct {
		int set;
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec mtime, ctime;
	} file_id;
	struct audit_settings audit;
	char *sudo;
	char *helper;
	char *session_helper;
	unsigned int scan_time_limit;
	unsigned int host_check_interval; /* seconds a walk of the host's trees is reused; 0: never */
	char *cgroup_parent; /* where runs' cgroups are made; NULL: the default (ruas.conf(5)) */
	/*
	 * Each project is an allocation of its own, so that a pointer to one
	 * stays valid while ruas_config_add_project() grows the array.
	 */
	struct ruas_project **projects;
	size_t nprojects;
	struct ruas_people *people; /* NULL without a people block */
	uid_t supervisor_uid;
	char *supervisor_name; /* "#UID" when the uid has no passwd entry */
	char *supervisor;      /* the "supervisor" key: the user it runs as; NULL: unset */
	/*
	 * The globals that each project starts from, kept for projects added
	 * after the load: env_allowlist, scan_prune (NULL-terminated, possibly
	 * empty), target_sudo_allowed (NULL: none), and the overridable three.
	 */
	char **env_allowlist;
	char **scan_prune;
	char **target_sudo_allowed;
	enum backend backend;
	char *pam_service;
	/* Where PAM reads its services: NULL for /etc/pam.d (a test points it elsewhere). */
	const char *pam_dir;
	unsigned int terminate_grace;
	enum lifetime lifetime;
	struct run_limits limits;
	int require_command;
	struct cred_list credentials; /* the global ones */
	struct git_host_list git_hosts; /* the global ones */
	char *claude_api_key;         /* the global one; NULL: none */
	int claude_api_key_line;
};

const struct ruas_person *people_find(const struct ruas_config *cfg, const char *id);
/* <worktrees>/<id>, malloc'd. */
char *people_scope(const struct ruas_people *pp, const char *id);

#endif
