/* SPDX-License-Identifier: ISC */
/* run.c - see run.h. */
#include "cgroup/run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

static const struct {
	unsigned int bit;
	const char *name;
} controllers[] = {
	{CGROUP_CTL_MEMORY, "memory"},
	{CGROUP_CTL_PIDS, "pids"},
	{CGROUP_CTL_CPU, "cpu"},
};

unsigned int cgroup_controllers_wanted(const struct cgroup_limits *l)
{
	return (l->memory_max ? CGROUP_CTL_MEMORY : 0) | (l->tasks_max ? CGROUP_CTL_PIDS : 0) |
	       (l->cpu_quota_us ? CGROUP_CTL_CPU : 0);
}

unsigned int cgroup_controllers_parse(const char *text)
{
	unsigned int bits = 0;
	for (const char *p = text; *p;) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		size_t len = strcspn(p, " \n\t");
		for (size_t i = 0; i < sizeof controllers / sizeof controllers[0]; i++)
			if (len == strlen(controllers[i].name) &&
			    memcmp(p, controllers[i].name, len) == 0)
				bits |= controllers[i].bit;
		p += len;
	}
	return bits;
}

int cgroup_file_read(int dir, const char *name, char *out, size_t n)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	size_t len = 0;
	for (;;) {
		ssize_t got = read(fd, out + len, n - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		len += (size_t)got;
		if (got == 0 || len == n - 1)
			break;
	}
	close(fd);
	out[len] = '\0';
	return 0;
}

