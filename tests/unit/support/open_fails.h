/* SPDX-License-Identifier: ISC */
/*
 * open_fails.h - make open() of one path fail, as the kernel would.
 *
 * A test that links open_fails.c replaces the process's open(): while
 * open_fails_path is set, opening exactly that path fails with
 * open_fails_errno, and every other open() goes to the kernel unchanged.
 * It is how a test puts the process at its descriptor limit (EMFILE) at
 * one precise open, which a real limit cannot aim at.
 */
#ifndef RUAS_TEST_OPEN_FAILS_H
#define RUAS_TEST_OPEN_FAILS_H

extern const char *open_fails_path;
extern int open_fails_errno;

#endif
