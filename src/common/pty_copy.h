/* SPDX-License-Identifier: ISC */
/*
 * pty_copy.h - what both relays of an agent's pty do (ruas run's,
 * tools/ruas/relay.c, and the library's, src/lib/spawn/relay.c): the
 * operator's terminal in raw mode and back, its size onto the pty, and the
 * bytes both ways, without loss or reordering.
 */
#ifndef RUAS_PTY_COPY_H
#define RUAS_PTY_COPY_H

#include <stdatomic.h>
#include <stddef.h>
#include <termios.h>

#define PTY_COPY_BUF 65536

/* A terminal whose modes a relay changes and gives back. */
struct term_mode {
	int fd;               /* the terminal, or -1: none */
	struct termios saved; /* its modes before it went raw */
	int raw;              /* it is raw now */
};

/*
 * Is this process in the foreground of fd's terminal? Also when fd is not
 * this process's controlling terminal (a pty a daemon opened, setsid ruas
 * run </dev/pts/N): no job control stops a reader of that. 0 for fd -1.
 */
int term_foreground(int fd);

/*
 * Are these modes raw already (no lines, no signals, no echo), as another
 * relay's on the same terminal or a full-screen caller's own leave them?
 */
int term_is_raw(const struct termios *t);

/*
 * Raw, as cfmakeraw(3), in the foreground only, where the terminal is ours
 * to change. The modes to give back are taken each time, as sudo does:
 * those of the terminal handed to this process, not those of a moment when
 * another job (a shell at its prompt) held it. A terminal that is raw
 * already is not taken: whoever made it raw gives it back, so that two
 * relays on one terminal, ending in either order, leave it as it was.
 */
void term_mode_raw(struct term_mode *t);
/* The saved modes, exactly, once the output has drained; a no-op unless raw. */
void term_mode_restore(struct term_mode *t);

/* from's window size onto the pty's master; the kernel sends SIGWINCH to its job. 0 or -1. */
int term_copy_size(int from, int master);

/* The bytes between a terminal (in, out) and a pty's master (non-blocking). */
struct pty_copy {
	int master, in, out;
	/* When set (by another thread), output that cannot be written now is dropped; NULL: never. */
	const atomic_int *abort;
	int in_end;     /* in has ended */
	int master_end; /* every slave has closed (EIO): the agent's side is gone */
	size_t pending, off; /* input read but not yet written to the master */
	char buf[PTY_COPY_BUF];
};

/*
 * What the agent printed, to out, whole, waiting while out is full (a
 * terminal stopped with Ctrl-S); an error on out, or abort, drops it.
 */
void pty_copy_out(struct pty_copy *c);
/*
 * What the operator typed, to the master: read only when nothing is
 * pending, and then as much as the master takes now, so that a paste
 * larger than the pty's queue waits rather than blocks the agent's output.
 * EIO from in (a read in the background with SIGTTIN blocked) is not its end.
 */
void pty_copy_in(struct pty_copy *c);
/* One poll round's share: what poll(2) said of in and of the master, served. */
void pty_copy_serve(struct pty_copy *c, short in_revents, short master_revents);
/* The agent's last output, until the pty's end of file, two quiet 100 ms or max_ms. */
void pty_copy_drain(struct pty_copy *c, long long max_ms);

#endif
