/* SPDX-License-Identifier: ISC */
/*
 * fuzz_config - ruas_config_load_buffer on arbitrary bytes: never crash, leak or accept a root
 * run_as_user; and every people block and project it accepts, built again in code
 * (ruas_config_set_people, ruas_config_add_project), is accepted too and comes out the same,
 * but for a run_as_user with no passwd entry, which code refuses (and the file leaves to
 * preflight).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "config/config_int.h"
#include "ruas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_strv(char *const *a, char *const *b)
{
	for (; a && b && *a && *b; a++, b++)
		if (strcmp(*a, *b) != 0)
			return 0;
	return (!a && !b) || (a && b && !*a && !*b);
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* p through the spec API into cfg, whose globals add nothing: the effective values come back. */
static void same_in_code(ruas_config *cfg, const struct ruas_project *p)
{
	static const char *const backends[] = {"auto", "sudo", "pam"};
	ruas_project_spec sp = RUAS_PROJECT_SPEC_INIT;
	sp.name = p->name;
	sp.work_dir = p->work_dir;
	sp.command = (const char *const *)p->command;
	sp.run_as_user = p->run_as_user;
	sp.env_allowlist = (const char *const *)p->env_allowlist;
	sp.scan_prune = (const char *const *)p->scan_prune;
	sp.target_sudo_allowed = (const char *const *)p->target_sudo_allowed;
	sp.backend = backends[p->backend];
	sp.pam_service = p->pam_service;
	sp.terminate_grace = (int)p->terminate_grace;
	sp.person = p->person;
	sp.deny_settings_args = (const char *const *)p->deny_settings_args;
	/*
	 * The one refusal of code's that a file's load leaves to preflight: a
	 * run_as_user with no passwd entry here (ruas.h). Refused, then, and
	 * nothing added; anything else must be taken.
	 */
	struct account acct;
	int lr = p->run_as_user ? account_lookup(p->run_as_user, &acct) : ACCOUNT_ERROR;
	if (lr == ACCOUNT_FOUND)
		account_clear(&acct);
	if (lr == ACCOUNT_MISSING) {
		size_t before = cfg->nprojects;
		ruas_error *err = NULL;
		if (ruas_config_add_project(cfg, &sp, &err) != RUAS_ERR_CONFIG ||
		    !strstr(ruas_error_message(err), "has no passwd entry") ||
		    cfg->nprojects != before)
			__builtin_trap();
		ruas_error_free(err);
		return;
	}
	if (ruas_config_add_project(cfg, &sp, NULL) != 0)
		__builtin_trap();
	const struct ruas_project *q = cfg->projects[cfg->nprojects - 1];
	if (!same_str(p->name, q->name) || !same_str(p->work_dir, q->work_dir) ||
	    !same_str(p->run_as_user, q->run_as_user) || !same_str(p->pam_service, q->pam_service) ||
	    !same_strv(p->command, q->command) || !same_strv(p->env_allowlist, q->env_allowlist) ||
	    !same_strv(p->scan_prune, q->scan_prune) ||
	    !same_strv(p->target_sudo_allowed, q->target_sudo_allowed) ||
	    !same_str(p->person, q->person) ||
	    !same_strv(p->deny_settings_args, q->deny_settings_args) ||
	    p->backend != q->backend || p->terminate_grace != q->terminate_grace)
		__builtin_trap();
}

/* The loaded people block through the spec API into cfg: accepted, and the same. */
static void people_in_code(ruas_config *cfg, const struct ruas_people *pp)
{
	ruas_person_spec *m = calloc(pp->nmembers + 1, sizeof *m);
	ruas_people_spec ps = RUAS_PEOPLE_SPEC_INIT;
	if (!m)
		__builtin_trap();
	for (size_t i = 0; i < pp->nmembers; i++) {
		m[i].version = RUAS_PERSON_SPEC_VERSION;
		m[i].id = pp->members[i].id;
		m[i].run_as_user = pp->members[i].run_as_user;
	}
	ps.worktrees = pp->worktrees;
	ps.credentials = pp->credentials;
	ps.claude_projects = pp->claude_projects;
	ps.enforce = pp->enforce_bwrap ? "bwrap" : "none";
	ps.members = m;
	ps.member_count = pp->nmembers;
	if (ruas_config_set_people(cfg, &ps, NULL) != 0)
		__builtin_trap();
	free(m);
	const struct ruas_people *q = cfg->people;
	if (!same_str(pp->worktrees, q->worktrees) || !same_str(pp->credentials, q->credentials) ||
	    !same_str(pp->claude_projects, q->claude_projects) ||
	    pp->enforce_bwrap != q->enforce_bwrap || pp->nmembers != q->nmembers)
		__builtin_trap();
	for (size_t i = 0; i < pp->nmembers; i++)
		if (!same_str(pp->members[i].id, q->members[i].id) ||
		    !same_str(pp->members[i].run_as_user, q->members[i].run_as_user))
			__builtin_trap();
}

static void rebuild_in_code(const ruas_config *loaded, const ruas_config_options *o)
{
	const char *const none[] = {NULL};
	ruas_config_globals g = RUAS_CONFIG_GLOBALS_INIT;
	g.sudo = loaded->sudo;
	g.helper = loaded->helper;
	g.session_helper = loaded->session_helper;
	g.env_allowlist = none;
	ruas_config *cfg = NULL;
	if (ruas_config_new(&cfg, &g, o, NULL) != 0)
		__builtin_trap();
	if (loaded->people)
		people_in_code(cfg, loaded->people);
	for (size_t i = 0; i < loaded->nprojects; i++)
		same_in_code(cfg, loaded->projects[i]);
	ruas_config_free(cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = 4242;
	if (ruas_config_load_buffer(&cfg, (const char *)data, size, "fuzz.conf", &o, &err) == 0) {
		for (size_t i = 0; i < ruas_config_project_count(cfg); i++) {
			const ruas_project *p = ruas_config_project_at(cfg, i);
			const char *u = ruas_project_run_as_user(p);
			/* Properties of every accepted configuration. */
			if (u && (strcmp(u, "root") == 0 || ruas_user_name_problem(u)))
				__builtin_trap();
			if (ruas_project_work_dir(p)[0] != '/' || !ruas_project_command(p)[0] ||
			    !ruas_project_command(p)[0][0])
				__builtin_trap();
			for (const char *const *a = ruas_project_env_allowlist(p); *a; a++)
				if (strcmp(*a, "PATH") == 0 || strncmp(*a, "LD_", 3) == 0)
					__builtin_trap();
		}
		rebuild_in_code(cfg, &o);
		ruas_config_free(cfg);
	} else if (!err || !ruas_error_message(err)[0]) {
		__builtin_trap(); /* every refusal says why */
	}
	ruas_error_free(err);
	return 0;
}
