/* SPDX-License-Identifier: ISC */
/*
 * nss_env.h - run a unit test against a fake user database.
 *
 * The library looks users up with getpwnam_r() and friends. nss_wrapper
 * (Debian package libnss-wrapper), preloaded, answers those from files of
 * our own, so tests can have users with chosen uids, shells and groups
 * without touching /etc.
 */
#ifndef RUAS_TEST_NSS_ENV_H
#define RUAS_TEST_NSS_ENV_H

/*
 * Call first thing in main(). When NSS_WRAPPER_PASSWD is not set, writes
 * passwd_lines and group_lines into a fresh directory under /tmp, sets
 * NSS_WRAPPER_PASSWD, NSS_WRAPPER_GROUP, LD_PRELOAD (libnss_wrapper.so)
 * and ASAN_OPTIONS (adds verify_asan_link_order=0 to what is there), then
 * runs /proc/self/exe again with the same argv, waits for it, removes the
 * directory and exits with its status. Returns only in that second process.
 *
 * Without libnss_wrapper.so it prints
 * "SKIP: nss_wrapper (libnss-wrapper) not installed" and exits 77, which
 * automake reports as SKIP.
 */
void nss_env_reexec(int argc, char **argv, const char *passwd_lines,
		    const char *group_lines);

/* The library that nss_env_reexec preloads, or NULL when none is installed. */
const char *nss_env_library(void);

#endif
