/*
 * channel_in.h - ruas-exec's end of the spawn channel (channel.h): find
 * the library, know it is the one that started this sudo, and take the
 * payload and the agent's stdio from it.
 */
#ifndef RUAS_CHANNEL_IN_H
#define RUAS_CHANNEL_IN_H

#include "payload.h"

/*
 * The channel that argv names: `--channel TOKEN` (sudo backend: connect to
 * the library's abstract socket, and accept it only if its uid is sudo's
 * SUDO_UID) or `--channel-fd N` (pam backend: handed down by ruas-session,
 * which is root). 1 with *chan set; 0 when argv names none; -1 after a
 * complaint on stderr.
 */
int channel_in_open(int argc, char **argv, int *chan);
/*
 * The payload; an exec payload comes with the agent's stdin, stdout and
 * stderr, which then replace this process's 0, 1 and 2 (a check payload
 * with none: the report goes to the stdout that sudo gave). 0, or -1 after
 * a complaint on stderr.
 */
int channel_in_payload(int chan, struct payload *p);
/*
 * The helper's last word: how the agent ended (status as from waitpid),
 * or, when it never ran (status -1), the helper's own exit code rc.
 */
void channel_in_exit(int chan, int status, int rc);

#endif
