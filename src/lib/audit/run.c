/* SPDX-License-Identifier: ISC */
/* run.c - see run.h. */
#include "audit/run.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/log_file.h"
#include "audit/record.h"
#include "audit/sink.h"
#include "buf.h"
#include "error.h"
#include "proc.h"
#include "random_hex.h"
#include "spawn/envfilter.h"
#include "spawn/exec_payload.h"

struct audit_run {
	char id[33];
	char *project;
	struct audit_dest dest; /* its log_fd is the run's own */
	long long start_ms;     /* monotonic */
	int ended;
	unsigned int argv_max;  /* 0: whole */
	int argv_none;
	const char *lifetime_used; /* static: "pidns", "subreaper", "none"; NULL: unknown */
	long agent_pid;            /* 0: unknown */
};

struct audit_run *audit_run_new(const struct ruas_config *cfg, const struct ruas_project *p,
				const ruas_audit_sink *sink, int *r, ruas_error **err)
{
	struct audit_run *a = calloc(1, sizeof *a);
	if (!a || !(a->project = strdup(p->name))) {
		free(a);
		*r = error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
		return NULL;
	}
	if ((*r = audit_dest_init(&a->dest, sink, cfg->audit.facility, "ruas_spawn", err)) == 0)
		/* The run's reference: its end may be recorded after cfg is freed. */
		a->dest.undelivered = audit_count_ref(cfg->audit_undelivered);
	if (*r < 0) {
		audit_run_free(a);
		return NULL;
	}
	if (random_hex(a->id, sizeof a->id) < 0) {
		*r = error_set(err, RUAS_ERR_SYSTEM, NULL, 0, errno,
			       "project \"%s\": cannot make a run id: getrandom: %s", p->name,
			       strerror(errno));
		audit_run_free(a);
		return NULL;
	}
	char why[256];
	if (cfg->audit.log && (a->dest.log_fd = audit_log_open(cfg, 1, why, sizeof why)) < 0) {
		*r = error_set(err, RUAS_ERR_SYSTEM, cfg->path, 0, 0,
			       "project \"%s\": cannot write the audit log \"%s\" (audit_log in %s): "
			       "%s; nothing was started", p->name, cfg->audit.log, cfg->path, why);
		audit_run_free(a);
		return NULL;
	}
	a->argv_none = cfg->audit.argv == AUDIT_ARGV_NONE;
	a->argv_max = cfg->audit.argv == AUDIT_ARGV_TRUNCATED ? cfg->audit.argv_max : 0;
	a->start_ms = monotonic_ms();
	*r = 0;
	return a;
}

const char *audit_run_id(const struct audit_run *a)
{
	return a ? a->id : ""; /* "": a handle made by hand, in the unit tests */
}

unsigned int audit_run_helper_facility(const struct audit_run *a)
{
	return a->dest.to == RUAS_AUDIT_TO_SYSLOG ? (unsigned int)(a->dest.facility >> 3) + 1 : 0;
}

/* sha256:HEX of the deny list as the agent's RUAS_DENY_LIST file holds it (a path a line). */
static void deny_digest(const struct deny_list *dl, char out[80])
{
	static const char hex[] = "0123456789abcdef";
	struct sha256_ctx ctx;
	unsigned char d[SHA256_DIGEST_SIZE];
	sha256_init(&ctx);
	for (size_t i = 0; i < dl->n; i++) {
		sha256_update(&ctx, strlen(dl->paths[i]), (const uint8_t *)dl->paths[i]);
		sha256_update(&ctx, 1, (const uint8_t *)"\n");
	}
	sha256_digest(&ctx, sizeof d, d);
	memcpy(out, "sha256:", 7);
	for (size_t i = 0; i < sizeof d; i++) {
		out[7 + 2 * i] = hex[d[i] >> 4];
		out[8 + 2 * i] = hex[d[i] & 15];
	}
	out[7 + 2 * sizeof d] = '\0';
}

static void names_free(char **names, int owned)
{
	for (size_t i = 0; owned && names && names[i]; i++)
		free(names[i]);
	free(names);
}

/*
 * The names of the variables the agent gets from the supervisor: the
 * allowlisted ones that are set (set_env's or env's); in legacy mode, every
 * one of the environment it gets whole. Malloc'd vector of pointers into
 * the allowlist or a copy of each name (*owned), NULL-terminated; NULL on OOM.
 */
