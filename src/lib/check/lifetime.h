/* SPDX-License-Identifier: ISC */
/*
 * lifetime.h - what can keep a target's processes alive after a run ends:
 * lingering, a running systemd user manager, cron and at. ruas ends the
 * agent's process tree; a process handed to one of these is not in it.
 * The library reads it all itself, as the supervisor (or root): nothing of
 * it goes through the helper.
 */
#ifndef RUAS_LIFETIME_H
#define RUAS_LIFETIME_H

#include <sys/types.h>

/* Whether the target may hand jobs to crontab or at, by the files that decide. */
enum sched_verdict {
	SCHED_NO,            /* the program is not installed, or the files deny it */
	SCHED_ALLOW_LISTED,  /* the allow file names it */
	SCHED_DENY_UNLISTED, /* no allow file, and the deny file does not name it */
	SCHED_NO_FILES,      /* neither file: crontab then lets every user (Debian) */
	SCHED_UNREADABLE,    /* the file that decides exists, but could not be read */
};

struct sched {
	enum sched_verdict verdict;
	const char *file; /* static: the file that decided ("/etc/cron.allow"), or NULL */
};

struct outlives {
	int linger;        /* /var/lib/systemd/linger/USER exists */
	int manager;       /* a systemd user manager runs for its uid */
	struct sched cron; /* crontab(1) */
	struct sched at;   /* at(1) and batch(1) */
	int crontab;       /* it has a crontab in /var/spool/cron/crontabs (root sees it) */
};

/*
 * Looks, beneath the directory root ("/" for the host; a fake tree in the
 * tests), at what user `user` (uid `uid`, a plain user name) can hand
 * processes to. What cannot be read counts as absent, except an allow or
 * deny file that exists (SCHED_UNREADABLE).
 */
void lifetime_probe(const char *root, const char *user, uid_t uid, struct outlives *out);

/* Non-zero when lt holds anything that outlives a run. */
int lifetime_any(const struct outlives *lt);

#endif
