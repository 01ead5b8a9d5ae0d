/* SPDX-License-Identifier: ISC */
/*
 * pam_stack.h - PAM auth stacks that let the target in without a password.
 *
 * The services through which a process of the target's can become another
 * user (su, su-l, sudo, sudo-i, doas, polkit-1: pkexec, login, runuser,
 * runuser-l, sshd, and other: what a service without a file gets), as
 * Linux-PAM reads them from /etc/pam.d, @include followed. An auth line whose control ends
 * the stack on success (sufficient, or [success=done ...]) with a module
 * that asks for no password and lets this user pass is a way up:
 * pam_permit (anyone), pam_wheel with trust (members of its group: group=G,
 * else wheel, else gid 0), pam_succeed_if whose conditions all hold for the
 * user (user, uid, gid, ingroup, notingroup; a field it cannot judge for
 * the user, such as tty or rhost, is taken to hold). Each finding names
 * the file, the line and why. A line that passes and jumps ([success=N])
 * is a way up when the stack, run on from where it lands as Linux-PAM runs
 * it (a module that asks for a password fails, pam_deny fails, pam_env and
 * the like are ignored), succeeds.
 */
#ifndef RUAS_CHECK_PAM_STACK_H
#define RUAS_CHECK_PAM_STACK_H

#include <stddef.h>
#include <sys/types.h>

struct pam_way {
	char *service; /* whose stack: "su" */
	char *file;    /* where the line is: "/etc/pam.d/su" (or an @included file) */
	int line;
	char *text; /* the line as written, trimmed */
	char *why;  /* "pam_permit lets anyone in" */
};
struct pam_ways {
	struct pam_way *v;
	size_t n;
};

/* The user whose ways are judged. */
struct pam_user {
	const char *name;
	uid_t uid;
	gid_t gid;
	const gid_t *gids; /* its primary and supplementary groups */
	size_t ngids;
};

/* Is the user in group g (its primary one or another)? 1 or 0. */
int pam_user_in_group(const struct pam_user *u, gid_t g);
/* Is the user in the group named name? 1, 0, or -1 when there is no such group. */
int pam_user_in_group_named(const struct pam_user *u, const char *name);

/* Judges the services in dir (NULL: /etc/pam.d) for u. 0 (free *out), or -1 on OOM. */
int pam_ways_up(const char *dir, const struct pam_user *u, struct pam_ways *out);
void pam_ways_free(struct pam_ways *w);
/* Appends a way (copies of the strings): 0, or -1 when out of memory. */
int pam_ways_add(struct pam_ways *out, const char *service, const char *file, int line,
		 const char *text, const char *why);
/* A file's first max bytes or so, NUL-terminated (malloc'd), or NULL. */
char *pam_file_read(const char *path, size_t max);

#endif
