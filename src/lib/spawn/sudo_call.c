/* SPDX-License-Identifier: ISC */
/* sudo_call.c - see sudo_call.h. */
#include "spawn/sudo_call.h"

#include "account.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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

/*
 * What sudo says when it fails by itself, most particular first ("... in
 * system" before "Too many open files"), with what it means: each its own
 * words, naming the limit only where that limit is the cause.
 */
enum own_kind {
	OWN_NOFILE,
	OWN_SYSFILE,
	OWN_MEMORY,
	OWN_PAM,
	OWN_SELF_ENTRY,
	OWN_FORK,
	OWN_AGAIN,
	OWN_USER_ENTRY, /* "unknown user" of a user this process finds */
};
static const struct own {
	const char *words;
	int errnum;
	enum own_kind kind;
} own[] = {
	{"Too many open files in system", ENFILE, OWN_SYSFILE},
	{"Too many open files", EMFILE, OWN_NOFILE},
	{"Cannot allocate memory", ENOMEM, OWN_MEMORY},
	{"unable to allocate memory", ENOMEM, OWN_MEMORY},
	{"unable to initialize PAM", -1, OWN_PAM},
	{"PAM account management error", -1, OWN_PAM},
	{"unknown uid", -1, OWN_SELF_ENTRY}, /* the invoking user's entry could not be read */
	{"unable to fork", -1, OWN_FORK},
	{"Resource temporarily unavailable", -1, OWN_AGAIN},
};

static const struct own *own_failure(const char *said)
{
	for (size_t i = 0; said && i < sizeof own / sizeof own[0]; i++)
		if (strstr(said, own[i].words))
			return &own[i];
	return NULL;
}

/* Whether said is sudo's "unknown user" of a user this process finds. */
static int user_unread(const char *said, const char *user)
{
	struct account a;
	int lr = said && user && strstr(said, "sudo: unknown user") ? account_lookup(user, &a)
								   : ACCOUNT_MISSING;
	if (lr == ACCOUNT_FOUND)
		account_clear(&a);
	return lr != ACCOUNT_MISSING;
}

int sudo_failed_itself(const char *said, const char *user)
{
	const struct own *o = own_failure(said);
	if (o)
		return o->errnum;
	/* "unknown user" of a user this process finds: sudo could not read the database. */
	return user_unread(said, user) ? -1 : 0;
}

/* This process's soft limit of resource r, which sudo inherits, as words. */
static const char *limit_words(int r, char *buf, size_t size)
{
	struct rlimit rl;
	if (getrlimit(r, &rl) != 0)
		snprintf(buf, size, "unknown");
	else if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", (unsigned long long)rl.rlim_cur);
	return buf;
}

const char *sudo_failure_words(const char *said, char *buf, size_t size)
{
	static const char head[] = "sudo failed by itself, not by its rules: ";
	const struct own *o = own_failure(said);
	char lim[32];
	switch (o ? o->kind : OWN_USER_ENTRY) {
	case OWN_NOFILE:
		snprintf(buf, size,
			 "%sit ran out of file descriptors: it and its PAM modules run under this "
			 "process's limits (RLIMIT_NOFILE %s; raise it if it is low)",
			 head, limit_words(RLIMIT_NOFILE, lim, sizeof lim));
		break;
	case OWN_SYSFILE:
		snprintf(buf, size,
			 "%sthe host ran out of file descriptors (ENFILE: compare "
			 "/proc/sys/fs/file-nr with fs.file-max)",
			 head);
		break;
	case OWN_MEMORY:
		snprintf(buf, size,
			 "%sit ran out of memory (it runs under this process's RLIMIT_AS, %s, and "
			 "the host's free memory)",
			 head, limit_words(RLIMIT_AS, lim, sizeof lim));
		break;
	case OWN_PAM:
		snprintf(buf, size,
			 "%sits PAM stack failed: the host's auth log (journalctl, "
			 "/var/log/auth.log) names the module; one that cannot open its files "
			 "fails so, as under a low RLIMIT_NOFILE (%s here)",
			 head, limit_words(RLIMIT_NOFILE, lim, sizeof lim));
		break;
	case OWN_SELF_ENTRY:
		snprintf(buf, size,
			 "%sit could not read the passwd entry of the user it runs as (uid %lu): "
			 "check /etc/nsswitch.conf and the services it names",
			 head, (unsigned long)getuid());
		break;
	case OWN_FORK:
		snprintf(buf, size,
			 "%sit could not fork: this user has as many processes as its "
			 "RLIMIT_NPROC allows (%s), or the host's pid limit or a pids cgroup "
			 "is full",
			 head, limit_words(RLIMIT_NPROC, lim, sizeof lim));
		break;
	case OWN_AGAIN:
		snprintf(buf, size,
			 "%sa resource ran out (EAGAIN): most often the user it switches to has as "
			 "many processes as RLIMIT_NPROC allows (%s here), or a pids cgroup is "
			 "full",
			 head, limit_words(RLIMIT_NPROC, lim, sizeof lim));
		break;
	case OWN_USER_ENTRY:
		snprintf(buf, size,
			 "%sit could not read the target's passwd entry, which this process "
			 "reads: check /etc/nsswitch.conf and the services it names, and sudo's "
			 "limits (RLIMIT_NOFILE %s)",
			 head, limit_words(RLIMIT_NOFILE, lim, sizeof lim));
		break;
	}
	return buf;
}
