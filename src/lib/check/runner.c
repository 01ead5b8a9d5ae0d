/* SPDX-License-Identifier: ISC */
/* runner.c - posix_spawn a command, capture stdout and stderr, with a timeout. */
#include "check/runner.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"
#include "error.h"
#include "payload.h"
#include "pty_spawn.h"
#include "spawn_attr.h"

void run_result_free(struct run_result *res)
{
	buf_free(&res->out);
	buf_free(&res->err);
	buf_free(&res->chan);
}

/* Reads what is there; keeps at most `max` bytes but drains everything. */
static int drain(int *fd, struct buf *b, size_t max)
{
	char tmp[16384];
	ssize_t n = read(*fd, tmp, sizeof tmp);
	if (n < 0)
		return (errno == EINTR || errno == EAGAIN) ? 0 : -1;
	if (n == 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	size_t keep = b->len < max ? max - b->len : 0;
	if (keep > (size_t)n)
		keep = (size_t)n;
	return keep ? buf_add(b, tmp, keep) : 0;
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/*
 * On a pty the output ends when the child has exited and the master runs
 * dry; the parent holds the slave until then (see pty_spawn.h).
 */
static int run_capture_pty(const struct run_request *req, struct run_result *res)
{
	struct pty_child c;
	int e = pty_spawn(&c, req->path, (char *const *)req->argv, (char *const *)req->envp);
	if (e) {
		res->spawn_errno = e;
		return 0;
	}
	long long deadline = monotonic_ms() + req->timeout_ms, kill_at = 0;
	int reaped = 0, killed = 0, rc = 0;
	while (c.master >= 0) {
		if (!reaped && waitpid(c.pid, &res->wait_status, WNOHANG) == c.pid) {
			reaped = 1;
			pty_child_reaped(&c);
		}
		if (!reaped && !killed && monotonic_ms() >= (kill_at ? kill_at : deadline)) {
			/* As below: SIGTERM, which sudo relays, then SIGKILL. */
			kill(c.pid, kill_at ? SIGKILL : SIGTERM);
			res->timed_out = 1;
			killed = kill_at != 0;
			kill_at = monotonic_ms() + 2000;
		}
		struct pollfd pf[2] = {{c.master, POLLIN, 0}, {c.pidfd, POLLIN, 0}};
		int wait_ms = reaped ? 0 : c.pidfd >= 0 ? 1000 : 5;
		if (poll(pf, 2, wait_ms) < 0 && errno != EINTR)
			break;
		char tmp[16384];
		ssize_t n = read(c.master, tmp, sizeof tmp);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !reaped)
			continue;
		if (n <= 0)
			break; /* EIO: all is read; EAGAIN after the exit: a grandchild holds it */
		size_t keep = res->out.len < req->max_output ? req->max_output - res->out.len : 0;
		if (keep && buf_add(&res->out, tmp, keep < (size_t)n ? keep : (size_t)n) < 0)
			rc = -1;
	}
	if (c.master >= 0)
		close(c.master);
	pty_child_reaped(&c);
	if (!reaped && wait_child(c.pid, &res->wait_status) < 0)
		rc = -1;
	return rc;
}

/* What one call watches: stdout, stderr and the channel, each -1 once it has ended. */
struct call_io {
	int fds[3];
	struct channel_out out; /* the messages for the helper, sent as it takes them */
	int sending;
	const struct buf *payload; /* sent after the helper's HELLO; NULL once queued */
	size_t seen;               /* the whole messages of res->chan looked at for HELLO */
};

/*
 * The helper's HELLO among what came: taken out of res->chan and answered
 * with the payload (one HELLO only; a second stays, for the report's
 * decoder to refuse). A HELLO of another version gets no payload but the
 * channel's end, and the engine names the mismatch. 0, or -1 to hang up.
 */
static int answer_hello(struct call_io *io, struct run_result *res)
{
	size_t off = io->seen, blen;
	int type;
	const char *body;
	while (io->payload &&
	       channel_next(res->chan.data, res->chan.len, &off, &type, &body, &blen) == 1) {
		if (type != CHANNEL_HELLO) {
			io->seen = off;
			continue;
		}
		unsigned int v = 0;
		size_t at = io->seen;
		if (payload_hello_decode(body, blen, &v) < 0)
			v = ~0u;
		res->hello_version = v;
		memmove(res->chan.data + at, res->chan.data + off, res->chan.len - off);
		res->chan.len -= off - at;
		off = at;
		if (v != PAYLOAD_VERSION)
			return -1;
		if (channel_out_add(&io->out, CHANNEL_PAYLOAD, io->payload->data, io->payload->len,
				    NULL, 0) < 0)
			return -1;
		io->payload = NULL;
		io->sending = 1;
	}
	return 0;
}

/* One round of the channel: send what the helper takes, keep what it says. */
static void channel_round(struct call_io *io, short revents, struct run_result *res)
{
	int *chan = &io->fds[2];
	if (io->sending && (revents & (POLLOUT | POLLERR | POLLHUP))) {
		/* Sent, or refused (the helper or sudo has gone): nothing more to send. */
		if (channel_out_flush(&io->out, *chan) != 0)
			io->sending = 0;
	}
	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		int r = channel_read_some(*chan, &res->chan, RUN_CHANNEL_MAX, &res->chan_cut);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR) ||
		    (r > 0 && answer_hello(io, res) < 0)) {
			close(*chan);
			*chan = -1;
		}
	}
}

