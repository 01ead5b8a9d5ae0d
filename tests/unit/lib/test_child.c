/* SPDX-License-Identifier: ISC */
/*
 * test_child.c - the child handle behind a helper that has gone, and the
 * helper's news of a pty spawn's agent (ruas_child_state()).
 *
 * The handle is built by hand around a forked stand-in for sudo and a
 * socketpair for the spawn channel (src/lib/spawn/child.h), so that the
 * helper's end can be closed at will: once the helper has ended, sudo ends
 * after it by itself, and a signal, even free's SIGKILL, must not kill
 * sudo, which would skip its cleanup and orphan the helper's zombie.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"
#include "control.h"
#include "proc.h"
#include "ruas.h"
#include "spawn/child.h"

/* How long the stand-in for sudo outlives its helper. */
#define SUDO_LINGER_MS 200

/*
 * A handle whose pid is a stand-in for sudo that exits 0 SUDO_LINGER_MS
 * after start, saying so first on *done (a pipe), and whose channel's
 * other end (the helper's) is closed before this returns: the helper has
 * gone, sudo has not yet.
 */
static ruas_child *child_after_helper(int *done)
{
	int sv[2], pd[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(pipe2(pd, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		close(pd[0]);
		close(sv[1]); /* the helper's end: it has ended */
		struct timespec ts = {0, SUDO_LINGER_MS * 1000000L};
		nanosleep(&ts, NULL);
		_exit(write(pd[1], "x", 1) == 1 ? 0 : 1);
	}
	close(sv[1]);
	close(pd[1]);
	*done = pd[0];
	/* Until the stand-in has closed its copy too. */
	struct pollfd pf = {sv[0], POLLIN, 0};
	assert_int_equal(poll(&pf, 1, 10000), 1);
	assert_true(pf.revents & (POLLHUP | POLLIN));
	ruas_child *c = calloc(1, sizeof *c);
	assert_non_null(c);
	c->pid = pid;
	c->chan = sv[0];
	c->pidfd = process_pidfd(pid);
	assert_int_equal(pthread_mutex_init(&c->lock, NULL), 0);
	return c;
}

/* Signals to a child whose helper has gone are not sent to sudo: it ends by itself. */
static void test_signal_after_helper_gone(void **state)
{
	(void)state;
	static const int sigs[] = {SIGTERM, SIGKILL, SIGINT, SIGUSR1};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		int done;
		ruas_child *c = child_after_helper(&done);
		ruas_error *err = NULL;
		assert_int_equal(ruas_child_signal(c, sigs[i], &err), 0);
		assert_null(err);
		int code = -1;
		assert_int_equal(ruas_child_wait(c, &code, &err), 0);
		assert_int_equal(code, 0);
		assert_int_equal(ruas_child_term_signal(c), 0);
		ruas_child_free(c);
		close(done);
	}
}

/* free of such a child lets sudo end by itself, and reaps it. */
static void test_free_after_helper_gone(void **state)
{
	(void)state;
	int done;
	ruas_child *c = child_after_helper(&done);
	pid_t pid = c->pid;
	ruas_child_free(c);
	char b = 0;
	assert_int_equal(read(done, &b, 1), 1);
	assert_int_equal(b, 'x');
	close(done);
	/* Reaped by free: nothing is left to wait for. */
	assert_int_equal(waitpid(pid, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/*
 * A handle with the helper still there: *helper is its end of the channel,
 * for the test to speak as the helper; pty: the handle has a master (a
 * stand-in descriptor). Its pid is a stand-in for sudo that exits 0 once
 * *release is closed.
 */
static ruas_child *child_with_helper(int *helper, int *release, int pty)
{
	int sv[2], pd[2];
	assert_int_equal(pipe2(pd, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char b;
		close(pd[1]);
		_exit(read(pd[0], &b, 1) == 0 ? 0 : 1);
	}
	close(pd[0]);
	/* After the fork: the stand-in holds no copy of the helper's end, whose close is the end. */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	*helper = sv[1];
	*release = pd[1];
	ruas_child *c = calloc(1, sizeof *c);
	assert_non_null(c);
	c->pid = pid;
	c->chan = sv[0];
	c->pidfd = process_pidfd(pid);
	c->master = pty ? open("/dev/null", O_RDWR | O_CLOEXEC) : -1;
	assert_true(!pty || c->master >= 0);
	assert_int_equal(pthread_mutex_init(&c->lock, NULL), 0);
	return c;
}

/* Ends the stand-ins: the helper's end and sudo. */
static void end_child(ruas_child *c, int helper, int release)
{
	close(helper);
	close(release);
	int code = -1;
	assert_int_equal(ruas_child_wait(c, &code, NULL), 0);
	assert_int_equal(code, 0);
	ruas_child_free(c);
}

/* A news message as the helper sends it: STOPPED with sig, or CONTINUED. */
static void send_news(int helper, int type, int sig)
{
	struct buf body = BUF_INIT;
	if (type == CHANNEL_STOPPED)
		assert_int_equal(msg_stopped_encode(&body, sig), 0);
	else
		assert_int_equal(msg_continued_encode(&body), 0);
	assert_int_equal(channel_send_control(helper, type, &body), 0);
	buf_free(&body);
}

/* A message of type with the body's first len bytes, however (mal)formed. */
static void send_raw(int helper, int type, const void *body, size_t len)
{
	assert_int_equal(channel_send(helper, type, body, len, NULL, 0), 0);
}

/*
 * The helper's STOPPED and CONTINUED: ruas_child_state() follows them,
 * with the stop signal, a malformed one is no news, and the helper's end
 * is RUAS_CHILD_ENDING; the state descriptor is the channel.
 */
static void test_state_follows_news(void **state)
{
	(void)state;
	int helper, release, sig = -1;
	ruas_child *c = child_with_helper(&helper, &release, 1);
	assert_true(ruas_child_state_fd(c) >= 0);
	assert_int_equal(ruas_child_state_fd(c), c->chan);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_RUNNING);
	assert_int_equal(sig, 0);

	send_news(helper, CHANNEL_STOPPED, SIGTSTP);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_STOPPED);
	assert_int_equal(sig, SIGTSTP);
	/* No news: still stopped. */
	assert_int_equal(ruas_child_state(c, NULL), RUAS_CHILD_STOPPED);

	send_news(helper, CHANNEL_CONTINUED, 0);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_RUNNING);
	assert_int_equal(sig, 0);

	/* A stop without its whole signal is none (its first three bytes of four). */
	const unsigned char stop[4] = {0, 0, 0, SIGSTOP};
	send_raw(helper, CHANNEL_STOPPED, stop, 3);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_RUNNING);
	/* Nor is one with a byte too many, or a signal out of range (0, 65). */
	const unsigned char longer[5] = {0, 0, 0, SIGSTOP, 0};
	send_raw(helper, CHANNEL_STOPPED, longer, 5);
	const unsigned char zero[4] = {0, 0, 0, 0}, high[4] = {0, 0, 0, MSG_SIGNAL_MAX + 1};
	send_raw(helper, CHANNEL_STOPPED, zero, 4);
	send_raw(helper, CHANNEL_STOPPED, high, 4);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_RUNNING);
	assert_int_equal(sig, 0);
	send_news(helper, CHANNEL_STOPPED, SIGSTOP);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_STOPPED);
	assert_int_equal(sig, SIGSTOP);
	/* A CONTINUED with a body is none either: still stopped. */
	send_raw(helper, CHANNEL_CONTINUED, zero, 1);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_STOPPED);
	assert_int_equal(sig, SIGSTOP);

	/* The helper's end (it said nothing): ending, and it stays so. */
	close(helper);
	helper = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(ruas_child_state(c, &sig), RUAS_CHILD_ENDING);
	assert_int_equal(sig, 0);
	assert_int_equal(ruas_child_state(c, NULL), RUAS_CHILD_ENDING);
	end_child(c, helper, release);
}

