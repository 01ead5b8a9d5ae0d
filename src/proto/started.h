/* SPDX-License-Identifier: ISC */
/*
 * started.h - STARTED, ruas-exec -> library on the spawn channel (channel.h),
 * once per run, before any EXIT: whether the agent's own program started
 * (its exec succeeded) or why not. ruas_spawn() returns only once it has
 * come, so that a start that failed is the spawn's error (RUAS_ERR_START),
 * never an exit status that could be the agent's.
 *
 * How the helper knows: the inner helper (agent.h) sends START_EXEC with
 * the read end of a pipe whose write end only it holds, close-on-exec; the
 * pipe's end of file with no START_FAILED before it is the exec that
 * succeeded, whatever the login files left holding descriptor 3.
 *
 *   ok        1: the agent runs; 0: it never will (the run is ending)
 *   stage     0 with ok; else one of started_stage, which are the values
 *             of the public RUAS_STAGE_* (ruas.h; the library checks so)
 *   errnum    0, or the errno of the failure (1..4095; 0 for a refusal
 *             that has none, such as sudo's or a login file's)
 *   lifetime  how the run is held (payload.h's LIFETIME_PIDNS or
 *             LIFETIME_SUBREAPER): what "auto" became
 *   agent_pid with ok: the agent's pid in the PID namespace at pid_level
 *             (the helper's own, as the kernel named the inner helper that
 *             became the agent); 0 when unknown or not ok
 *   pid_level the depth of that namespace below the one of the helper's
 *             /proc (0: the same; the library finds the agent's own pid
 *             there, child.c)
 *   reason    "" with ok; else one line for the supervisor (at most
 *             STARTED_REASON_MAX bytes, printable, no newline)
 */
#ifndef RUAS_PROTO_STARTED_H
#define RUAS_PROTO_STARTED_H

#include <stddef.h>

#include "buf.h"

enum started_stage {
	STARTED_STAGE_SUDO = 1,     /* sudo or PAM refused the switch (the library's own verdict) */
	STARTED_STAGE_WORK_DIR = 2, /* the agent's working directory could not be entered */
	STARTED_STAGE_EXEC = 3,     /* the agent's exec failed */
	STARTED_STAGE_LOGIN = 4,    /* the login shell or its login files never ran the agent */
	STARTED_STAGE_HELPER = 5,   /* the helper could not set up the run */
};
#define STARTED_STAGE_MAX STARTED_STAGE_HELPER
#define STARTED_REASON_MAX 1024 /* a STARTED fits a control message (channel.h) */

struct msg_started {
	int ok;
	int stage;
	int errnum;
	int lifetime;
	unsigned int agent_pid;
	unsigned int pid_level; /* 0..32 */
	char *reason; /* decoded: malloc'd, the caller's to free; encoded: borrowed */
};

/* 0, or -1 when out of memory or a value is out of range (the buf is then not to be sent). */
int msg_started_encode(struct buf *out, const struct msg_started *m);
/* 0 with *m filled (m->reason to free), or -1 for anything out of range or left over. */
int msg_started_decode(const void *body, size_t len, struct msg_started *m);

/*
 * reason made fit to send: cut at STARTED_REASON_MAX bytes, every byte
 * below 0x20 (a newline, an escape) and 0x7f as a space, trailing spaces
 * gone. Into out (size > 0).
 */
void started_reason_fit(char *out, size_t size, const char *reason);

#endif
