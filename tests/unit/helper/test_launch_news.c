/* SPDX-License-Identifier: ISC */
/*
 * test_launch_news.c - the outer helper hears START (launch_news(),
 * src/helper/exec/launch_news.c) whatever a login file of the target's sends
 * before it: a record of no bytes reads as 0, as the channel's end does,
 * and must not be taken for it, even when every sender has gone by the
 * time it is read (the agent started and ended at once).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"
#include "buf.h"
#include "channel.h"
#include "launch.h"

/* The outer helper's end as launch.c makes it: SO_PASSCRED, non-blocking. */
static void channel_pair(struct launch *l, int *cont)
{
	int sv[2], on = 1;
	memset(l, 0, sizeof *l);
	l->exec_pipe = -1;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof on), 0);
	assert_int_equal(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
	l->news = sv[0];
	*cont = sv[1];
}

/* START_EXEC with its pipe, as the inner helper sends it before its exec. */
static int send_start_exec(int cont)
{
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	struct buf b = BUF_INIT;
	assert_int_equal(msg_start_encode(&b, START_EXEC, 0), 0);
	assert_int_equal(channel_send(cont, CHANNEL_START, b.data, b.len, &p[1], 1), 0);
	buf_free(&b);
	close(p[1]);
	return p[0];
}

static void finish(struct launch *l, int keep)
{
	if (l->news >= 0)
		close(l->news);
	if (l->exec_pipe >= 0)
		close(l->exec_pipe);
	close(keep);
}

static void test_empty_record_then_start_all_gone(void **state)
{
	(void)state;
	struct launch l;
	int cont;
	channel_pair(&l, &cont);
	/* A login file's empty record, the real START, and every sender gone. */
	assert_int_equal(send(cont, "", 0, 0), 0);
	int reader = send_start_exec(cont);
	close(cont);
	launch_news(&l);
	if (!l.started)
		fail_msg("START_EXEC after a record of no bytes, its senders gone: not heard");
	assert_true(l.said);
	assert_true(l.exec_pipe >= 0);
	finish(&l, reader);
}

static void test_empty_record_then_start_sender_there(void **state)
{
	(void)state;
	struct launch l;
	int cont;
	channel_pair(&l, &cont);
	assert_int_equal(send(cont, "", 0, 0), 0);
	assert_int_equal(send(cont, "", 0, 0), 0);
	int reader = send_start_exec(cont);
	launch_news(&l);
	assert_true(l.started);
	assert_true(l.news >= 0); /* the channel is still open: the sender is there */
	close(cont);
	finish(&l, reader);
}

/* The real end: every sender gone and nothing left is the end, read as such. */
static void test_end_is_the_end(void **state)
{
	(void)state;
	struct launch l;
	int cont;
	channel_pair(&l, &cont);
	assert_int_equal(send(cont, "", 0, 0), 0);
	close(cont);
	launch_news(&l);
	assert_false(l.started);
	assert_int_equal(l.news, -1);
	finish(&l, open("/dev/null", O_RDONLY | O_CLOEXEC));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_record_then_start_all_gone),
		cmocka_unit_test(test_empty_record_then_start_sender_there),
		cmocka_unit_test(test_end_is_the_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
