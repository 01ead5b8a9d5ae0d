/* SPDX-License-Identifier: ISC */
/* pty.h - the agent's own pseudo-terminal (spawn option pty), opened by the supervisor. */
#ifndef RUAS_SPAWN_PTY_H
#define RUAS_SPAWN_PTY_H

#include "config/config_int.h"
#include "error.h"
#include "ruas.h"
#include "spawn/start.h"

/* Are o->pty and o->pty_relay values ruas_spawn() takes for project p? 0, or RUAS_ERR_INVALID with *err. */
int spawn_pty_check(const struct ruas_project *p, const ruas_spawn_options *o, ruas_error **err);

/*
 * When this spawn gets a pty (o->pty, and s->stdio as stdio_of() made
 * them): opens the pair, gives the slave the modes and size of the first
 * of s->stdio that is a terminal, and puts the slave in place of those of
 * s->stdio that are terminals (pty 1: of all three). s->master gets the
 * master (non-blocking, close-on-exec), -1 without a pty. With relay
 * (the library's), s->term_in and s->term_out get what the relay copies
 * between: the caller's stdin, and the first of its stdout and stderr
 * that became the pty (else its stdin, the terminal that echoes). 0, or
 * a ruas_code with *err set and s->stdio as they were.
 */
int spawn_pty_open(struct start *s, int pty, int relay, ruas_error **err);

#endif