/*
 * Reads stdout, stderr and the channel until all three end, sending the
 * helper its messages on the way; SIGTERM at the deadline and SIGKILL 2 s
 * later: sudo relays the one, not the other. Closes what it was given.
 */
static void capture(pid_t pid, struct call_io *io, const struct run_request *req,
		    struct run_result *res)
{
	long long deadline = monotonic_ms() + req->timeout_ms, kill_at = 0;
	while (io->fds[0] >= 0 || io->fds[1] >= 0 || io->fds[2] >= 0) {
		struct pollfd pf[3];
		for (int i = 0; i < 3; i++)
			pf[i] = (struct pollfd){io->fds[i], POLLIN, 0};
		if (io->sending)
			pf[2].events |= POLLOUT;
		long long left = (kill_at ? kill_at : deadline) - monotonic_ms();
		int n = poll(pf, 3, left < 0 ? 0 : (int)(left > 1000 ? 1000 : left));
		if (n < 0 && errno != EINTR)
			break;
		if (monotonic_ms() >= (kill_at ? kill_at : deadline)) {
			/* sudo relays SIGTERM to the command; SIGKILL it cannot. */
			kill(pid, kill_at ? SIGKILL : SIGTERM);
			res->timed_out = 1;
			if (kill_at)
				break;
			kill_at = monotonic_ms() + 2000;
		}
		for (int i = 0; i < 2; i++)
			if (io->fds[i] >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				if (drain(&io->fds[i], i ? &res->err : &res->out,
					  req->max_output) < 0) {
					close(io->fds[i]);
					io->fds[i] = -1;
				}
		if (io->fds[2] >= 0 && n > 0)
			channel_round(io, pf[2].revents, res);
	}
	for (int i = 0; i < 3; i++)
		if (io->fds[i] >= 0)
			close(io->fds[i]);
}

/* The messages queued for capture() at the start: [SESSION]; PAYLOAD waits for HELLO. 0, or -1. */
static int queue_messages(const struct run_channel *ch, struct call_io *io)
{
	channel_out_init(&io->out);
	io->payload = ch->payload;
	if (ch->session && channel_out_add(&io->out, CHANNEL_SESSION, ch->session->data,
					   ch->session->len, NULL, 0) < 0)
		return -1;
	return 0;
}

int run_capture(void *ctx, const struct run_request *req, struct run_result *res)
{
	int outp[2] = {-1, -1}, errp[2] = {-1, -1}, sv[2] = {-1, -1};
	const struct run_channel *ch = req->channel;
	struct call_io io;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	pid_t pid;
	int rc = -1;
	(void)ctx;

	memset(res, 0, sizeof *res);
	if (req->pty)
		return run_capture_pty(req, res);
	memset(&io, 0, sizeof io);
	io.fds[0] = io.fds[1] = io.fds[2] = -1;
	channel_out_init(&io.out);
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0)
		goto out_pipes;
	if (ch && (queue_messages(ch, &io) < 0 ||
		   socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0))
		goto out_pipes;
	/* These return their error instead of setting errno, which the caller reads. */
	int fe = spawn_setup(&fa, &attr, 0);
	if (fe != 0) {
		errno = fe;
		goto out_pipes;
	}
	int chan_no = ch ? ch->fd_no : -1;
	if ((ch && (fe = posix_spawn_file_actions_adddup2(&fa, sv[1], chan_no))) ||
	    (chan_no != 0 &&
	     (fe = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0))) ||
	    (fe = posix_spawn_file_actions_adddup2(&fa, outp[1], 1)) ||
	    (fe = posix_spawn_file_actions_adddup2(&fa, errp[1], 2)) ||
	    (fe = spawn_close_from(&fa, chan_no >= 3 ? chan_no + 1 : 3))) {
		spawn_teardown(&fa, &attr);
		errno = fe;
		goto out_pipes;
	}
	int e = posix_spawn(&pid, req->path, &fa, &attr, (char *const *)req->argv,
			    (char *const *)req->envp);
	spawn_teardown(&fa, &attr);
	close(outp[1]);
	close(errp[1]);
	outp[1] = errp[1] = -1;
	if (sv[1] >= 0)
		close(sv[1]);
	sv[1] = -1;
	if (e != 0) {
		res->spawn_errno = e;
		rc = 0;
		goto out_pipes;
	}
	io.fds[0] = outp[0];
	io.fds[1] = errp[0];
	io.fds[2] = sv[0];
	io.sending = ch && ch->session;
	outp[0] = errp[0] = sv[0] = -1;
	capture(pid, &io, req, res);
	if (wait_child(pid, &res->wait_status) == 0 &&
	    (rc = (res->out.oom || res->err.oom || res->chan.oom) ? -1 : 0) < 0)
		errno = ENOMEM;
out_pipes:;
	/* The failure's errno for the caller (EMFILE names the limit), whatever closing sets. */
	int saved = errno;
	channel_out_free(&io.out);
	for (int i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	errno = saved;
	return rc;
}

int runner_nofile_floor(const char *fn, struct ruas_error **err)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= RUNNER_NOFILE_MIN)
		return 0;
	return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, EMFILE,
			 "%s: RLIMIT_NOFILE is %llu, and the checks need at least %d descriptors "
			 "(sudo, its PAM stack and ruas's helper open their own): raise it "
			 "(ulimit -n, or LimitNOFILE= for a service)",
			 fn, (unsigned long long)rl.rlim_cur, RUNNER_NOFILE_MIN);
}