/* Without a pty there is no state descriptor, and the agent runs until the helper has ended. */
static void test_state_without_pty(void **state)
{
	(void)state;
	int helper, release;
	ruas_child *c = child_with_helper(&helper, &release, 0);
	assert_int_equal(ruas_child_state_fd(c), -1);
	assert_int_equal(ruas_child_state(c, NULL), RUAS_CHILD_RUNNING);
	end_child(c, helper, release);
}

/* The helper's EXIT message, sent as the helper sends its last word. */
static void send_exit(int helper, int how, unsigned int value, long survivors, int started)
{
	struct buf body = BUF_INIT;
	struct msg_exit e = {how, value, survivors, started};
	assert_int_equal(msg_exit_encode(&body, &e), 0);
	assert_int_equal(channel_send_buf(helper, CHANNEL_EXIT, &body), 0);
	buf_free(&body);
}

/*
 * The helper's EXIT is how the run ended: the agent's exit code, or 128 +
 * the signal that killed it, whatever sudo's own status (0 here); one that
 * does not decode is no word at all, and sudo's status stands.
 */
static void test_exit_news(void **state)
{
	(void)state;
	static const struct {
		int how;
		unsigned int value;
		int started;
		int code, sig;
	} cases[] = {
		{EXIT_HOW_EXITED, 7, 1, 7, 0},
		{EXIT_HOW_SIGNALED, SIGKILL, 1, 128 + SIGKILL, SIGKILL},
		/* the run ended by the tree's SIGTERM before its agent started */
		{EXIT_HOW_SIGNALED, SIGTERM, 0, 128 + SIGTERM, SIGTERM},
		{EXIT_HOW_HELPER, 125, 0, 125, 0},
		{EXIT_HOW_EXITED, 127, 0, 127, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int helper, release, code = -1;
		ruas_child *c = child_with_helper(&helper, &release, 0);
		send_exit(helper, cases[i].how, cases[i].value, 2, cases[i].started);
		close(helper);
		close(release);
		assert_int_equal(ruas_child_wait(c, &code, NULL), 0);
		assert_int_equal(code, cases[i].code);
		assert_int_equal(ruas_child_term_signal(c), cases[i].sig);
		assert_int_equal(c->started, cases[i].started);
		assert_int_equal(c->survivors, 2);
		ruas_child_free(c);
	}

	/* A signal number out of range is not a word the helper may say. */
	int helper, release, code = -1;
	ruas_child *c = child_with_helper(&helper, &release, 0);
	const unsigned char forged[10] = {EXIT_HOW_SIGNALED, 0, 0, 0, 65, 0, 0, 0, 0, 1};
	assert_int_equal(channel_send(helper, CHANNEL_EXIT, forged, sizeof forged, NULL, 0), 0);
	close(helper);
	close(release);
	assert_int_equal(ruas_child_wait(c, &code, NULL), 0);
	assert_int_equal(code, 0);
	assert_int_equal(ruas_child_term_signal(c), 0);
	assert_false(c->said);
	ruas_child_free(c);
}

/*
 * ruas_child_signal() with the helper there speaks over the channel:
 * SIGTERM is TERMINATE, SIGKILL is KILL (the library does not record the
 * end itself here), any other is SIGNAL with its number.
 */
static void test_signals_over_channel(void **state)
{
	(void)state;
	int helper, release;
	ruas_child *c = child_with_helper(&helper, &release, 0);
	static const struct {
		int sig, type;
	} cases[] = {
		{SIGTERM, CHANNEL_TERMINATE},
		{SIGKILL, CHANNEL_KILL},
		{SIGUSR1, CHANNEL_SIGNAL},
		{SIGINT, CHANNEL_SIGNAL},
		{SIGCONT, CHANNEL_SIGNAL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ruas_error *err = NULL;
		assert_int_equal(ruas_child_signal(c, cases[i].sig, &err), 0);
		assert_null(err);
		struct buf body = BUF_INIT;
		int type = -1, sig = -1, mine = -1;
		assert_int_equal(channel_recv(helper, &type, &body, NULL, NULL), 1);
		assert_int_equal(type, cases[i].type);
		if (type == CHANNEL_TERMINATE) {
			assert_int_equal(msg_terminate_decode(body.data, body.len), 0);
		} else if (type == CHANNEL_KILL) {
			assert_int_equal(msg_kill_decode(body.data, body.len, &mine), 0);
			assert_int_equal(mine, 0);
		} else {
			assert_int_equal(msg_signal_decode(body.data, body.len, &sig), 0);
			assert_int_equal(sig, cases[i].sig);
		}
		buf_free(&body);
	}
	end_child(c, helper, release);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_after_helper_gone),
		cmocka_unit_test(test_free_after_helper_gone),
		cmocka_unit_test(test_state_follows_news),
		cmocka_unit_test(test_state_without_pty),
		cmocka_unit_test(test_exit_news),
		cmocka_unit_test(test_signals_over_channel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
