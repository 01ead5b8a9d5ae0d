/* SPDX-License-Identifier: ISC */
/* anchors_known.h - the library's share of the trust anchors (see anchors.h). */
#ifndef RUAS_ANCHORS_KNOWN_H
#define RUAS_ANCHORS_KNOWN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * What the library knows of the run, from a configuration or, for
 * ruas_check_targets(), from its options alone.
 */
struct anchors_source {
	const char *config;          /* the configuration file as given, or NULL: none */
	const char *helper;          /* ruas-exec */
	const char *session_helper;  /* ruas-session, or NULL */
	const char *supervisor_name; /* NULL or "#UID": looked up by supervisor_uid */
	uid_t supervisor_uid;
};

/*
 * The library's share of the list, for the payload: "ID PATH" strings for
 * the configuration file and its directory, the helpers, the supervisor's
 * own program, its home and the dot entries at the top of that home.
 * Appends to *v (NULL-terminated, *n entries). 0, or -1 when out of memory.
 */
int anchors_known(const struct anchors_source *src, char ***v, size_t *n);

/*
 * "sudo-allowed PATH" for the program of each target_sudo_allowed command:
 * a target that can write the program (or a directory above it) runs what
 * it likes through its passwordless rule. 0, or -1 when out of memory.
 */
int anchors_sudo_allowed(char *const *allowed, char ***v, size_t *n);

/*
 * "secure-path DIR" for each directory of sudo's secure_path (as root reads
 * it with sudo -l -U): sudo runs commands from there as whoever it runs
 * them as. 0, or -1 when out of memory.
 */
int anchors_root_path(const char *secure_path, char ***v, size_t *n);

#endif
