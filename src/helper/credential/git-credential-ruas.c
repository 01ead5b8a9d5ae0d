/* SPDX-License-Identifier: ISC */
/*
 * git-credential-ruas [--username=USER] NAME ACTION - git's credential
 * helper (gitcredentials(7)) for the run's credential NAME
 * (docs/credentials.md).
 *
 * ruas-exec points git at it for each of the project's git_hosts, through
 * GIT_CONFIG_COUNT/_KEY_n/_VALUE_n ("credential.https://HOST.helper =
 * ruas --username=USER NAME"), so git runs `git credential-ruas ... get`.
 * For get it answers username=USER and password=VALUE; store and erase
 * (and any action it does not know) it takes and ignores, as a helper
 * must: the value is the supervisor's, never kept here.
 */
#include <stdio.h>
#include <string.h>

#include "ask.h"

#define PROG "git-credential-ruas"

static int username_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || (i > 0 && strchr("._@+-", s[i]))))
			return 0;
	return 1;
}

/* What git says about the request (protocol=, host=, ...): read to its end, not needed. */
static void drain_stdin(void)
{
	char line[4096];
	while (fgets(line, sizeof line, stdin) && strcmp(line, "\n") != 0)
		;
}

int main(int argc, char **argv)
{
	static char value[ASK_VALUE_SIZE];
	const char *user = "x-access-token";
	int i = 1;
	if (i < argc && strncmp(argv[i], "--username=", 11) == 0)
		user = argv[i++] + 11;
	if (argc - i != 2 || !username_ok(user) || !ask_name_ok(argv[i])) {
		fputs("usage: git-credential-ruas [--username=USER] NAME get|store|erase\n"
		      "git's credential helper for the credential NAME of this ruas run.\n",
		      stderr);
		return 2;
	}
	const char *name = argv[i], *action = argv[i + 1];
	drain_stdin();
	if (strcmp(action, "get") != 0)
		return 0;
	if (ask_credential(PROG, name, value, sizeof value) < 0)
		return 1;
	int r = printf("username=%s\npassword=%s\n", user, value) < 0 || fflush(stdout) != 0;
	explicit_bzero(value, sizeof value);
	return r ? 1 : 0;
}
