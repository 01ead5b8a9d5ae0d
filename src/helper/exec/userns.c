/* userns.c - see userns.h. */
#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

/* How long the throwaway process may take to make the namespace. */
#define MAKER_MS 10000

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

_Noreturn void userns_maker(int fd)
{
	char line[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int e = 0;
	/* Dies with the helper; dumpable, to write its own maps: it holds nothing else. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || prctl(PR_SET_DUMPABLE, 1) < 0 ||
	    unshare(CLONE_NEWUSER) < 0 || write_proc_self("setgroups", "deny") < 0)
		e = errno;
	snprintf(line, sizeof line, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (!e && write_proc_self("uid_map", line) < 0)
		e = errno;
	snprintf(line, sizeof line, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (!e && write_proc_self("gid_map", line) < 0)
		e = errno;
	int32_t v = e ? e : 0;
	if (send(fd, &v, sizeof v, MSG_NOSIGNAL) == (ssize_t)sizeof v && !e) {
		char c;
		/* Until the helper has joined: its end of file. */
		while (read(fd, &c, 1) > 0 || errno == EINTR)
			;
	}
	_exit(e ? 1 : 0);
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

/* A map of exactly one line, `id id 1`, for this id. */
static int map_is_self(pid_t pid, const char *name, unsigned long id)
{
	char buf[256], tail;
	unsigned long in, out, count;
	return read_proc(pid, name, buf, sizeof buf) > 0 &&
	       sscanf(buf, "%lu %lu %lu%c", &in, &out, &count, &tail) == 4 && tail == '\n' &&
	       buf[strlen(buf) - 1] == '\n' && strchr(buf, '\n') == buf + strlen(buf) - 1 &&
	       in == id && out == id && count == 1;
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

/* The throwaway process, started on sock as descriptor 3. Its pid, or -1. */
static pid_t start_maker(int sock)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(sock, 3) < 0)
		_exit(127);
	for (int i = 0; i < 3; i++)
		dup2(null, i);
	close_range(4, ~0U, 0);
	char *argv[] = {"ruas-exec", "--userns-fd", "3", NULL};
	char *envp[] = {NULL};
	/* This very program, a fresh image: nothing of the helper's memory is in it. */
	execve("/proc/self/exe", argv, envp);
	_exit(127);
}

/* The maker's answer on sock: 0, or -1 with why. */
static int maker_answer(int sock, pid_t pid, char *why, size_t whysz)
{
	int32_t v = EIO;
	struct pollfd pf = {sock, POLLIN, 0};
	int n;
	while ((n = poll(&pf, 1, MAKER_MS)) < 0 && errno == EINTR)
		;
	if (n == 0)
		return fail(why, whysz, "the user namespace's maker did not answer", ETIMEDOUT);
	if (n < 0 || recv(sock, &v, sizeof v, MSG_DONTWAIT) != (ssize_t)sizeof v)
		return fail(why, whysz, "the user namespace's maker", n < 0 ? errno : EIO);
	if (v != 0)
		return fail(why, whysz, "unshare(CLONE_NEWUSER) and its maps", v > 0 ? v : EIO);
	(void)pid;
	return 0;
}

int userns_enter(char *why, size_t whysz)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return fail(why, whysz, "socketpair", errno);
	pid_t pid = start_maker(sv[1]);
	int e = errno;
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return fail(why, whysz, "fork", e);
	}
	int r = maker_answer(sv[0], pid, why, whysz);
	int fd = r == 0 ? checked_namespace(pid, why, whysz) : -1;
	if (fd >= 0) {
		r = setns(fd, CLONE_NEWUSER);
		if (r < 0)
			fail(why, whysz, "setns(CLONE_NEWUSER)", errno);
		close(fd);
	} else {
		r = -1;
	}
	e = errno;
	/* Its end of file: the maker exits. */
	close(sv[0]);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	errno = e;
	return r;
}
