/* SPDX-License-Identifier: ISC */
/* cache.c - host_cache_walk() (cache.h). */
#include "host/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "host/kept.h"

#define CACHE_FILE "host-trees"
#define CACHE_MAGIC "ruas-host-trees 1\n"
#define CACHE_MAX (64u << 20)

/*
 * A directory of this user's own (made 0700 when missing): its descriptor,
 * or -1. `refused` are the mode bits it may not have: 077 for the one that
 * holds the kept files, 022 for one above it (~/.cache is often 0755: only
 * its writers could rename what is in it).
 */
static int own_dir_at(int at, const char *name, int make, unsigned int refused)
{
	if (make && mkdirat(at, name, 0700) < 0 && errno != EEXIST)
		return -1;
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & refused)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* dir/name/ruas: dir must be this user's (or root's) and not writable by others. */
static int under(const char *dir, const char *sub)
{
	struct stat st;
	int at = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (at < 0)
		return -1;
	if (fstat(at, &st) < 0 || (st.st_uid != geteuid() && st.st_uid != 0) ||
	    (st.st_mode & 022)) {
		close(at);
		return -1;
	}
	int fd = -1;
	if (sub) {
		int mid = own_dir_at(at, sub, 1, 022);
		if (mid >= 0) {
			fd = own_dir_at(mid, "ruas", 1, 077);
			close(mid);
		}
	} else {
		fd = own_dir_at(at, "ruas", 1, 077);
	}
	close(at);
	return fd;
}

int host_cache_dir(void)
{
	if (geteuid() == 0)
		return under("/run", NULL);
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	if (xdg && xdg[0] == '/') {
		int fd = under(xdg, NULL);
		if (fd >= 0)
			return fd;
	}
	char mem[16384];
	struct passwd pw, *res = NULL;
	if (getpwuid_r(geteuid(), &pw, mem, sizeof mem, &res) != 0 || !res || !res->pw_dir ||
	    res->pw_dir[0] != '/')
		return -1;
	return under(res->pw_dir, ".cache");
}

/* What the kept walk must match: boot, mounts, fs_root and roots. */
struct key {
	char boot[64];
	uint64_t mounts;
	const char *fs_root;
	char **roots;
	size_t nroots;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static int read_small(const char *path, struct buf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char chunk[8192];
	ssize_t n;
	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof chunk)) > 0 && b->len < CACHE_MAX)
		buf_add(b, chunk, (size_t)n);
	close(fd);
	return n < 0 || b->oom ? -1 : 0;
}

static int key_of(struct key *k, const char *fs_root)
{
	struct buf b = BUF_INIT;
	memset(k, 0, sizeof *k);
	k->fs_root = fs_root ? fs_root : "";
	if (read_small("/proc/sys/kernel/random/boot_id", &b) < 0 || !b.len) {
		buf_free(&b);
		return -1;
	}
	snprintf(k->boot, sizeof k->boot, "%.*s", (int)strcspn(b.data, "\n"), b.data);
	buf_reset(&b);
	if (read_small("/proc/self/mountinfo", &b) < 0) {
		buf_free(&b);
		return -1;
	}
	k->mounts = fnv(14695981039346656037ull, b.data ? b.data : "", b.len);
	buf_free(&b);
	return host_roots(fs_root, &k->roots, &k->nroots);
}

static void key_free(struct key *k)
{
	for (size_t i = 0; i < k->nroots; i++)
		free(k->roots[i]);
	free(k->roots);
}

static void put_str(struct buf *b, const char *s)
{
	buf_printf(b, "%zu:", strlen(s));
	buf_adds(b, s);
	buf_addc(b, '\n');
}

static void put_acl(struct buf *b, const struct host_ace *a, size_t n)
{
	buf_printf(b, " %zu", n);
	for (size_t i = 0; i < n; i++)
		buf_printf(b, " %u,%u,%u", a[i].tag, a[i].perm, a[i].id);
}

