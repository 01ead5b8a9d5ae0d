/*
 * channel.h - the spawn channel: how the payload, the agent's stdio and the
 * run's control reach ruas-exec without touching any command line.
 *
 * A command line is public: every local user reads /proc/PID/cmdline, and
 * sudo logs the whole argv. So the library never puts a payload there. It
 * listens on an abstract unix socket with a random name and starts
 *
 *     sudo -n -iu TARGET -- exec ruas-exec --channel TOKEN
 *
 * (or, on the pam backend, hands ruas-session one end of a socketpair as
 * descriptor 3, which ruas-session hands down to ruas-exec as
 * `--channel-fd 3`, with `--init-fd 4` when it made the agent's PID
 * namespace, src/common/pidns.h). The name is no secret: both ends authenticate the
 * other with SO_PEERCRED. The library accepts only a peer whose uid is the
 * target's and whose parent chain reaches the sudo it started; ruas-exec
 * accepts only a listener whose uid is sudo's SUDO_UID. Nobody else can
 * bind the name: the library holds it before sudo starts.
 *
 * Over the connected stream, messages of a 5-byte header (length of the
 * body, 32-bit big-endian; the type, one byte) and the body:
 *
 *   library -> helper
 *     PAYLOAD    the payload (payload.h encoding), with SCM_RIGHTS of the
 *                agent's stdin, stdout and stderr; the first message, once
 *     SESSION    (pam backend only, before PAYLOAD) ruas-session's payload
 *     SIGNAL     4 bytes: a signal number, for the agent's process group
 *     TERMINATE  end the whole tree: SIGTERM, the grace, SIGKILL
 *     KILL       end the whole tree at once; a 1-byte body
 *                CHANNEL_KILL_LIBRARY_RECORDS (ruas_child_free()) says
 *                that the library records the run's end, so that the
 *                helper does not, should it outlive the supervisor
 *   helper -> library
 *     EXIT       how the agent ended: 1 byte (CHANNEL_EXITED, _SIGNALED,
 *                _HELPER), then 4 bytes: the code or signal number, then
 *                4 bytes: how many processes of the run were left when
 *                the agent ended and were killed (survivors_killed of
 *                the audit's end record; a 5-byte EXIT has no count)
 *     STOPPED    (an agent on a pty of its own only, EXEC_PTY) the agent
 *                itself has stopped: 4 bytes, the signal that stopped it
 *     CONTINUED  (the same) it runs again; no body
 *
 * End of file from the library means the supervisor is gone (it died, or
 * freed the child): the helper ends the tree as on TERMINATE.
 */
#ifndef RUAS_CHANNEL_H
#define RUAS_CHANNEL_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

/* 32 lower-case hex digits: passes through sudo -i's escaping unchanged. */
#define CHANNEL_TOKEN_LEN 32
/* The largest message body: the payload's new limit (the argv limit is gone). */
#define CHANNEL_MAX_BODY (16u << 20)

enum channel_type {
	CHANNEL_PAYLOAD = 1,
	CHANNEL_SESSION = 2,
	CHANNEL_SIGNAL = 3,
	CHANNEL_TERMINATE = 4,
	CHANNEL_KILL = 5,
	CHANNEL_EXIT = 6,
	CHANNEL_STOPPED = 7,
	CHANNEL_CONTINUED = 8,
};

#define CHANNEL_KILL_LIBRARY_RECORDS 1
/* EXIT's survivors count when the helper has none (the agent never ran). */
#define CHANNEL_SURVIVORS_UNKNOWN 0xffffffffu
enum channel_exit { CHANNEL_EXITED = 1, CHANNEL_SIGNALED = 2, CHANNEL_HELPER = 3 };

/*
 * Listens on a fresh abstract name; token gets its CHANNEL_TOKEN_LEN hex
 * digits and a NUL. *fd is close-on-exec and non-blocking. 0, or -1 with
 * errno.
 */
int channel_listen(char token[CHANNEL_TOKEN_LEN + 1], int *fd);
/* Connects to the listener of token (blocking, close-on-exec). 0, or -1 with errno. */
int channel_connect(const char *token, int *fd);
/* Is token CHANNEL_TOKEN_LEN lower-case hex digits and nothing else? */
int channel_token_valid(const char *token);
/* The peer's pid, uid and gid as the kernel recorded them at connect(). */
int channel_peer(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/*
 * Sends one message with nfds descriptors (at most 3) attached. Blocks until
 * written; never raises SIGPIPE. 0, or -1 with errno.
 */
int channel_send(int fd, int type, const void *body, size_t len, const int *fds, size_t nfds);
/*
 * The same for a control message (no descriptors, a few bytes), without
 * blocking: -1 with EAGAIN when the peer has stopped reading and its
 * buffer is full, so that a caller holding a lock never waits on it.
 */
int channel_send_control(int fd, int type, const void *body, size_t len);
/*
 * Receives one message: its type in *type, its body appended to *body, and
 * up to *nfds descriptors (close-on-exec) into fds, *nfds set to how many
 * came. Blocks. 1 for a message, 0 at end of file before any byte, -1 with
 * errno on error, a short message, a body over CHANNEL_MAX_BODY or more
 * descriptors than asked for (EPROTO; any that came are closed).
 */
int channel_recv(int fd, int *type, struct buf *body, int *fds, size_t *nfds);

/* 4 bytes big-endian, as the bodies of SIGNAL and EXIT carry numbers. */
void channel_put32(unsigned char *p, unsigned int v);
unsigned int channel_get32(const unsigned char *p);

#endif
