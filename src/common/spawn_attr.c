/* SPDX-License-Identifier: ISC */
/* spawn_attr.c - see spawn_attr.h. */
#include "spawn_attr.h"

#include <signal.h>

int spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr,
		int new_session)
{
	sigset_t none, all;
	int e;

	if ((e = posix_spawn_file_actions_init(fa)) != 0)
		return e;
	if ((e = posix_spawnattr_init(attr)) != 0) {
		posix_spawn_file_actions_destroy(fa);
		return e;
	}
	sigemptyset(&none);
	sigfillset(&all);
	sigdelset(&all, SIGKILL);
	sigdelset(&all, SIGSTOP);
	short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#ifdef POSIX_SPAWN_SETSID
	if (new_session)
		flags |= POSIX_SPAWN_SETSID;
#else
	(void)new_session;
#endif
	if ((e = posix_spawnattr_setsigmask(attr, &none)) != 0 ||
	    (e = posix_spawnattr_setsigdefault(attr, &all)) != 0 ||
	    (e = posix_spawnattr_setflags(attr, flags)) != 0) {
		spawn_teardown(fa, attr);
		return e;
	}
	return 0;
}

void spawn_teardown(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr)
{
	posix_spawn_file_actions_destroy(fa);
	posix_spawnattr_destroy(attr);
}

int spawn_close_rest(posix_spawn_file_actions_t *fa)
{
	return spawn_close_from(fa, 3);
}

int spawn_close_from(posix_spawn_file_actions_t *fa, int from)
{
	return posix_spawn_file_actions_addclosefrom_np(fa, from);
}
