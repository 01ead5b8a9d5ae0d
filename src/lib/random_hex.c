/* SPDX-License-Identifier: ISC */
/* random_hex.c - see random_hex.h. */
#include "random_hex.h"

#include <errno.h>
#include <sys/random.h>

int random_hex(char *out, size_t outsz)
{
	static const char digits[] = "0123456789abcdef";
	unsigned char raw[16];
	size_t got = 0;
	if (outsz < 2 * sizeof raw + 1) {
		errno = ENOMEM;
		return -1;
	}
	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof raw; i++) {
		out[2 * i] = digits[raw[i] >> 4];
		out[2 * i + 1] = digits[raw[i] & 15];
	}
	out[2 * sizeof raw] = '\0';
	return 0;
}
