/* SPDX-License-Identifier: ISC */
/*
 * ruas.h - run as user, safely.
 *
 * libruas loads a configuration of projects, checks before anything starts
 * that each project's OS-user boundary is real, and spawns a project's agent
 * as its run_as_user. This header includes the whole API, one header per
 * noun (after libgit2):
 *
 *   ruas/common.h     return codes, RUAS_EXTERN, ruas_free()
 *   ruas/error.h      ruas_error, the stage of a start that failed
 *   ruas/config.h     ruas_config and its projects: loaded, or built in code
 *   ruas/audit.h      audit records and where they go
 *   ruas/check.h      ruas_preflight() and its report
 *   ruas/spawn.h      ruas_spawn() and its options
 *   ruas/child.h      a started agent: wait, signal, end
 *   ruas/people.h     people on one instance: deny lists, the OS audit
 *   ruas/provision.h  for provisioning tools: sudoers, groups, targets
 *
 * Conventions: every type is opaque and has its own ruas_<noun>_free();
 * functions return 0 or a negative ruas_code and, when `err` is not NULL,
 * store a ruas_error; each options struct has a version, an _INIT macro
 * and ruas_<struct>_init(); the library never prints, never exits, keeps
 * no global state and may be used from several threads. libruas(3) and
 * docs/library.md are the reference.
 */
#ifndef RUAS_H
#define RUAS_H

#include "ruas/common.h"
#include "ruas/error.h"
#include "ruas/config.h"
#include "ruas/audit.h"
#include "ruas/check.h"
#include "ruas/child.h"
#include "ruas/spawn.h"
#include "ruas/people.h"
#include "ruas/provision.h"

#endif /* RUAS_H */
