/* sudo_call.c - see sudo_call.h. */
#include "spawn/sudo_call.h"

#include "account.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

const char *const sudo_call_envp[] = {NULL};

void sudo_call_build(struct sudo_call *c, const char *sudo, const char *user, const char *helper)
{
	sudo_call_build_via(c, sudo, NULL, user, helper);
}

void sudo_call_build_via(struct sudo_call *c, const char *sudo, const char *via, const char *user,
			 const char *helper)
{
	memset(c, 0, sizeof *c);
	const char **a = c->argv;
	if (via) {
		*a++ = sudo;
		*a++ = "-n";
		*a++ = "-u";
		*a++ = via;
		*a++ = "--";
	}
	*a++ = sudo;
	*a++ = "-n";
	*a++ = "-u";
	*a++ = user;
	*a++ = "--";
	*a++ = helper;
	*a++ = "--channel-fd";
	*a++ = "0";
	*a = NULL;
}

int sudo_failed_itself(const char *said, const char *user)
{
	static const struct {
		const char *words;
		int errnum;
	} own[] = {
		{"Too many open files in system", ENFILE},
		{"Too many open files", EMFILE},
		{"Cannot allocate memory", ENOMEM},
		{"unable to allocate memory", ENOMEM},
		{"unable to initialize PAM", -1},
		{"PAM account management error", -1},
		{"unknown uid", -1},        /* the invoking user's entry could not be read */
		{"unable to fork", -1},
		{"Resource temporarily unavailable", -1},
	};
	for (size_t i = 0; said && i < sizeof own / sizeof own[0]; i++)
		if (strstr(said, own[i].words))
			return own[i].errnum;
	/* "unknown user" of a user this process finds: sudo could not read the database. */
	struct account a;
	int lr = said && user && strstr(said, "sudo: unknown user") ? account_lookup(user, &a)
								   : ACCOUNT_MISSING;
	if (lr == ACCOUNT_FOUND)
		account_clear(&a);
	return lr == ACCOUNT_MISSING ? 0 : -1;
}

const char *sudo_failure_words(const char *said, char *buf, size_t size)
{
	struct rlimit rl;
	int got = getrlimit(RLIMIT_NOFILE, &rl) == 0;
	(void)said;
	snprintf(buf, size,
		 "sudo failed by itself, not by its rules: it and its PAM modules run under this "
		 "process's limits (RLIMIT_NOFILE %llu%s)",
		 got ? (unsigned long long)rl.rlim_cur : 0ull,
		 got ? "; raise it if it is low" : ", unknown");
	return buf;
}
