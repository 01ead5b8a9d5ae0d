/* SPDX-License-Identifier: ISC */
/*
 * launch_news.c - what the inner helper (and anything else of the run that
 * holds the channel) says on the START channel, heard by the outer helper:
 * launch_news() (launch.h).
 */
#include "launch.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "channel.h"

/*
 * The descriptor of a START_EXEC, when it is the first and a pipe: the
 * inner helper's. Where the shell's pid is known only the shell's process
 * is heard (launch_news()), so a login file's background process or
 * subprocess (python, socat) never gets its pipe taken; the shell's own
 * process could only send one after an exec of a program of the login
 * file's in the agent's place, which could claim any start. Where it is not
 * known (a pty, bwrap), one a login file sends first is taken instead,
 * and only harms its own run (a start said before it happens, or one
 * never said: 60 s). One that is no pipe is never taken: it could block
 * or flood this helper (launch_exec_done() never reads it).
 */
static int exec_pipe_of(struct launch *l, int fd)
{
	struct stat st;
	if (l->exec_pipe_taken || fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		return 0;
	l->exec_pipe = fd;
	l->exec_pipe_taken = 1;
	return 1;
}

void launch_news(struct launch *l)
{
	/*
	 * A bounded round: a login file that floods the channel only wastes
	 * its own time (its queue holds far fewer than this, so a round empties it).
	 */
	for (int i = 0; l->news >= 0 && i < 4096; i++) {
		char m[64];
		int fd = -1;
		size_t nfds = 1;
		pid_t sender = 0;
		ssize_t n = channel_recv_from(l->news, m, sizeof m, &fd, &nfds, &sender);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		/*
		 * A record of no bytes reads as 0, as the end does, and a login
		 * file's process could send one to make the inner helper's
		 * START go unheard: the record has the sender's credentials
		 * (SO_PASSCRED), the end none. Not whether a sender is left: by
		 * the time this reads, all may have gone with START still queued.
		 */
		if (n == 0 && sender != -1) {
			/* An empty record, not the end: anyone's, and nothing (its descriptor too). */
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (n <= 0) {
			close(l->news);
			l->news = -1;
			return;
		}
		size_t off = 0, blen;
		int type, state, e;
		const char *body;
		if ((l->shell <= 0 || sender == l->shell) &&
		    channel_next(m, (size_t)n, &off, &type, &body, &blen) == 1 && off == (size_t)n &&
		    type == CHANNEL_START && msg_start_decode(body, blen, &state, &e) == 0) {
			if (state == START_EXEC && nfds == 1 && exec_pipe_of(l, fd)) {
				l->said = l->started = 1;
				l->exec_errno = 0;
				l->agent_pid = sender;
				fd = -1;
			} else if ((state == START_FAILED && l->exec_pipe_taken) ||
				   (state == START_NO_WORK_DIR && !l->exec_pipe_taken)) {
				l->said = 1;
				l->started = 0;
				l->exec_errno = e;
				l->no_work_dir = state == START_NO_WORK_DIR;
			}
		}
		if (fd >= 0)
			close(fd);
	}
}

