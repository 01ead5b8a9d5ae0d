/* SPDX-License-Identifier: ISC */
/* sudo_allowed.h - what target_sudo_allowed may name. */
#ifndef RUAS_SUDO_ALLOWED_H
#define RUAS_SUDO_ALLOWED_H

/*
 * NULL when cmd may be accepted as a passwordless sudo command of a target,
 * else why not (static text). Refused: ALL, wildcards, relative or
 * directory commands, commands without arguments (sudo then allows any),
 * and programs that run whatever they are given or write what root
 * trusts: shells, interpreters, editors and pagers, env and its kin, cp,
 * tee, package managers and the like.
 */
const char *sudo_allowed_problem(const char *cmd);

/* The program of an accepted command (after a digest), malloc'd; NULL when out of memory. */
char *sudo_allowed_program(const char *cmd);

#endif
