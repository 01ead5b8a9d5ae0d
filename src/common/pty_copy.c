/* SPDX-License-Identifier: ISC */
/* pty_copy.c - see pty_copy.h. Modelled on sudo's exec_pty.c and util-linux's pty-session.c. */
#include "pty_copy.h"

#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "proc.h"

int term_foreground(int fd)
{
	if (fd < 0)
		return 0;
	pid_t pg = tcgetpgrp(fd);
	return pg < 0 || pg == getpgrp();
}

int term_is_raw(const struct termios *t)
{
	return !(t->c_lflag & (ICANON | ISIG | ECHO));
}

void term_mode_raw(struct term_mode *t)
{
	if (t->raw || !term_foreground(t->fd) || tcgetattr(t->fd, &t->saved) < 0 ||
	    term_is_raw(&t->saved))
		return;
	struct termios r = t->saved;
	cfmakeraw(&r);
	r.c_cc[VMIN] = 1;
	r.c_cc[VTIME] = 0;
	if (tcsetattr(t->fd, TCSADRAIN, &r) == 0)
		t->raw = 1;
}

void term_mode_restore(struct term_mode *t)
{
	if (!t->raw)
		return;
	while (tcsetattr(t->fd, TCSADRAIN, &t->saved) < 0 && errno == EINTR)
		;
	t->raw = 0;
}

int term_copy_size(int from, int master)
{
	struct winsize ws;
	if (from < 0 || ioctl(from, TIOCGWINSZ, &ws) < 0)
		return -1;
	return ioctl(master, TIOCSWINSZ, &ws);
}

/* All of p to fd, waiting where it is non-blocking; gives up on an error (a closed pipe) or abort. */
static void write_all(int fd, const char *p, size_t n, const atomic_int *abort)
{
	while (n && !(abort && atomic_load(abort))) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			struct pollfd pf = {fd, POLLOUT, 0};
			(void)poll(&pf, 1, 100);
			continue;
		}
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

void pty_copy_out(struct pty_copy *c)
{
	char buf[PTY_COPY_BUF];
	ssize_t n = read(c->master, buf, sizeof buf);
	if (n > 0)
		write_all(c->out, buf, (size_t)n, c->abort);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		c->master_end = 1;
}

void pty_copy_in(struct pty_copy *c)
{
	if (c->pending == 0) {
		ssize_t n = read(c->in, c->buf, sizeof c->buf);
		if (n <= 0) {
			if (n == 0 || (errno != EAGAIN && errno != EINTR && errno != EIO))
				c->in_end = 1;
			return;
		}
		c->pending = (size_t)n;
		c->off = 0;
	}
	ssize_t w = write(c->master, c->buf + c->off, c->pending);
	if (w > 0) {
		c->off += (size_t)w;
		c->pending -= (size_t)w;
	}
}

void pty_copy_serve(struct pty_copy *c, short in_revents, short master_revents)
{
	if (master_revents & (POLLIN | POLLHUP | POLLERR))
		pty_copy_out(c);
	if ((in_revents & (POLLIN | POLLHUP | POLLERR)) || (c->pending && (master_revents & POLLOUT)))
		pty_copy_in(c);
}

void pty_copy_drain(struct pty_copy *c, long long max_ms)
{
	long long until = monotonic_ms() + max_ms;
	for (int idle = 0; !c->master_end && idle < 2 && monotonic_ms() < until;) {
		struct pollfd pf = {c->master, POLLIN, 0};
		if (poll(&pf, 1, 100) <= 0)
			idle++;
		else
			pty_copy_out(c);
	}
}