static char **env_names(const struct audit_spawn *s, int *owned)
{
	const struct ruas_project *p = s->p;
	const char **merged = s->v && s->v->set_env ? spawn_env_merge(s->v->set_env, s->env) : NULL;
	const char *const *env = merged ? merged : s->env;
	size_t n = 0;
	while (env && env[n])
		n++;
	*owned = !p->run_as_user;
	char **names = calloc((*owned ? n : p->nallow) + 1, sizeof *names);
	const char **values = *owned ? NULL : calloc(p->nallow + 1, sizeof *values);
	if (names && *owned) {
		for (size_t i = 0; i < n; i++) {
			const char *eq = strchr(env[i], '=');
			names[i] = strndup(env[i], eq ? (size_t)(eq - env[i]) : strlen(env[i]));
			if (!names[i]) {
				names_free(names, 1);
				names = NULL;
				break;
			}
		}
	} else if (names && values) {
		env_filter(env, (const char *const *)p->env_allowlist, (const char **)names, values);
	} else {
		free(names);
		names = NULL;
	}
	free(values);
	free(merged);
	return names;
}

static const char *backend_name(const struct ruas_project *p)
{
	if (!p->run_as_user)
		return "none";
	return project_backend(p) == BACKEND_PAM ? "pam" : "sudo";
}

static const char *lifetime_name(const struct ruas_project *p)
{
	if (!p->run_as_user)
		return "none";
	switch (project_lifetime(p)) {
	case LIFETIME_CFG_PIDNS:
		return "pidns";
	case LIFETIME_CFG_SUBREAPER:
		return "subreaper";
	default:
		return "auto";
	}
}

static const char *checks_name(const struct ruas_project *p)
{
	switch (__atomic_load_n(&p->checks, __ATOMIC_ACQUIRE)) {
	case CHECKS_OK:
		return "ok";
	case CHECKS_FATAL:
		return "fatal";
	default:
		return "none";
	}
}

int audit_run_start(struct audit_run *a, const struct audit_spawn *s, ruas_error **err)
{
	const struct ruas_project *p = s->p;
	size_t argc;
	char **argv = agent_argv(p, s->args, &argc);
	int owned = 0;
	char **env = env_names(s, &owned);
	char deny[80] = "-";
	if (!argv || !env) {
		free(argv);
		names_free(env, owned);
		return error_set(err, RUAS_ERR_NOMEM, NULL, 0, ENOMEM, "out of memory");
	}
	if (s->deny)
		deny_digest(s->deny, deny);
	const char *work_dir = s->v && s->v->work_dir ? s->v->work_dir : p->work_dir;
	struct audit_field f[] = {
		{"run", AUDIT_STR, a->id, 0, NULL, 0},
		{"project", AUDIT_STR, p->name, 0, NULL, 0},
		{"person", AUDIT_STR, p->person, 0, NULL, 0},
		{"supervisor", AUDIT_STR, s->cfg->supervisor_name, 0, NULL, 0},
		{"target", AUDIT_STR, p->run_as_user, 0, NULL, 0},
		{"backend", AUDIT_STR, backend_name(p), 0, NULL, 0},
		{"lifetime", AUDIT_STR, lifetime_name(p), 0, NULL, 0},
		{"work_dir", AUDIT_STR, work_dir, 0, NULL, 0},
		{"env", AUDIT_STRV, NULL, 0, (const char *const *)env, 0},
		{"deny", AUDIT_STR, s->deny ? deny : NULL, 0, NULL, 0},
		{"checks", AUDIT_STR, checks_name(p), 0, NULL, 0},
		{"pid", AUDIT_INT, NULL, (long long)s->pid, NULL, 0},
		{"argc", AUDIT_INT, NULL, (long long)argc, NULL, 0},
		/* Last: a syslog daemon that cuts a long line cuts only arguments. */
		a->argv_none ? (struct audit_field){"argv", AUDIT_STR, NULL, 0, NULL, 0}
			     : (struct audit_field){"argv", AUDIT_ARGV, NULL, 0,
						    (const char *const *)argv, a->argv_max},
	};
	struct audit_record rec = {AUDIT_START, f, sizeof f / sizeof f[0]};
	int rc = audit_emit(&a->dest, &rec, a->id);
	int e = errno;
	free(argv);
	names_free(env, owned);
	if (rc < 0)
		return error_set(err, RUAS_ERR_SYSTEM, s->cfg->path, 0, e,
				 "project \"%s\": cannot write the start record to the audit log "
				 "\"%s\" (audit_log in %s): %s; the agent was ended", p->name,
				 s->cfg->audit.log ? s->cfg->audit.log : "-", s->cfg->path,
				 strerror(e));
	return 0;
}

