#ifndef RUAS_TEST_REEXEC_H
#define RUAS_TEST_REEXEC_H

/*
 * In a forked child: run this test program again with argv; never returns.
 * The path comes from readlink("/proc/self/exe") rather than exec of
 * /proc/self/exe itself, so that under valgrind (which reports the client's
 * path to readlink but would exec its own tool binary) the re-run is the
 * test again and --trace-children follows it.
 */
_Noreturn void reexec_self(char **argv, const char *who);

#endif
