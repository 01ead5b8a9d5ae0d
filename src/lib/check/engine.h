/* SPDX-License-Identifier: ISC */
/*
 * engine.h - the job engine under every check: one job per user, one sudo
 * (or ruas-session) call per job carrying all of its probes, jobs run on a
 * small pool of threads. The entry points (preflight.c, targets.c, audit.c)
 * describe the jobs in job specs; findings.c turns the results into
 * findings. The engine reads no configuration of its own.
 */
#ifndef RUAS_ENGINE_H
#define RUAS_ENGINE_H

#include <stddef.h>
#include <sys/types.h>

#include "account.h"
#include "check/lifetime.h"
#include "check/pam_stack.h"
#include "check/runner.h"
#include "config/config_int.h"
#include "payload.h"
#include "helper_report.h"

#define DEFAULT_MAX_PARALLEL 8u
#define SUDO_OUTPUT_MAX (1u << 20)
#define MAX_CHECK_SECONDS 172800u
#define ROOT_LIST_TIMEOUT_MS 30000u

struct job;

/* What every job of one run shares: the programs, and names for the texts. */
struct check_run {
	const char *sudo;
	const char *helper;          /* ruas-exec */
	const char *session_helper;  /* ruas-session (the pam backend), or NULL */
	const char *config;          /* the configuration, as the texts name it */
	const char *config_file;     /* its file, a trust anchor; NULL: there is none */
	const char *supervisor_name; /* "#UID" when the uid has no passwd entry */
	uid_t supervisor_uid;
	unsigned int scan_time_limit;
	/* The real configuration, for the pam backend's call; NULL: no job uses pam. */
	const struct ruas_config *cfg;
	/*
	 * Seconds the targets' escalation probes are kept (probe_cache.h); 0:
	 * never. fresh_probes: run them now all the same (and keep those).
	 */
	unsigned int keep_probes;
	int fresh_probes;
	/* What every target's probe key shares (probe_cache_host_key), made once per check. */
	const struct buf *probe_host_key;
	/*
	 * The table's trees the library judges itself (host/table.h), for the
	 * payload's judged_trees: "DEPTH PATH", or none.
	 */
	char *const *judged_trees;
	size_t njudged_trees;
	/*
	 * Run on the job's own thread once its call is done (NULL: none): what
	 * the report needs of the user alone (its PAM stacks, what outlives a
	 * run) is then judged beside the other jobs' sudo calls, not after all
	 * of them. pam_dir: where its PAM stacks are read (NULL: /etc/pam.d).
	 */
	void (*after_job)(const struct check_run *run, const struct runner *runner,
			  struct job *j);
	const char *pam_dir;
};

/* What to check of one user, all in one call. Everything in it is borrowed. */
struct job_spec {
	const char *user;
	const char *via; /* run sudo as this user first (root only), or NULL */
	int want_rules;  /* check 2: root's listing of the rules, the login's groups */
	int pam;         /* through ruas-session; needs run->cfg */
	const char *pam_service; /* pam: the session's service */
	struct payload_dir *dirs; /* check 3 and the scan, one per distinct work_dir */
	size_t ndirs;
	unsigned int check_flags;
	char **probes; /* paths to try to open as the user (the audit) */
	size_t nprobes;
	char **commands; /* the projects' commands to look up as the user (command_check.h) */
	size_t ncommands;
	/* target_sudo_allowed lists: the programs they name are anchors too */
	char *const *const *allowed;
	size_t nallowed;
};

enum outcome {
	OUT_OK,
	OUT_USER_MISSING,
	OUT_NOLOGIN,
	OUT_SHELL_MISSING,
	OUT_SUDO_MISSING,
	OUT_NOT_CONFIGURED,
	OUT_HELPER_FAILED,
	OUT_SUDO_FAILED,
	OUT_INTERNAL,
	OUT_PAM_ACCOUNT, /* pam backend: pam_acct_mgmt refused */
	OUT_PAM_SERVICE, /* pam backend: the service file is missing or not ruas's */
	OUT_SESSION_FAILED,
};

/* A job: its spec and what the engine found. */
struct job {
	const struct job_spec *spec;
	enum outcome outcome;
	const char *internal; /* static description for OUT_INTERNAL */
	int internal_errno;   /* and the errno of the call that failed, 0: none */
	char *pam_reason;
	/* pam: can root make the agent's PID namespace (enum session_acct), and why not */
	int pidns;
	char *pidns_why;
	/*
	 * Its passwd entry, as the job read it (name NULL: not read); its
	 * groups are judged after the call.
	 */
	struct account acct;
	struct group_hits groups; /* account_group_risks(), after the call */
	int groups_failed; /* 1, or EMFILE or ENFILE when that is why */
	unsigned int timeout_s;
	struct run_result rr;
	struct helper_report hr;
	/* root only: sudo -n -l -U USER */
	int root_ran, root_rc, root_cut;
	char *root_list;
	char *root_sudo_v; /* sudo -V as root, or NULL */
	/* check_run.after_job's: ways_ready and lt_ready say which it judged. */
	struct pam_ways ways;
	int ways_ready; /* 1 judged; -1 out of memory */
	struct pam_ways doas_ways; /* doas.conf's rules for it */
	int doas_ready;
	struct outlives lt;
	int lt_ready;
};

/*
 * Runs the n jobs of specs on up to max_parallel threads (0: the default):
 * an array of n jobs, specs[i]'s at i, for jobs_free(); NULL on OOM.
 */
struct job *jobs_run(const struct check_run *run, const struct runner *runner,
		     const struct job_spec *specs, size_t n, unsigned int max_parallel);
void jobs_free(struct job *jobs, size_t n);

#endif
