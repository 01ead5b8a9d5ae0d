/* SPDX-License-Identifier: ISC */
/* acl.c - host_acl_read() (acl.h). */
#include "host/acl.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/xattr.h>

static void ace_parse(const unsigned char *a, ssize_t n, struct host_ace **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	/* posix_acl_xattr: a 4-byte version (2), then 8 bytes per entry, little-endian. */
	if (n < 4 || (n - 4) % 8 != 0)
		return;
	size_t k = (size_t)(n - 4) / 8;
	struct host_ace *v = k ? calloc(k, sizeof *v) : NULL;
	if (!v)
		return;
	for (size_t i = 0; i < k; i++) {
		const unsigned char *p = a + 4 + 8 * i;
		v[i].tag = (unsigned short)(p[0] | p[1] << 8);
		v[i].perm = (unsigned short)(p[2] | p[3] << 8);
		v[i].id = (unsigned int)p[4] | (unsigned int)p[5] << 8 | (unsigned int)p[6] << 16 |
			  (unsigned int)p[7] << 24;
	}
	*out = v;
	*nout = k;
}

int host_acl_read(const char *path, const char *attr, struct host_ace **out, size_t *n)
{
	unsigned char small[4 + 8 * 16];
	unsigned char *a = small;
	ssize_t len = lgetxattr(path, attr, small, sizeof small);
	*out = NULL;
	*n = 0;
	if (len < 0 && errno == ERANGE) {
		/* Larger than most: ask its size, then read it whole. */
		ssize_t want = lgetxattr(path, attr, NULL, 0);
		if (want <= 0 || want > (ssize_t)(4 + 8 * 65536))
			return 0;
		if (!(a = malloc((size_t)want)))
			return -1;
		len = lgetxattr(path, attr, a, (size_t)want);
	}
	int rc = 0;
	if (len > 4) {
		ace_parse(a, len, out, n);
		rc = *out ? 0 : -1;
	}
	if (a != small)
		free(a);
	return rc;
}

