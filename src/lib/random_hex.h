/* SPDX-License-Identifier: ISC */
/* random_hex.h - 128 random bits as 32 lower-case hex digits: run ids. */
#ifndef RUAS_RANDOM_HEX_H
#define RUAS_RANDOM_HEX_H

#include <stddef.h>

/* Into out (at least 33 bytes, NUL-terminated), from getrandom(2). 0, or -1 with errno. */
int random_hex(char *out, size_t outsz);

#endif
