/* SPDX-License-Identifier: ISC */
/* userns.c - see userns.h. */
#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long the maker may take to make the namespace. */
#define MAKER_MS 10000

/*
 * The helper's maker: its socket and pid, -1 when there is none. A helper
 * is one process with one maker, so this is the program's own state, not
 * a library's.
 */
static int maker_fd = -1;
static pid_t maker_pid = -1;

static int fail(char *why, size_t whysz, const char *step, int e)
{
	snprintf(why, whysz, "%s: %s", step, strerror(e));
	errno = e;
	return -1;
}

/* Writes text to /proc/self/NAME: 0, or -1 with errno. */
static int write_proc_self(const char *name, const char *text)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/%s", name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	if (w == (ssize_t)n)
		return 0;
	errno = w < 0 ? e : EIO;
	return -1;
}

/* The namespace and its maps, in the maker: 0, or the errno of the step that failed. */
static int make(void)
{
	char line[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	/* Dumpable, to write its own maps: it holds nothing else. */
	if (prctl(PR_SET_DUMPABLE, 1) < 0 || unshare(CLONE_NEWUSER) < 0 ||
	    write_proc_self("setgroups", "deny") < 0)
		return errno;
	snprintf(line, sizeof line, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (write_proc_self("uid_map", line) < 0)
		return errno;
	snprintf(line, sizeof line, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	return write_proc_self("gid_map", line) < 0 ? errno : 0;
}

/*
 * The maker's life: nothing of the helper's kept, the namespace made at
 * once (on another CPU, while the helper reads its payload: a spawn that
 * wants it then finds it ready), its verdict sent; then it waits for the
 * helper's end of file, whether the helper joined or not.
 */
static _Noreturn void maker(int fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int i = 0; i < 3 && null >= 0; i++)
		if (i != fd)
			dup2(null, i);
	if (fd > 3)
		close_range(3, (unsigned int)fd - 1, 0);
	close_range((unsigned int)fd + 1, ~0U, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(1);
	int32_t e = make();
	char c;
	if (send(fd, &e, sizeof e, MSG_NOSIGNAL) == (ssize_t)sizeof e)
		while (read(fd, &c, 1) > 0 || errno == EINTR)
			;
	_exit(e ? 1 : 0);
}

int userns_prepare(void)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		maker(sv[1]);
	}
	int e = errno;
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		errno = e;
		return -1;
	}
	maker_fd = sv[0];
	maker_pid = pid;
	return 0;
}

void userns_release(void)
{
	if (maker_fd < 0)
		return;
	close(maker_fd);
	maker_fd = -1;
	while (waitpid(maker_pid, NULL, 0) < 0 && errno == EINTR)
		;
	maker_pid = -1;
}

int userns_fd(void)
{
	return maker_fd;
}

/* Reads a small /proc file of pid into buf: its length, or -1. */
static ssize_t read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The next number of a map's line (spaces before it), or -1 with *p past what was read. */
static long long map_number(char **p)
{
	while (**p == ' ')
		(*p)++;
	char *end;
	errno = 0;
	unsigned long v = strtoul(*p, &end, 10);
	if (end == *p || errno || v > 0xffffffffUL)
		return -1;
	*p = end;
	return (long long)v;
}

/* A map of exactly one line, `id id 1`, for this id. */
static int map_is_self(pid_t pid, const char *name, unsigned long id)
{
	char buf[256];
	if (read_proc(pid, name, buf, sizeof buf) <= 0)
		return 0;
	char *p = buf;
	long long in = map_number(&p), out = map_number(&p), count = map_number(&p);
	return in == (long long)id && out == (long long)id && count == 1 && strcmp(p, "\n") == 0;
}

/*
 * The namespace of pid, as the helper must have it: a child of its own
 * user namespace, owned by its uid, with nothing but its own ids mapped.
 * The open descriptor, or -1 with why.
 */
static int checked_namespace(pid_t pid, char *why, size_t whysz)
{
	char path[64], buf[16];
	struct stat mine, parent;
	uid_t owner;
	snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(why, whysz, "the new user namespace", errno);
	int pfd = ioctl(fd, NS_GET_PARENT);
	int ok = pfd >= 0 && fstat(pfd, &parent) == 0 && stat("/proc/self/ns/user", &mine) == 0 &&
		 parent.st_ino == mine.st_ino && parent.st_dev == mine.st_dev &&
		 ioctl(fd, NS_GET_OWNER_UID, &owner) == 0 && owner == geteuid() &&
		 map_is_self(pid, "uid_map", geteuid()) && map_is_self(pid, "gid_map", getegid()) &&
		 read_proc(pid, "setgroups", buf, sizeof buf) > 0 && strcmp(buf, "deny\n") == 0;
	if (pfd >= 0)
		close(pfd);
	if (!ok) {
		close(fd);
		return fail(why, whysz, "the new user namespace is not the one asked for", EPERM);
	}
	return fd;
}

/* The maker's answer: 0, or -1 with why. */
static int maker_answer(char *why, size_t whysz)
{
	int32_t v = EIO;
	struct pollfd pf = {maker_fd, POLLIN, 0};
	int n;
	while ((n = poll(&pf, 1, MAKER_MS)) < 0 && errno == EINTR)
		;
	if (n == 0)
		return fail(why, whysz, "the user namespace's maker did not answer", ETIMEDOUT);
	if (n < 0 || recv(maker_fd, &v, sizeof v, MSG_DONTWAIT) != (ssize_t)sizeof v)
		return fail(why, whysz, "the user namespace's maker", n < 0 ? errno : EIO);
	if (v != 0)
		return fail(why, whysz, "unshare(CLONE_NEWUSER) and its maps", v > 0 ? v : EIO);
	return 0;
}

int userns_enter(char *why, size_t whysz)
{
	if (maker_fd < 0)
		return fail(why, whysz, "the user namespace's maker", ECHILD);
	int r = maker_answer(why, whysz);
	int fd = r == 0 ? checked_namespace(maker_pid, why, whysz) : -1;
	if (fd >= 0) {
		r = setns(fd, CLONE_NEWUSER);
		if (r < 0)
			fail(why, whysz, "setns(CLONE_NEWUSER)", errno);
		close(fd);
	} else {
		r = -1;
	}
	int e = errno;
	/*
	 * Asked once, it is done: its end of file, and it exits. It is not
	 * waited for here (that would cost the spawn its exit): the reaper
	 * reaps it with the rest, and a fork of the helper that asked (the
	 * check's probe), whose child it is not, leaves it to the helper's
	 * userns_release(), which still holds its own end.
	 */
	close(maker_fd);
	maker_fd = -1;
	maker_pid = -1;
	errno = e;
	return r;
}
