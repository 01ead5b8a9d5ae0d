/* SPDX-License-Identifier: ISC */
/*
 * test_pty_copy.c - the terminal modes both relays change and give back
 * (src/common/pty_copy.h), on a pty of the test's own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "pty_copy.h"

struct pair {
	int master, tty;
};

static int setup(void **state)
{
	struct pair *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	*state = p; /* teardown frees it, whatever fails below */
	p->tty = -1;
	p->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->master < 0 || grantpt(p->master) < 0 || unlockpt(p->master) < 0)
		return -1;
	p->tty = open(ptsname(p->master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	return p->tty < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;
	if (p->tty >= 0)
		close(p->tty);
	if (p->master >= 0)
		close(p->master);
	free(p);
	return 0;
}

static tcflag_t lflag(int fd)
{
	struct termios t;
	assert_int_equal(tcgetattr(fd, &t), 0);
	return t.c_lflag & (ICANON | ISIG | ECHO);
}

/* Raw, then exactly the modes from before. */
static void test_raw_and_back(void **state)
{
	struct pair *p = *state;
	tcflag_t cooked = lflag(p->tty);
	assert_int_equal(cooked, ICANON | ISIG | ECHO);
	struct term_mode t = {.fd = p->tty};
	term_mode_raw(&t);
	assert_int_equal(t.raw, 1);
	assert_int_equal(lflag(p->tty), 0);
	term_mode_restore(&t);
	assert_int_equal(t.raw, 0);
	assert_int_equal(lflag(p->tty), cooked);
}

/*
 * Two relays on one terminal (two agents of one embedder), ending in
 * either order: the one that made it raw gives it back; the other, which
 * found it raw, never takes it, so the terminal ends as it began.
 */
static void test_two_relays_either_order(void **state)
{
	struct pair *p = *state;
	for (int order = 0; order < 2; order++) {
		struct term_mode a = {.fd = p->tty}, b = {.fd = p->tty};
		term_mode_raw(&a);
		term_mode_raw(&b);
		assert_int_equal(a.raw, 1);
		assert_int_equal(b.raw, 0);
		term_mode_restore(order ? &b : &a);
		term_mode_restore(order ? &a : &b);
		assert_int_equal(lflag(p->tty), ICANON | ISIG | ECHO);
	}
}

/* A terminal its caller keeps raw (a full-screen program) is left alone. */
static void test_raw_terminal_not_taken(void **state)
{
	struct pair *p = *state;
	struct termios t, raw;
	assert_int_equal(tcgetattr(p->tty, &t), 0);
	raw = t;
	cfmakeraw(&raw);
	assert_int_equal(tcsetattr(p->tty, TCSANOW, &raw), 0);
	assert_true(term_is_raw(&raw));
	assert_false(term_is_raw(&t));
	struct term_mode m = {.fd = p->tty};
	term_mode_raw(&m);
	assert_int_equal(m.raw, 0);
	term_mode_restore(&m);
	assert_int_equal(lflag(p->tty), 0);
	assert_int_equal(tcsetattr(p->tty, TCSANOW, &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_raw_and_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_relays_either_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raw_terminal_not_taken, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