void audit_run_started(struct audit_run *a, const char *lifetime, long agent_pid)
{
	if (!a)
		return;
	a->lifetime_used = lifetime;
	a->agent_pid = agent_pid;
}

void audit_run_end(struct audit_run *a, int exit_code, int term_signal, long survivors,
		   int started, const char *limit, long long memory_peak, long long cpu_usec)
{
	if (!a || a->ended)
		return;
	a->ended = 1;
	char sig[32];
	/* term_signal < 0: the end is unknown (audit.md): exit, signal and survivors "-". */
	const char *signame =
		term_signal > 0 ? signal_name(term_signal, sig, sizeof sig) : NULL;
	struct audit_field f[] = {
		{"run", AUDIT_STR, a->id, 0, NULL, 0},
		{"project", AUDIT_STR, a->project, 0, NULL, 0},
		{"exit", AUDIT_INT, NULL, term_signal ? -1 : exit_code, NULL, 0},
		{"signal", AUDIT_STR, signame, 0, NULL, 0},
		{"duration_ms", AUDIT_INT, NULL, monotonic_ms() - a->start_ms, NULL, 0},
		survivors < 0 ? (struct audit_field){"survivors_killed", AUDIT_STR, NULL, 0, NULL, 0}
			      : (struct audit_field){"survivors_killed", AUDIT_INT, NULL, survivors,
						     NULL, 0},
		{"started", AUDIT_STR, started < 0 ? NULL : started ? "yes" : "no", 0, NULL, 0},
		{"lifetime", AUDIT_STR, a->lifetime_used, 0, NULL, 0},
		a->agent_pid > 0
			? (struct audit_field){"agent_pid", AUDIT_INT, NULL, a->agent_pid, NULL, 0}
			: (struct audit_field){"agent_pid", AUDIT_STR, NULL, 0, NULL, 0},
		{"limit", AUDIT_STR, limit, 0, NULL, 0},
		memory_peak >= 0
			? (struct audit_field){"memory_peak", AUDIT_INT, NULL, memory_peak, NULL, 0}
			: (struct audit_field){"memory_peak", AUDIT_STR, NULL, 0, NULL, 0},
		cpu_usec >= 0 ? (struct audit_field){"cpu_usec", AUDIT_INT, NULL, cpu_usec, NULL, 0}
			      : (struct audit_field){"cpu_usec", AUDIT_STR, NULL, 0, NULL, 0},
	};
	if (term_signal)
		f[2] = (struct audit_field){"exit", AUDIT_STR, NULL, 0, NULL, 0};
	if (term_signal < 0)
		f[5] = (struct audit_field){"survivors_killed", AUDIT_STR, NULL, 0, NULL, 0};
	struct audit_record rec = {AUDIT_END, f, sizeof f / sizeof f[0]};
	(void)audit_emit(&a->dest, &rec, a->id);
}

void audit_run_credential(struct audit_run *a, const struct audit_credential *c)
{
	if (!a)
		return;
	struct audit_field f[] = {
		{"run", AUDIT_STR, a->id, 0, NULL, 0},
		{"project", AUDIT_STR, c->project, 0, NULL, 0},
		{"person", AUDIT_STR, c->person, 0, NULL, 0},
		{"target", AUDIT_STR, c->target, 0, NULL, 0},
		{"name", AUDIT_STR, c->name, 0, NULL, 0},
		{"result", AUDIT_STR, c->granted ? "granted" : "refused", 0, NULL, 0},
		c->pid > 0 ? (struct audit_field){"pid", AUDIT_INT, NULL, c->pid, NULL, 0}
			   : (struct audit_field){"pid", AUDIT_STR, NULL, 0, NULL, 0},
		{"reason", AUDIT_STR, c->why, 0, NULL, 0},
	};
	struct audit_record rec = {AUDIT_CREDENTIAL, f, sizeof f / sizeof f[0]};
	(void)audit_emit(&a->dest, &rec, a->id);
}

void audit_run_free(struct audit_run *a)
{
	if (!a)
		return;
	if (a->dest.log_fd >= 0)
		close(a->dest.log_fd);
	audit_count_unref(a->dest.undelivered);
	free(a->project);
	free(a);
}
