/* SPDX-License-Identifier: ISC */
/* kept.c - see kept.h. */
#include "host/kept.h"
#include "host/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "random_hex.h"

int kept_write(int dfd, const char *name, const void *data, size_t len)
{
	char tmp[160], hex[33];
	if (random_hex(hex, sizeof hex) < 0)
		return -1;
	snprintf(tmp, sizeof tmp, "%s.%s", name, hex);
	int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, (const char *)data + off, len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	if (close(fd) == 0 && off == len && renameat(dfd, tmp, dfd, name) == 0)
		return 0;
	unlinkat(dfd, tmp, 0);
	return -1;
}

int kept_read(int dfd, const char *name, size_t max, struct buf *b)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) || st.st_size > (off_t)max) {
		close(fd);
		return -1;
	}
	char chunk[65536];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0 && b->len <= max)
		buf_add(b, chunk, (size_t)n);
	close(fd);
	return n < 0 || b->oom || b->len > max ? -1 : 0;
}

long long kept_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec;
}

unsigned long long kept_num(struct kept_cur *c)
{
	char *e;
	if (c->bad || c->p >= c->end || *c->p < '0' || *c->p > '9') {
		c->bad = 1;
		return 0;
	}
	errno = 0;
	unsigned long long v = strtoull(c->p, &e, 10);
	if (errno || e > c->end) {
		c->bad = 1;
		return 0;
	}
	c->p = e;
	return v;
}

void kept_lit(struct kept_cur *c, const char *s)
{
	size_t n = strlen(s);
	if (c->bad || (size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		c->bad = 1;
	else
		c->p += n;
}

char *kept_bytes(struct kept_cur *c, unsigned long long n)
{
	if (c->bad || n > (unsigned long long)(c->end - c->p)) {
		c->bad = 1;
		return NULL;
	}
	char *s = strndup(c->p, (size_t)n);
	c->p += n;
	if (!s || strlen(s) != n) {
		free(s);
		c->bad = 1;
		return NULL;
	}
	return s;
}

void kept_keyed_read(const char *name, size_t max, const struct buf *key, unsigned int interval,
		     struct buf *b, struct kept_cur *c)
{
	int dfd = interval && key->data ? host_cache_dir() : -1;
	if (dfd >= 0) {
		if (kept_read(dfd, name, max, b) < 0)
			buf_reset(b);
		close(dfd);
	}
	*c = (struct kept_cur){b->data, b->data + b->len, !b->data || b->oom};
	kept_lit(c, "K ");
	unsigned long long kl = kept_num(c);
	kept_lit(c, "\n");
	if (!c->bad && (!key->data || kl != key->len || (size_t)(c->end - c->p) < kl ||
			memcmp(c->p, key->data, key->len) != 0))
		c->bad = 1;
	if (!c->bad)
		c->p += kl;
	kept_lit(c, "\nT ");
	long long when = (long long)kept_num(c), now = kept_now();
	kept_lit(c, "\n");
	if (when > now || now - when >= (long long)interval)
		c->bad = 1;
}

void kept_head(struct buf *b, const struct buf *key)
{
	buf_printf(b, "K %zu\n", key->len);
	buf_add(b, key->data, key->len);
	buf_printf(b, "\nT %lld\n", kept_now());
}

void kept_name(const char *prefix, const char *of, char *out, size_t outsz)
{
	unsigned long long h = 14695981039346656037ull;
	for (const char *p = of; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ull;
	}
	snprintf(out, outsz, "%s-%016llx", prefix, h);
}

void kept_store(const char *name, const struct buf *b)
{
	int dfd = b->oom ? -1 : host_cache_dir();
	if (dfd >= 0) {
		(void)kept_write(dfd, name, b->data, b->len);
		close(dfd);
	}
}
