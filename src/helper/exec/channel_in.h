/*
 * channel_in.h - ruas-exec's end of the spawn channel (channel.h): find
 * the library, know it is the one that started this sudo, and take the
 * payload and the agent's stdio from it.
 */
#ifndef RUAS_CHANNEL_IN_H
#define RUAS_CHANNEL_IN_H

#include "payload.h"

/* How the channel came. */
enum channel_via { CHANNEL_VIA_NONE = 0, CHANNEL_VIA_SOCKET, CHANNEL_VIA_FD };

/*
 * The channel that argv names: `--channel TOKEN` (sudo backend: connect to
 * the library's abstract socket, and accept it only if its uid is sudo's
 * SUDO_UID) or `--channel-fd N` (pam backend: handed down by ruas-session,
 * which is root), there optionally followed by `--init-fd M`, the control
 * socket of the PID namespace's init that ruas-session made (pidns.h).
 * CHANNEL_VIA_SOCKET or CHANNEL_VIA_FD with *chan set and *init_fd set or
 * -1; CHANNEL_VIA_NONE when argv names none; -1 after a complaint on stderr.
 */
int channel_in_open(int argc, char **argv, int *chan, int *init_fd);
/*
 * The payload; an exec payload comes with the agent's stdin, stdout and
 * stderr, which then replace this process's 0, 1 and 2 (a check payload
 * with none: the report goes to the stdout that sudo gave). 0, or -1 after
 * a complaint on stderr.
 */
int channel_in_payload(int chan, struct payload *p);
/*
 * The helper's last word: how the agent ended (status as from waitpid),
 * or, when it never ran (status -1), the helper's own exit code rc; and
 * how many processes were left when it ended (survivors, -1: none ran).
 */
void channel_in_exit(int chan, int status, int rc, long survivors);

#endif
