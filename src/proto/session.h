/* SPDX-License-Identifier: ISC */
/*
 * session.h - SESSION: what the root library hands ruas-session (the pam
 * backend's root side), the first message of the channel on its
 * descriptor 3; ruas-exec's own PAYLOAD follows on the same channel, which
 * ruas-session hands down unread.
 *
 * Body (codec.h): "RUAS", the version byte (PAYLOAD_VERSION, so that the
 * two helpers and the library are of one release), then the fields in the
 * order of struct session.
 */
#ifndef RUAS_PROTO_SESSION_H
#define RUAS_PROTO_SESSION_H

#include <stddef.h>

#include "buf.h"

enum session_mode { SESSION_EXEC = 1, SESSION_CHECK = 2 };

struct session {
	char *user;
	char *service;
	char *ruser;       /* the supervisor, for PAM_RUSER */
	char *tty;         /* the caller's terminal, for PAM_TTY: "/dev/..." or "" for none */
	unsigned int mode; /* enum session_mode */
	char *helper;      /* ruas-exec, absolute */
	unsigned int lifetime; /* payload.h enum payload_lifetime */
	/*
	 * The project's terminate_grace: how long ruas-session lets the helper
	 * end the tree after a relayed signal before it kills the helper itself.
	 */
	unsigned int grace_seconds;
	/*
	 * The person whose private TMPDIR the run has ("" for none): in the
	 * PID namespace it makes, ruas-session covers /tmp/ruas-UID so that
	 * only this person's directory shows (tmp_cover.h). Version 12.
	 */
	char *person;
	/*
	 * 1: the run has a cgroup of its own (the library started ruas-session
	 * in it), which PAM's session must not take it out of: pam_systemd
	 * moves its caller to a scope of logind's, so ruas-session goes back
	 * before anything of the target runs. Version 17.
	 */
	unsigned int keep_cgroup;
};

/*
 * Is t a session's tty: "" or what ttyname(3) gives, /dev/... of printable
 * ASCII without a ".." component, at most 255 bytes (what PAM modules log
 * and match on)? 1 or 0.
 */
int session_tty_ok(const char *t);

/* Appends the body of s to out. 0, or -1 on OOM or a session that may not be sent. */
int session_encode(const struct session *s, struct buf *out);
/* Decodes len bytes into *out (zeroed first). 0, or -1 with *why a static reason. */
int session_decode(const void *data, size_t len, struct session *out, const char **why);
void session_free(struct session *s);

#endif
