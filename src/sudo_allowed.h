/* sudo_allowed.h - what target_sudo_allowed may name. */
#ifndef RUAS_SUDO_ALLOWED_H
#define RUAS_SUDO_ALLOWED_H

/*
 * NULL when cmd may be accepted as a passwordless sudo command of a target,
 * else why not (static text). Refused: ALL, wildcards, relative or
 * directory commands, and programs that run whatever they are given:
 * shells, interpreters, editors and pagers, env and its kin.
 */
const char *sudo_allowed_problem(const char *cmd);

#endif
