/* SPDX-License-Identifier: ISC */
/*
 * headers.c - compiled by tests/pkgconfig.sh once per public header, with
 * RUAS_HEADER naming it: each ruas/ header stands alone (it includes what
 * it uses), and its _INIT macros initialize, in C and in C++ before and
 * after C++20 (designated initializers, or by position).
 */
#include RUAS_HEADER

#ifdef RUAS_CHECK_H
static ruas_preflight_options preflight = RUAS_PREFLIGHT_OPTIONS_INIT;
#endif
#ifdef RUAS_SPAWN_H
static ruas_spawn_options spawn = RUAS_SPAWN_OPTIONS_INIT;
#endif
#ifdef RUAS_CONFIG_H
static ruas_config_options config = RUAS_CONFIG_OPTIONS_INIT;
static ruas_config_globals globals = RUAS_CONFIG_GLOBALS_INIT;
static ruas_person_spec person = RUAS_PERSON_SPEC_INIT;
static ruas_people_spec people = RUAS_PEOPLE_SPEC_INIT;
static ruas_project_spec project = RUAS_PROJECT_SPEC_INIT;
#endif
#ifdef RUAS_AUDIT_H
static ruas_audit_sink sink = RUAS_AUDIT_SINK_INIT;
#endif
#ifdef RUAS_PROVISION_H
static ruas_target_options target = RUAS_TARGET_OPTIONS_INIT;
#endif

/* Each default where a macro by position would have put it; 0 when all are. */
int main(void)
{
	int wrong = 0;
#ifdef RUAS_SPAWN_H
	wrong |= spawn.version != RUAS_SPAWN_OPTIONS_VERSION || spawn.stdin_fd != -1 ||
		 spawn.stderr_fd != -1 || spawn.pty != RUAS_PTY_AUTO || spawn.audit != NULL;
#endif
#ifdef RUAS_CHECK_H
	wrong |= preflight.version != RUAS_PREFLIGHT_OPTIONS_VERSION || preflight.fresh_host != 0;
#endif
#ifdef RUAS_CONFIG_H
	wrong |= config.supervisor_uid != (uid_t)-1 || globals.terminate_grace != RUAS_UNSET ||
		 globals.host_check_interval != RUAS_UNSET || person.id != NULL ||
		 people.member_count != 0 || project.terminate_grace != RUAS_UNSET ||
		 project.lifetime != NULL;
#endif
#ifdef RUAS_AUDIT_H
	wrong |= sink.fd != -1 || sink.to != RUAS_AUDIT_TO_SYSLOG;
#endif
#ifdef RUAS_PROVISION_H
	wrong |= target.version != RUAS_TARGET_OPTIONS_VERSION || target.sudo_allowed != NULL;
#endif
	return wrong;
}
