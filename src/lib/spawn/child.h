/* SPDX-License-Identifier: ISC */
/* child.h - the child handle: ruas_spawn() fills it, child.c waits on it and frees it. */
#ifndef RUAS_SPAWN_CHILD_H
#define RUAS_SPAWN_CHILD_H

#include <pthread.h>
#include <sys/types.h>

#include "control.h"
#include "ruas.h"

struct ruas_child {
	pid_t pid;   /* what ruas_spawn() started: sudo, ruas-session, or the command */
	pid_t agent_pid; /* the agent's own, as this process's /proc names it; 0: unknown */
	int pidfd;   /* pid's pidfd, readable once it has ended; -1 when the kernel has none */
	int chan;    /* the channel to ruas-exec (channel.h); -1: none (direct, or it never came) */
	char *files; /* per-spawn directory of deny files, removed at free */
	pthread_mutex_t lock;
	int reaped;
	int exit_code;
	int term_signal; /* the signal that ended the agent, 0 when it exited */
	int master;      /* the agent's pty (spawn option pty), -1: none */
	int pam;         /* pid is ruas-session (the pam backend): see child.c kill_unanswered() */
	int relayed;     /* the library relays the pty (relay.h): set at spawn, never changed */
	struct spawn_relay *relay; /* that relay, until spawn_relay_finish(), under relay_lock */
	pthread_mutex_t relay_lock;
	/* The helper's news (child.c take_news), under the lock. */
	int state;       /* RUAS_CHILD_RUNNING, _STOPPED, _ENDING */
	int stop_signal;
	int said;        /* the helper's EXIT came: said_exit holds it */
	struct msg_exit said_exit;
	/*
	 * Whether the agent's program started (control.h): 1 without
	 * run_as_user (posix_spawn reports a failed exec) and from the
	 * helper's EXIT; -1 while unknown (no EXIT came).
	 */
	int started;
	long survivors; /* the helper's count of what it killed when the agent ended; -1: unknown */
	struct audit_run *audit; /* its run id and records (audit/run.h) */
	int end_recorded;        /* the end record has been made (or is being), under the lock */
	int end_unknown;         /* ... saying the end is unknown (audit.md) */
	struct wall_time *wall;  /* the project's wall_time_max (wall_time.h), NULL: none */
	int wall_fired;          /* its deadline came, kept when free stops it */
	int time_limited;        /* wall_time_max ended it: fixed as it is reaped, under the lock */
	/*
	 * The run's own cgroup (limit_cgroup.h), NULL: none, or ended. Its
	 * counts are read as the run is reaped (under the lock, into the
	 * fields below); then the reaper ends it (cgroup_finish()).
	 */
	struct limit_cgroup *cg;
	/* The run's credential server (cred/serve.h), NULL: none; freed with the handle. */
	struct cred_serve *cred;
	int memory_limited, tasks_limited;
	unsigned long long peak_bytes, cpu_usec; /* ULLONG_MAX: not known */
};

/*
 * One message of the helper's into c: EXIT, STOPPED or CONTINUED (others
 * are not c's); under c's lock, or before anyone else has c.
 */
struct buf;
void child_take_message(struct ruas_child *c, int type, const struct buf *body);
/*
 * Up to ms_max for what c started to end, without reaping it: on its
 * pidfd, or where the kernel gives none (before Linux 5.3; valgrind), by
 * asking every 10 ms, so that it gets the same time either way.
 */
void child_wait_end(const struct ruas_child *c, int ms_max);
/* Whether c has been reaped (under its lock). */
int child_has_been_reaped(struct ruas_child *c);
/*
 * c's run, should it not have ended, ended as free ends one whose helper
 * does not answer (kill_unanswered() in child.c): for the wall clock.
 */
void child_end_unanswered(struct ruas_child *c);

#endif
