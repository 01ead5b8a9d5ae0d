/* SPDX-License-Identifier: ISC */
/*
 * accessors.c - the loaded configuration as the embedder sees it: the
 * ruas_config_* and ruas_project_* getters, and freeing it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/count.h"
#include "config/loader.h"
#include "strv.h"

enum backend project_backend(const struct ruas_project *p)
{
	if (p->backend != BACKEND_AUTO)
		return p->backend;
	return geteuid() == 0 ? BACKEND_PAM : BACKEND_SUDO;
}

void project_free(struct ruas_project *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->work_dir);
	free(p->run_as_user);
	strv_free(p->command);
	strv_free(p->env_allowlist);
	strv_free(p->scan_prune);
	free(p->pam_service);
	free(p->person);
	strv_free(p->deny_settings_args);
	strv_free(p->target_sudo_allowed);
	cred_list_free(&p->credentials);
	git_host_list_free(&p->git_hosts);
	free(p->claude_api_key);
	free(p);
}

enum lifetime project_lifetime(const struct ruas_project *p)
{
	if (p->lifetime == LIFETIME_CFG_AUTO && p->nsudo_allowed > 0 &&
	    project_backend(p) == BACKEND_SUDO)
		return LIFETIME_CFG_SUBREAPER;
	return p->lifetime;
}

void ruas_config_free(ruas_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->nprojects; i++)
		project_free(cfg->projects[i]);
	people_free(cfg->people);
	cred_list_free(&cfg->credentials);
	git_host_list_free(&cfg->git_hosts);
	free(cfg->claude_api_key);
	audit_count_unref(cfg->audit_undelivered);
	free(cfg->projects);
	free(cfg->path);
	free(cfg->audit.log);
	free(cfg->sudo);
	free(cfg->helper);
	free(cfg->session_helper);
	free(cfg->supervisor_name);
	free(cfg->supervisor);
	strv_free(cfg->target_sudo_allowed);
	strv_free(cfg->env_allowlist);
	strv_free(cfg->scan_prune);
	free(cfg->pam_service);
	free(cfg->cgroup_parent);
	free(cfg);
}

unsigned long ruas_config_audit_undelivered(const ruas_config *cfg)
{
	return cfg ? audit_count_get(cfg->audit_undelivered) : 0;
}

const char *ruas_config_path(const ruas_config *cfg)
{
	return cfg->path;
}

const char *ruas_config_sudo(const ruas_config *cfg)
{
	return cfg->sudo;
}

const char *ruas_config_helper(const ruas_config *cfg)
{
	return cfg->helper;
}

const char *ruas_config_supervisor(const ruas_config *cfg)
{
	return cfg->supervisor;
}

size_t ruas_config_project_count(const ruas_config *cfg)
{
	return cfg->nprojects;
}

const ruas_project *ruas_config_project_at(const ruas_config *cfg, size_t i)
{
	return i < cfg->nprojects ? cfg->projects[i] : NULL;
}

const ruas_project *ruas_config_project_find(const ruas_config *cfg,
					      const char *name)
{
	for (size_t i = 0; name && i < cfg->nprojects; i++)
		if (strcmp(cfg->projects[i]->name, name) == 0)
			return cfg->projects[i];
	return NULL;
}

const char *ruas_project_name(const ruas_project *p) { return p->name; }
const char *ruas_project_person(const ruas_project *p) { return p->person; }

unsigned int ruas_project_wall_time_max(const ruas_project *p)
{
	return p ? p->limits.wall_time : 0;
}

unsigned int ruas_project_open_files_max(const ruas_project *p)
{
	return p ? (unsigned int)p->limits.open_files : 0;
}

const char *ruas_project_file_size_max(const ruas_project *p)
{
	return p && p->limits.file_size ? p->limits.file_size_text : NULL;
}

int ruas_project_core_dumps(const ruas_project *p)
{
	return p ? p->limits.core_dumps : 0;
}

int ruas_project_require_command(const ruas_project *p)
{
	return p ? p->require_command : 0;
}

const char *ruas_project_memory_max(const ruas_project *p)
{
	return p && p->limits.memory ? p->limits.memory_text : NULL;
}

const char *ruas_project_memory_swap_max(const ruas_project *p)
{
	if (!p || !p->limits.memory)
		return NULL;
	return p->limits.memory_swap_set ? p->limits.memory_swap_text : "0";
}

unsigned int ruas_project_tasks_max(const ruas_project *p)
{
	return p ? (unsigned int)p->limits.tasks : 0;
}

const char *ruas_project_cpu_max(const ruas_project *p)
{
	return p && p->limits.cpu_milli ? p->limits.cpu_text : NULL;
}

unsigned int ruas_project_terminate_grace(const ruas_project *p)
{
	return p->terminate_grace;
}

const char *ruas_project_backend(const ruas_project *p)
{
	if (!p->run_as_user)
		return "none";
	return project_backend(p) == BACKEND_PAM ? "pam" : "sudo";
}
const char *ruas_project_work_dir(const ruas_project *p) { return p->work_dir; }
const char *ruas_project_run_as_user(const ruas_project *p) { return p->run_as_user; }

const char *const *ruas_project_command(const ruas_project *p)
{
	return (const char *const *)p->command;
}

const char *const *ruas_project_env_allowlist(const ruas_project *p)
{
	return (const char *const *)p->env_allowlist;
}

const char *const *ruas_project_target_sudo_allowed(const ruas_project *p)
{
	static const char *const none[] = {NULL};
	return p->target_sudo_allowed ? (const char *const *)p->target_sudo_allowed : none;
}
