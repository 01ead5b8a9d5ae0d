/* SPDX-License-Identifier: ISC */
#ifndef RUAS_TEST_REEXEC_H
#define RUAS_TEST_REEXEC_H

/*
 * Runs this test program again with argv, in a child, and waits for it.
 * Returns the exit code to pass on: the child's, or 128 + the signal that
 * ended it (said on stderr). Exits on a fork or wait failure.
 *
 * The path comes from readlink("/proc/self/exe") rather than exec of
 * /proc/self/exe itself, so that under valgrind (which reports the client's
 * path to readlink but would exec its own tool binary) the re-run is the
 * test again and --trace-children follows it.
 */
int rerun_self(char **argv, const char *who);

#endif
