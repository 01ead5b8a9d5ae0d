/* SPDX-License-Identifier: ISC */
/*
 * channel.h - the spawn channel: how the payload, the agent's stdio, the
 * run's control and the check's report travel between libruas and its
 * helpers, without touching any command line and without any name.
 *
 * The channel is one end of a socketpair that the library makes and hands
 * to the program it starts, as a descriptor, never as a name or a token:
 *
 *   sudo backend   sudo -n -u TARGET -- ruas-exec --channel-fd 0
 *                  (the channel is sudo's standard input, which sudo hands
 *                  to the command; sudo closes every descriptor above 2)
 *   pam backend    ruas-session --channel-fd 3, which reads its SESSION,
 *                  then execs ruas-exec --channel-fd 3 directly as the
 *                  target (no login shell in between)
 *
 * So only the kernel's descriptor table decides who holds it: sudo's root
 * parent, ruas-session (root) and the helper, which is the first program
 * that runs as the target and is not dumpable (no process of the target's
 * uid may ptrace it or take its descriptors with pidfd_getfd()). The
 * helper still checks its peer with SO_PEERCRED (the uid that ran sudo, or
 * root), so that a socket of someone else on its stdin is refused.
 *
 * Over the stream, messages of a 5-byte header (length of the body, 32-bit
 * big-endian; the type, one byte) and the body. The bodies and their
 * typed encoders and decoders: payload.h (PAYLOAD, HELLO), session.h (SESSION),
 * control.h (SIGNAL, TERMINATE, KILL, EXIT, STOPPED, CONTINUED),
 * helper_report.h (REPORT); agent.h (AGENT, START) between the helper's two
 * halves, on a channel of their own.
 *
 * Order on a spawn's channel: [SESSION,] HELLO from the helper, PAYLOAD
 * (with the agent's three stdio descriptors), then SIGNAL, TERMINATE and
 * KILL from the library and STOPPED, CONTINUED and the last, EXIT, from
 * the helper. On a check's: [SESSION,] [REPORT from ruas-session (pam: the
 * account's verdict),] HELLO, PAYLOAD, then REPORT from ruas-exec. The
 * library sends PAYLOAD only after HELLO (payload.h): what is between
 * sudo and the helper never sees it. End of file from the library means
 * the supervisor is gone (it died, or freed the child): the helper ends
 * the tree as on TERMINATE.
 */
#ifndef RUAS_PROTO_CHANNEL_H
#define RUAS_PROTO_CHANNEL_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

/* The largest message body. */
#define CHANNEL_MAX_BODY (16u << 20)
/* The most descriptors one message carries. */
#define CHANNEL_MAX_FDS 5

enum channel_type {
	CHANNEL_PAYLOAD = 1,
	CHANNEL_SESSION = 2,
	CHANNEL_SIGNAL = 3,
	CHANNEL_TERMINATE = 4,
	CHANNEL_KILL = 5,
	CHANNEL_EXIT = 6,
	CHANNEL_STOPPED = 7,
	CHANNEL_CONTINUED = 8,
	CHANNEL_REPORT = 9,
	CHANNEL_AGENT = 10,
	CHANNEL_START = 11,
	CHANNEL_HELLO = 12,
	CHANNEL_STARTED = 13,
};

/* The peer's pid, uid and gid as the kernel recorded them (SO_PEERCRED). */
int channel_peer(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/*
 * Sends one message with nfds descriptors (at most CHANNEL_MAX_FDS)
 * attached. Blocks until written; never raises SIGPIPE. 0, or -1 with errno.
 */
int channel_send(int fd, int type, const void *body, size_t len, const int *fds, size_t nfds);
/* The same for a body in a buf (whose oom makes it -1 with ENOMEM). */
int channel_send_buf(int fd, int type, const struct buf *body);
/*
 * The same for a control message (no descriptors, a body of at most
 * CHANNEL_CONTROL_MAX bytes, else EMSGSIZE), without blocking: -1 with
 * EAGAIN when the peer has stopped reading and its buffer is full, so that
 * a caller holding a lock never waits on it.
 */
#define CHANNEL_CONTROL_MAX 2048
int channel_send_control(int fd, int type, const struct buf *body);
/*
 * Receives one message: its type in *type, its body appended to *body, and
 * up to *nfds descriptors (close-on-exec) into fds, *nfds set to how many
 * came. Blocks. 1 for a message, 0 at end of file before any byte, -1 with
 * errno on error, a short message, a body over CHANNEL_MAX_BODY or more
 * descriptors than asked for (EPROTO; any that came are closed).
 */
int channel_recv(int fd, int *type, struct buf *body, int *fds, size_t *nfds);

/*
 * Messages written as the peer takes them, never blocking: the library's
 * side of a start, which must keep watching its child (and draining its
 * output) while the helper reads. One message of the queue may carry
 * descriptors; they are the caller's, and must stay open until sent.
 */
struct channel_out {
	struct buf bytes; /* the framed messages, in order */
	size_t sent;
	size_t fds_at; /* the offset the descriptors go with; (size_t)-1: none */
	int fds[CHANNEL_MAX_FDS];
	size_t nfds;
};
void channel_out_init(struct channel_out *o);
/* Queues one message. 0, or -1 (ENOMEM, EMSGSIZE, or a second message with descriptors). */
int channel_out_add(struct channel_out *o, int type, const void *body, size_t len,
		    const int *fds, size_t nfds);
/* Sends what the socket takes now: 1 when all is sent, 0 when more waits, -1 with errno. */
int channel_out_flush(struct channel_out *o, int fd);
void channel_out_free(struct channel_out *o);

/*
 * One recvmsg of what the socket has now (one packet of a SOCK_SEQPACKET
 * socket) into buf, never waiting: up to *nfds descriptors (close-on-exec)
 * into fds, *nfds set to how many came; any beyond, and all of a cut
 * control message, are closed. The bytes received, 0 at end of file, or
 * -1 with errno (EAGAIN: nothing now).
 */
ssize_t channel_recv_some(int fd, void *buf, size_t size, int *fds, size_t *nfds);
/*
 * The same, and the sender's pid as the kernel gives it on a socket with
 * SO_PASSCRED (in this process's PID namespace, 0 for a sender outside
 * it); -1 when no credentials came, as at end of file, which is how a
 * record of no bytes (which has them) is told from the end (which has not).
 */
ssize_t channel_recv_from(int fd, void *buf, size_t size, int *fds, size_t *nfds, pid_t *sender);
/*
 * Reads what the socket has now into *in, up to max bytes kept (the rest is
 * read and dropped, so that a peer cannot stall its reader), closing any
 * descriptor that came along. 1 when bytes came, 0 at end of file, -1 with
 * errno (EAGAIN: nothing yet).
 */
int channel_read_some(int fd, struct buf *in, size_t max, int *dropped);
/*
 * The next whole message in data[*off..len): 1 with *type, *body and *blen
 * set and *off moved past it; 0 at the end; -1 when what is left is not a
 * whole message, or one over CHANNEL_MAX_BODY.
 */
int channel_next(const char *data, size_t len, size_t *off, int *type, const char **body,
		 size_t *blen);

#endif
