/* SPDX-License-Identifier: ISC */
/*
 * channel_in.h - ruas-exec's end of the spawn channel (channel.h): the
 * descriptor it was started with, known to be the supervisor's, the
 * payload and the agent's stdio from it, and the helper's last word.
 */
#ifndef RUAS_CHANNEL_IN_H
#define RUAS_CHANNEL_IN_H

#include "control.h"
#include "payload.h"

/*
 * The channel that argv names: `--channel-fd N` (sudo's stdin, N = 0, or
 * ruas-session's descriptor 3), there optionally followed by `--init-fd
 * M`, the control socket of the PID namespace's init that ruas-session
 * made (pidns.h). The channel must be a connected unix stream socket whose
 * peer is root or the user who ran sudo (SUDO_UID): anything else on the
 * descriptor (sudo's I/O logging puts a pipe there) is refused by name.
 * It is moved above 2, close-on-exec, and a stdin it was on becomes
 * /dev/null. 1 with *chan (and *init_fd, or -1) set; 0 when argv names no
 * channel; -1 after a complaint on stderr.
 */
int channel_in_open(int argc, char **argv, int *chan, int *init_fd);
/*
 * HELLO (payload.h): the channel is this helper's now, so the library may
 * send the payload. 0, or -1 after a complaint on stderr.
 */
int channel_in_hello(int chan);
/*
 * The payload; an exec payload comes with the agent's stdin, stdout and
 * stderr, which then replace this process's 0, 1 and 2 (a check payload
 * with none), and, when it names a credential gate, the library's end of
 * it in *gate (close-on-exec; else -1). 0, or -1 after a complaint on
 * stderr.
 */
int channel_in_payload(int chan, struct payload *p, int *gate);
/* The helper's last word, EXIT (control.h): 0, or -1 when nobody listens any more. */
int channel_in_exit(int chan, const struct msg_exit *e);

#endif
