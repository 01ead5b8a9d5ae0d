/* SPDX-License-Identifier: ISC */
/* spawn_attr.h - the posix_spawn settings every child of libruas gets. */
#ifndef RUAS_SPAWN_ATTR_H
#define RUAS_SPAWN_ATTR_H

#include <spawn.h>

/*
 * Initialises fa and attr so that the child starts with an empty signal
 * mask and default dispositions. `new_session` adds setsid(). 0 or an errno.
 */
int spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr,
		int new_session);
/*
 * Closes every descriptor above 2 in the child, whatever the embedding
 * program left open. Add it last: file actions run in order.
 */
int spawn_close_rest(posix_spawn_file_actions_t *fa);
/* The same from descriptor `from` on (the ones below it are the child's). */
int spawn_close_from(posix_spawn_file_actions_t *fa, int from);
void spawn_teardown(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr);

#endif
