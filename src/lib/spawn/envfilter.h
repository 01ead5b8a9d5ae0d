/* SPDX-License-Identifier: ISC */
/* envfilter.h - which of the supervisor's variables cross to the agent. */
#ifndef RUAS_ENVFILTER_H
#define RUAS_ENVFILTER_H

#include <stddef.h>

/*
 * For each allowlisted name set in env ("NAME=value" strings), in allowlist
 * order, stores pointers to the name and to the value inside env. The first
 * definition wins, as getenv() does. Returns the count; the arrays must
 * hold one entry per allowlist name.
 */
size_t env_filter(const char *const *env, const char *const *allowlist,
		  const char **names, const char **values);

#endif
