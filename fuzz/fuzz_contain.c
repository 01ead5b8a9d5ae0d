/* SPDX-License-Identifier: ISC */
/*
 * fuzz_contain - path containment on random trees. The input builds a small
 * tree of directories and symlinks (relative and absolute, pointing inside
 * and outside) under a fresh root, then resolves a random path beneath it
 * with openat2 and with the walk. Properties: both agree on whether it is
 * contained, and what they return is really inside the root.
 */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {"a", "b", "c", "..", ".", "x"};
static const char *const targets[] = {"a", "../a", "../../outside", "/etc", "b/c", ".", "..",
				      NULL /* the root, absolute */};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void rmtree(const char *p)
{
	nftw(p, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int inside(int fd, const char *root)
{
	char link[64], real[PATH_MAX], rootreal[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof real - 1);
	if (n < 0 || !realpath(root, rootreal))
		return 0;
	real[n] = '\0';
	size_t rl = strlen(rootreal);
	return strncmp(real, rootreal, rl) == 0 && (real[rl] == '\0' || real[rl] == '/');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char root[PATH_MAX], path[PATH_MAX], tmpl[] = "/tmp/fuzz-contain.XXXXXX";
	if (!mkdtemp(tmpl))
		return 0;
	snprintf(root, sizeof root, "%s/root", tmpl);
	mkdir(root, 0755);
	char outside[PATH_MAX];
	snprintf(outside, sizeof outside, "%s/outside", tmpl);
	mkdir(outside, 0755);
	size_t i = 0;
	/* Build: each op is two bytes (kind, where). */
	for (; i + 1 < size && data[i] != 0xff; i += 2) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s/%s", root, names[data[i + 1] % 3], names[(data[i + 1] >> 4) % 3]);
		char parent[PATH_MAX];
		snprintf(parent, sizeof parent, "%s/%s", root, names[data[i + 1] % 3]);
		mkdir(parent, 0755);
		if (data[i] % 2 == 0) {
			mkdir(p, 0755);
		} else {
			const char *t = targets[(data[i] >> 1) % 8];
			(void)!symlink(t ? t : root, p);
		}
	}
	/* Path: the remaining bytes pick components. */
	size_t len = (size_t)snprintf(path, sizeof path, "%s", root);
	for (i++; i < size && len + 8 < sizeof path; i++)
		len += (size_t)snprintf(path + len, sizeof path - len, "/%s", names[data[i] % 6]);
	char why[256];
	int fa = -1, fb = -1;
	enum contain_result a = contain_resolve(root, path, &fa, why, sizeof why, 0);
	enum contain_result b = contain_resolve(root, path, &fb, why, sizeof why, 1);
	if ((a == CONTAIN_OK) != (b == CONTAIN_OK))
		__builtin_trap();
	if (a == CONTAIN_OK && !inside(fa, root))
		__builtin_trap();
	if (b == CONTAIN_OK && !inside(fb, root))
		__builtin_trap();
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	rmtree(tmpl);
	return 0;
}
