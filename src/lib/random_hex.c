/* random_hex.c - see random_hex.h. */
#include "random_hex.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "buf.h"
#include "payload.h"

int random_hex(char *out, size_t outsz)
{
	unsigned char raw[16];
	struct buf b = BUF_INIT;
	size_t got = 0;
	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	if (hex_encode(&b, raw, sizeof raw) < 0 || b.len >= outsz) {
		buf_free(&b);
		errno = ENOMEM;
		return -1;
	}
	memcpy(out, b.data, b.len + 1);
	buf_free(&b);
	return 0;
}
