/* SPDX-License-Identifier: ISC */
/* account.h - thread-safe user database lookups. */
#ifndef RUAS_ACCOUNT_H
#define RUAS_ACCOUNT_H

#include <stddef.h>
#include <sys/types.h>

#include "ruas.h"

enum { ACCOUNT_FOUND = 0, ACCOUNT_MISSING = 1, ACCOUNT_ERROR = -1 };

struct account {
	char *name;
	char *home;
	char *shell;
	uid_t uid;
	gid_t gid;
};

/*
 * ACCOUNT_FOUND (fill *a, free with account_clear), ACCOUNT_MISSING or
 * ACCOUNT_ERROR with errno set: EMFILE or ENFILE whenever the database
 * ran out of descriptors, even when it then said "not found" (an entry it
 * could not read is not known to be missing).
 */
int account_lookup(const char *name, struct account *a);
int account_lookup_uid(uid_t uid, struct account *a);
void account_clear(struct account *a);
/* Its primary and supplementary gids (getgrouplist): 0 with *out (free it) and *count, or -1. */
int account_gids(const struct account *a, gid_t **out, int *count);

/* Non-zero for shells with which sudo -i cannot run a command (nologin, false). */
int shell_refuses_login(const char *shell);

/* One group of a user that ruas_group_risk() finds a risk. */
struct group_hit {
	char *name; /* NULL for a gid without a name */
	unsigned long gid;
	int primary; /* the user's primary group (passwd's gid) */
	int member;  /* listed as a member (supplementary), which gpasswd -d undoes */
	ruas_severity severity;
	const char *why; /* static */
	int session; /* not in the group database: granted at login (pam_group) */
};
struct group_hits {
	struct group_hit *v;
	size_t n;
};

/*
 * The gid and member list of each name of the risk table
 * (ruas_group_risk_at) and of gid 0's group, looked up once for the many
 * users of a check: each
 * lookup can cost a hundred system calls (NSS's files and systemd's
 * userdb), and every group of every user is compared with all of them.
 */
#define GROUP_RISK_NAMES_MAX 64
struct group_risk_gids {
	size_t n;
	gid_t gid[GROUP_RISK_NAMES_MAX];
	unsigned char found[GROUP_RISK_NAMES_MAX];
	char **members[GROUP_RISK_NAMES_MAX]; /* the group's own member list */
	char *mem[GROUP_RISK_NAMES_MAX];      /* what members points into */
	/* gid 0's group (judged by its number, whatever its name); NULL name: none. */
	const char *root_name;
	char **root_members;
	char *root_mem;
};
/*
 * 0 (free with group_risk_gids_clear), or -1 when the group database fails
 * (then pass NULL: each call looks them up).
 */
int group_risk_gids_load(struct group_risk_gids *g);
void group_risk_gids_clear(struct group_risk_gids *g);

/*
 * The user's groups (primary and supplementary) that give root or read what
 * is not theirs, in the order getgrouplist() gives them, then any table
 * group (or gid 0's) whose own member list names the user but which that
 * list lacked (membership is read both ways, and either is enough; a group
 * of another name that shares a risky gid is read only the first way):
 * ruas_group_risk()
 * (src/lib/check/group_risk.c) judges each by gid and name; a group of
 * another name that shares a risky group's gid is that group (known: the
 * table's gids, or NULL to look them up now). 0 (free *out with
 * group_hits_clear, even when empty) or -1 when the groups could not be read.
 */
int account_group_risks(const struct account *a, const struct group_risk_gids *known,
			struct group_hits *out);

/*
 * The groups the target really had in its login session (the probe's
 * getgroups()), minus those of the group database and those *out already
 * has: what a PAM module such as pam_group granted. Risky ones are
 * appended to *out with session set.
 * 0, or -1 when the groups could not be read.
 */
int account_session_group_risks(const struct account *a, const unsigned long *gids, size_t n,
				const struct group_risk_gids *known, struct group_hits *out);
void group_hits_clear(struct group_hits *h);

#endif