/* One write of text, as the cgroup files want it (a short write is an error). */
static int write_text(int dir, const char *name, const char *text)
{
	int fd = openat(dir, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	size_t len = strlen(text);
	ssize_t put;
	do
		put = write(fd, text, len);
	while (put < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (put == (ssize_t)len)
		return 0;
	errno = put < 0 ? e : EIO;
	return -1;
}

int cgroup_hand_down(int parent, unsigned int want, const char **what)
{
	char text[512];
	*what = "cgroup.subtree_control";
	if (cgroup_file_read(parent, "cgroup.subtree_control", text, sizeof text) < 0)
		return -1;
	unsigned int missing = want & ~cgroup_controllers_parse(text);
	char add[64] = "";
	for (size_t i = 0; i < sizeof controllers / sizeof controllers[0]; i++)
		if (missing & controllers[i].bit) {
			strcat(add, add[0] ? " +" : "+");
			strcat(add, controllers[i].name);
		}
	return add[0] ? write_text(parent, "cgroup.subtree_control", add) : 0;
}

/* 1 when the host has swap on (a line beyond /proc/swaps' header), 0 when not, -1. */
static int swap_active(void)
{
	char text[256];
	if (cgroup_file_read(AT_FDCWD, "/proc/swaps", text, sizeof text) < 0)
		return -1;
	const char *nl = strchr(text, '\n');
	return nl && nl[1] ? 1 : 0;
}

static int write_limits(int dir, const struct cgroup_limits *l, const char **what)
{
	char v[64];
	if (l->memory_max) {
		snprintf(v, sizeof v, "%" PRIu64, l->memory_max);
		*what = "memory.max";
		if (write_text(dir, "memory.max", v) < 0)
			return -1;
		snprintf(v, sizeof v, "%" PRIu64, l->memory_swap_max);
		*what = "memory.swap.max";
		/*
		 * No such file: the kernel does not account swap (no memcg swap,
		 * swapaccount=0). Without swap on the host there is none to
		 * limit; with it, memory_max alone would let the run push the
		 * rest out to swap, without a bound: refused.
		 */
		if (write_text(dir, "memory.swap.max", v) < 0 &&
		    !(errno == ENOENT && !l->memory_swap_max && swap_active() == 0)) {
			if (errno == ENOENT)
				errno = EOPNOTSUPP;
			return -1;
		}
	}
	if (l->tasks_max) {
		snprintf(v, sizeof v, "%" PRIu64, l->tasks_max);
		*what = "pids.max";
		if (write_text(dir, "pids.max", v) < 0)
			return -1;
	}
	if (l->cpu_quota_us) {
		snprintf(v, sizeof v, "%" PRIu64 " %" PRIu64, l->cpu_quota_us, l->cpu_period_us);
		*what = "cpu.max";
		if (write_text(dir, "cpu.max", v) < 0)
			return -1;
	}
	return 0;
}

int run_cgroup_make(struct run_cgroup *rc, int parent_fd, const char *name,
		    const struct cgroup_limits *l, const char **what)
{
	rc->parent = rc->dir = -1;
	*what = "name";
	if (strlen(name) >= sizeof rc->name || !name[0] || strchr(name, '/') ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		errno = EINVAL;
		return -1;
	}
	snprintf(rc->name, sizeof rc->name, "%s", name);
	*what = "the parent";
	rc->parent = fcntl(parent_fd, F_DUPFD_CLOEXEC, 3);
	if (rc->parent < 0)
		return -1;
	unsigned int want = cgroup_controllers_wanted(l);
	if (want && cgroup_hand_down(rc->parent, want, what) < 0)
		goto fail;
	*what = "mkdir";
	if (mkdirat(rc->parent, name, 0755) < 0)
		goto fail;
	rc->dir = openat(rc->parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (rc->dir >= 0 && faccessat(rc->dir, "cgroup.kill", W_OK, 0) < 0) {
		int e = errno == ENOENT ? ENOSYS : errno;
		*what = "cgroup.kill";
		close(rc->dir);
		rc->dir = -1;
		unlinkat(rc->parent, name, AT_REMOVEDIR);
		errno = e;
		goto fail;
	}
	if (rc->dir < 0 || write_limits(rc->dir, l, what) < 0) {
		int e = errno;
		if (rc->dir >= 0)
			close(rc->dir);
		rc->dir = -1;
		unlinkat(rc->parent, name, AT_REMOVEDIR);
		errno = e;
		goto fail;
	}
	return 0;
fail:;
	int e = errno;
	close(rc->parent);
	rc->parent = -1;
	errno = e;
	return -1;
}

/* The value of `key` in a "key value" lines text, or UINT64_MAX. */
static uint64_t keyed(const char *text, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ')
			return strtoull(p + klen + 1, NULL, 10);
	return UINT64_MAX;
}

void run_cgroup_counts(const struct run_cgroup *rc, struct cgroup_counts *c)
{
	char text[1024];
	c->ooms = c->oom_kills = c->pids_max = c->peak_bytes = c->cpu_usec = UINT64_MAX;
	if (rc->dir < 0)
		return;
	if (cgroup_file_read(rc->dir, "memory.events", text, sizeof text) == 0) {
		c->ooms = keyed(text, "oom");
		c->oom_kills = keyed(text, "oom_kill");
	}
	/*
	 * Its own limit's refusals: pids.events.local where the kernel has it
	 * (6.13); before, pids.events, which counted them where they were
	 * refused, whichever ancestor's limit it was.
	 */
	if (cgroup_file_read(rc->dir, "pids.events.local", text, sizeof text) == 0 ||
	    cgroup_file_read(rc->dir, "pids.events", text, sizeof text) == 0)
		c->pids_max = keyed(text, "max");
	if (cgroup_file_read(rc->dir, "memory.peak", text, sizeof text) == 0)
		c->peak_bytes = strtoull(text, NULL, 10);
	if (cgroup_file_read(rc->dir, "cpu.stat", text, sizeof text) == 0)
		c->cpu_usec = keyed(text, "usage_usec");
}


int run_cgroup_kill(const struct run_cgroup *rc)
{
	if (rc->dir < 0) {
		errno = EBADF;
		return -1;
	}
	return write_text(rc->dir, "cgroup.kill", "1");
}

/* populated from an open cgroup.events, read from its start (which re-arms poll). */
static int populated_at(int fd)
{
	char text[256];
	ssize_t got;
	do
		got = pread(fd, text, sizeof text - 1, 0);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -1;
	text[got] = '\0';
	uint64_t v = keyed(text, "populated");
	if (v == UINT64_MAX) {
		errno = EPROTO;
		return -1;
	}
	return v != 0;
}

int run_cgroup_populated(const struct run_cgroup *rc)
{
	int fd = rc->dir < 0 ? -1 : openat(rc->dir, "cgroup.events", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	int r = populated_at(fd);
	int e = errno;
	close(fd);
	errno = e;
	return r;
}

int run_cgroup_wait_empty(const struct run_cgroup *rc, int timeout_ms)
{
	if (rc->dir < 0) {
		errno = EBADF;
		return -1;
	}
	int fd = openat(rc->dir, "cgroup.events", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	long long deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
	int r;
	for (;;) {
		r = populated_at(fd);
		if (r <= 0)
			break;
		/* The kernel marks the file (POLLPRI) when populated changes. */
		struct pollfd pfd = {fd, POLLPRI, 0};
		long long left = deadline < 0 ? 60000 : deadline - monotonic_ms();
		if (left <= 0) {
			errno = ETIMEDOUT;
			r = -1;
			break;
		}
		if (poll(&pfd, 1, (int)(left > 60000 ? 60000 : left)) < 0 && errno != EINTR) {
			r = -1;
			break;
		}
	}
	int e = errno;
	close(fd);
	errno = e;
	return r < 0 ? -1 : 0;
}

int run_cgroup_remove(struct run_cgroup *rc)
{
	int r = 0;
	if (rc->dir >= 0)
		close(rc->dir);
	rc->dir = -1;
	if (rc->parent >= 0) {
		r = unlinkat(rc->parent, rc->name, AT_REMOVEDIR);
		int e = errno;
		close(rc->parent);
		rc->parent = -1;
		errno = e;
	}
	return r;
}