static int store(int dfd, const struct key *k, long long when, const struct host_trees *t)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, CACHE_MAGIC);
	buf_printf(&b, "%s %016llx %lld %llu %zu %zu\n", k->boot, (unsigned long long)k->mounts,
		   when, t->entries, t->nroots, t->n);
	put_str(&b, k->fs_root);
	for (size_t i = 0; i < t->nroots; i++)
		put_str(&b, t->roots[i]);
	for (size_t i = 0; i < t->n; i++) {
		const struct host_entry *e = &t->e[i];
		buf_printf(&b, "%u %u %u %u %u", e->mode, (unsigned int)e->uid, (unsigned int)e->gid,
			   e->flags, e->root);
		put_acl(&b, e->acl, e->nacl);
		put_acl(&b, e->dacl, e->ndacl);
		buf_addc(&b, ' ');
		put_str(&b, e->path);
	}
	int rc = b.oom ? -1 : kept_write(dfd, CACHE_FILE, b.data, b.len);
	buf_free(&b);
	return rc;
}

static void lit(struct kept_cur *c, char ch)
{
	char s[2] = {ch, '\0'};
	kept_lit(c, s);
}

/* "LEN:BYTES\n", a path. */
static char *str(struct kept_cur *c)
{
	unsigned long long n = kept_num(c);
	lit(c, ':');
	if (n >= PATH_MAX)
		c->bad = 1;
	char *s = kept_bytes(c, n);
	lit(c, '\n');
	if (c->bad) {
		free(s);
		return NULL;
	}
	return s;
}

static struct host_ace *acl_read(struct kept_cur *c, size_t *n)
{
	lit(c, ' ');
	unsigned long long k = kept_num(c);
	*n = 0;
	if (c->bad || k > 65536)
		return NULL;
	struct host_ace *v = k ? calloc((size_t)k, sizeof *v) : NULL;
	if (k && !v) {
		c->bad = 1;
		return NULL;
	}
	for (size_t i = 0; i < k; i++) {
		lit(c, ' ');
		v[i].tag = (unsigned short)kept_num(c);
		lit(c, ',');
		v[i].perm = (unsigned short)kept_num(c);
		lit(c, ',');
		v[i].id = (unsigned int)kept_num(c);
	}
	*n = (size_t)k;
	return v;
}

static int same_roots(const struct key *k, const struct host_trees *t)
{
	if (k->nroots != t->nroots)
		return 0;
	for (size_t i = 0; i < k->nroots; i++)
		if (!t->roots[i] || strcmp(k->roots[i], t->roots[i]) != 0)
			return 0;
	return 1;
}

/* The file's entries (ne of them) after its roots, into t; c->bad when they are not. */
static void read_entries(struct kept_cur *c, unsigned long long ne, struct host_trees *t)
{
	for (size_t i = 0; !c->bad && i < ne; i++) {
		struct host_entry *x = &t->e[i];
		x->mode = (unsigned int)kept_num(c);
		lit(c, ' ');
		x->uid = (uid_t)kept_num(c);
		lit(c, ' ');
		x->gid = (gid_t)kept_num(c);
		lit(c, ' ');
		x->flags = (unsigned int)kept_num(c);
		lit(c, ' ');
		x->root = (unsigned int)kept_num(c);
		x->acl = acl_read(c, &x->nacl);
		x->dacl = acl_read(c, &x->ndacl);
		lit(c, ' ');
		x->path = str(c);
		if (c->bad) {
			host_entry_clear(x); /* what of it was read */
			memset(x, 0, sizeof *x);
			break;
		}
		t->n++;
		if (x->root >= t->nroots)
			c->bad = 1;
	}
}

/*
 * After the magic: the key's line, the fs_root and the roots. 1 when they
 * are the key's and the walk is younger than interval (t->roots, t->e
 * allocated for *ne entries), 0 when not.
 */
