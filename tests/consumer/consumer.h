/* SPDX-License-Identifier: ISC */
/* consumer.h - what the outside-style supervisors of tests/integration/spawn.sh share. */
#ifndef RUAS_TEST_CONSUMER_H
#define RUAS_TEST_CONSUMER_H

#include <ruas.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Each program prints "FAIL: ..." on stdout for every check that fails and
 * "# ..." for what it saw; it exits 0 when nothing failed, 1 when something
 * did, 2 when it could not even start (the library's message on stderr).
 */
extern int failures;
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(const char *what, ruas_error *err);
int finish(void);

ruas_config *load_config(const char *path);

/* The supervisor's ends of an agent's three pipes: its stdin, stdout, stderr. */
struct agent_pipes {
	int in, out, err;
};
/*
 * ruas_spawn() with fresh pipes as the agent's stdio; env NULL: environ.
 * The agent's ends are closed once it has them, as after fork().
 */
int spawn_piped(ruas_child **c, const ruas_config *cfg, const char *project,
		const char *const *args, const char *const *env, struct agent_pipes *p,
		ruas_error **err);
/* ruas_spawn() with /dev/null as the agent's stdin, stdout and stderr. */
int spawn_quiet(ruas_child **c, const ruas_config *cfg, const char *project, ruas_error **err);
void pipes_close(struct agent_pipes *p);

/*
 * One line from fd (without its newline) into buf, waiting at most
 * timeout_ms in all: its length, or -1 at end of file, on timeout or error.
 * Reads a byte at a time, so that nothing after the line is consumed.
 */
int read_line(int fd, char *buf, size_t size, int timeout_ms);
/* Writes all of s, or counts a failure. */
void write_all(int fd, const char *s);

uid_t user_uid(const char *name);
/* How many processes run with uid among their real, effective or saved uids. */
int processes_of(uid_t uid);
/* Prints (as notes) the pid and command line of every process of uid. */
void show_processes_of(uid_t uid);
/* Is a process of uid, named comm (as in /proc/PID/comm), running? */
int process_named(uid_t uid, const char *comm);
/* How many children this process has, and how many of them are zombies. */
int children(int *zombies);

long long now_ms(void);

#endif
