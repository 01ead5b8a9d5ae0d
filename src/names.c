/* names.c - name validation. Fail closed: anything unusual is refused. */
#include "names.h"

#include <string.h>

const char *user_name_problem(const char *name)
{
	size_t n = strlen(name);
	if (n == 0)
		return "is empty";
	if (n > RUAS_USER_NAME_MAX)
		return "is longer than 32 bytes";
	if (!((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_'))
		return "must start with a lower-case letter or '_' "
		       "(names like ALL, #uid, %group, +netgroup or -x mean "
		       "something else to sudo)";
	for (size_t i = 1; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return "may contain only a-z, 0-9, '_' and '-' "
			       "(pattern ^[a-z_][a-z0-9_-]*$)";
	}
	return NULL;
}

static int is_alpha_(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

int env_name_is_identifier(const char *name)
{
	if (!is_alpha_(name[0]))
		return 0;
	for (const char *p = name + 1; *p; p++)
		if (!is_alpha_(*p) && !(*p >= '0' && *p <= '9'))
			return 0;
	return 1;
}

/* Set by sudo -i and the login shell; the target's own values must stand. */
static const char *const login_vars[] = {
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "MAIL", "PWD", "OLDPWD",
	"TMPDIR", "XDG_RUNTIME_DIR", NULL};
/* Change how shells start or parse. */
static const char *const shell_vars[] = {
	"BASH_ENV", "ENV", "IFS", "CDPATH", "PS4", "SHELLOPTS", "BASHOPTS",
	"GLOBIGNORE", "PROMPT_COMMAND", "POSIXLY_CORRECT", "HISTFILE", NULL};
/* glibc's unsecure set (sysdeps/generic/unsecvars.h) and interpreter hooks. */
static const char *const loader_vars[] = {
	"GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES",
	"LOCALDOMAIN", "LOCPATH", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF",
	"RES_OPTIONS", "TZDIR", "PERL5LIB", "PERL5OPT", "PERLLIB", "PYTHONPATH",
	"PYTHONHOME", "PYTHONSTARTUP", "RUBYLIB", "RUBYOPT", "NODE_OPTIONS",
	"NODE_PATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", NULL};
static const char *const refused_prefixes[] = {"LD_", "SUDO_", "BASH_FUNC_",
					       "MALLOC_", "RUAS_", NULL};

static int in_list(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(name, *list) == 0)
			return 1;
	return 0;
}

const char *env_name_refusal(const char *name)
{
	if (!env_name_is_identifier(name))
		return "is not a variable name (pattern ^[A-Za-z_][A-Za-z0-9_]*$)";
	if (in_list(name, login_vars))
		return "is part of the target's login environment, which sudo -i "
		       "and the target's profile set";
	if (in_list(name, shell_vars))
		return "changes how the target's shells start or parse commands";
	if (in_list(name, loader_vars))
		return "changes what code the target's loader or interpreters run";
	for (const char *const *p = refused_prefixes; *p; p++)
		if (strncmp(name, *p, strlen(*p)) == 0)
			return strcmp(*p, "RUAS_") == 0
				       ? "is reserved for ruas itself"
				       : "belongs to a family (LD_*, SUDO_*, "
					 "BASH_FUNC_*, MALLOC_*) that the "
					 "loader, sudo or bash interpret";
	return NULL;
}

int project_name_is_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 128)
		return 0;
	if (!((name[0] >= 'a' && name[0] <= 'z') ||
	      (name[0] >= 'A' && name[0] <= 'Z') ||
	      (name[0] >= '0' && name[0] <= '9')))
		return 0;
	for (size_t i = 1; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_.@+-", c)))
			return 0;
	}
	return 1;
}