static int read_head(struct kept_cur *c, const struct key *k, unsigned int interval,
		     struct host_trees *t, unsigned long long *ne)
{
	size_t bl = strlen(k->boot);
	if ((size_t)(c->end - c->p) <= bl || memcmp(c->p, k->boot, bl) != 0 || c->p[bl] != ' ')
		return 0;
	c->p += bl + 1;
	char *e;
	unsigned long long mounts = strtoull(c->p, &e, 16);
	c->p = e;
	lit(c, ' ');
	long long when = (long long)kept_num(c);
	lit(c, ' ');
	t->entries = kept_num(c);
	lit(c, ' ');
	unsigned long long nroots = kept_num(c);
	lit(c, ' ');
	*ne = kept_num(c);
	lit(c, '\n');
	long long now = kept_now();
	int ok = !c->bad && mounts == k->mounts && when <= now && now - when < (long long)interval &&
		 nroots <= 4096 && *ne <= CACHE_MAX;
	char *fsr = ok ? str(c) : NULL;
	ok = ok && fsr && strcmp(fsr, k->fs_root) == 0;
	free(fsr);
	if (ok && (!(t->roots = calloc((size_t)nroots + 1, sizeof *t->roots)) ||
		   (*ne && !(t->e = calloc((size_t)*ne, sizeof *t->e)))))
		c->bad = 1;
	for (size_t i = 0; ok && !c->bad && i < nroots; i++) {
		t->roots[i] = str(c);
		t->nroots += t->roots[i] != NULL;
	}
	return ok && !c->bad && same_roots(k, t);
}

/* 1 with *t filled when the kept walk fits the key and is fresh, 0 when not, -1 OOM. */
static int load(int dfd, const struct key *k, unsigned int interval, struct host_trees *t)
{
	struct buf b = BUF_INIT;
	if (kept_read(dfd, CACHE_FILE, CACHE_MAX, &b) < 0 || b.len < strlen(CACHE_MAGIC) ||
	    memcmp(b.data, CACHE_MAGIC, strlen(CACHE_MAGIC)) != 0) {
		int oom = b.oom;
		buf_free(&b);
		return oom ? -1 : 0;
	}
	struct kept_cur c = {b.data + strlen(CACHE_MAGIC), b.data + b.len, 0};
	unsigned long long ne = 0;
	memset(t, 0, sizeof *t);
	int ok = read_head(&c, k, interval, t, &ne);
	if (ok)
		read_entries(&c, ne, t);
	ok = ok && !c.bad && c.p == c.end;
	buf_free(&b);
	if (!ok)
		host_trees_free(t);
	return ok;
}

int host_cache_walk(const char *fs_root, unsigned int seconds, unsigned int interval,
		    int fresh, const char *cache_dir, struct host_trees *out)
{
	struct key k;
	int dfd = -1;
	memset(out, 0, sizeof *out);
	if (!interval)
		return host_trees_walk(fs_root, 0, seconds, out);
	int have_key = key_of(&k, fs_root) == 0;
	if (have_key)
		dfd = cache_dir ? own_dir_at(AT_FDCWD, cache_dir, 0, 077) : host_cache_dir();
	if (dfd >= 0 && !fresh) {
		int r = load(dfd, &k, interval, out);
		int f = r > 0 ? host_trees_refresh(fs_root, out) : 0;
		if (f != 0) {
			/* Out of memory, or the kept walk cannot stand: walk anew. */
			host_trees_free(out);
			r = f < 0 ? -1 : 0;
		}
		if (r != 0) {
			close(dfd);
			key_free(&k);
			return r > 0 ? 0 : -1;
		}
	}
	long long when = kept_now();
	int rc = host_trees_walk(fs_root, 0, seconds, out);
	/* Only a whole walk is kept, and only under the key it was made with. */
	if (rc == 0 && dfd >= 0 && !out->incomplete && same_roots(&k, out))
		(void)store(dfd, &k, when, out);
	if (dfd >= 0)
		close(dfd);
	if (have_key)
		key_free(&k);
	return rc;
}
