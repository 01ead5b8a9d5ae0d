/* account.h - thread-safe user database lookups. */
#ifndef RUAS_ACCOUNT_H
#define RUAS_ACCOUNT_H

#include <sys/types.h>

enum { ACCOUNT_FOUND = 0, ACCOUNT_MISSING = 1, ACCOUNT_ERROR = -1 };

struct account {
	char *name;
	char *home;
	char *shell;
	uid_t uid;
	gid_t gid;
};

/* ACCOUNT_FOUND (fill *a, free with account_clear), ACCOUNT_MISSING or ACCOUNT_ERROR. */
int account_lookup(const char *name, struct account *a);
int account_lookup_uid(uid_t uid, struct account *a);
void account_clear(struct account *a);

/* Non-zero for shells with which sudo -i cannot run a command (nologin, false). */
int shell_refuses_login(const char *shell);

/*
 * Names of the groups (primary and supplementary) of a user that give root
 * or its equivalent: sudo, wheel, admin, docker, lxd, libvirt, disk, shadow.
 * Appends ", "-separated names to *out (malloc'd, NULL when none). -1 on error.
 */
int account_root_groups(const struct account *a, char **out);

#endif
