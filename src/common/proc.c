/* SPDX-License-Identifier: ISC */
/* proc.c - see proc.h. */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Field `want` (3 or more) of /proc/PID/stat, as a number; -1 when it cannot be read. */
static int stat_field(pid_t pid, int want, unsigned long long *out)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name may hold spaces and ')': fields start after the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++; /* at the space before field 3 */
	for (int field = 3; field < want && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || !p[1])
		return -1;
	char *end;
	*out = strtoull(p + 1, &end, 10);
	return end == p + 1 ? -1 : 0;
}

unsigned long long process_start_time(pid_t pid)
{
	unsigned long long v;
	return stat_field(pid, 22, &v) == 0 ? v : 0;
}

pid_t process_parent(pid_t pid)
{
	unsigned long long v;
	return stat_field(pid, 4, &v) == 0 ? (pid_t)v : -1;
}

int process_pidfd(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

/* The pid a pidfd names, from our own fdinfo (never hidden): -1 once it has exited, 0 unknown. */
static pid_t pidfd_pid(int fd)
{
	char path[64], buf[2048];
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	int f = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = f < 0 ? -1 : read(f, buf, sizeof buf - 1);
	if (f >= 0)
		close(f);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *p = strstr(buf, "\nPid:");
	return p ? (pid_t)strtol(p + 6, NULL, 10) : 0;
}

int process_pidfd_of_peer(int sock, pid_t pid, unsigned long long start)
{
	int fd = -1;
	socklen_t len = sizeof fd;
	if (sock >= 0 && getsockopt(sock, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0 && fd >= 0) {
		pid_t named = pidfd_pid(fd);
		if (named == pid)
			return fd;
		close(fd);
		if (named == -1) {
			errno = ESRCH;
			return -1;
		}
		/* Another peer (not the supervisor's own socketpair): judged by pid below. */
	}
	fd = process_pidfd(pid);
	if (fd < 0)
		return -1;
	unsigned long long seen = start ? process_start_time(pid) : 0;
	if (seen == start) /* 0: no start recorded, nothing to compare */
		return fd;
	/*
	 * No stat but alive (its pidfd is not readable): /proc hides it
	 * (hidepid), and what runs with this pid cannot be told.
	 */
	struct pollfd pf = {fd, POLLIN, 0};
	int hidden = seen == 0 && poll(&pf, 1, 0) == 0;
	close(fd);
	errno = hidden ? EACCES : ESRCH;
	return -1;
}

int child_has_ended(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return -1;
	return si.si_pid == pid;
}

void kill_group_else_leader(pid_t leader, int sig)
{
	if (kill(-leader, sig) < 0 && errno == ESRCH)
		(void)kill(leader, sig);
}

long long monotonic_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int block_relayed_signals(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGQUIT);
	return sigprocmask(SIG_BLOCK, set, old);
}

const char *signal_name(int sig, char *buf, size_t bufsz)
{
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(buf, bufsz, "SIG%s", abbrev);
	else
		snprintf(buf, bufsz, "%d", sig);
	return buf;
}

/* The NSpid entries of /proc/PID/status (PID 0: self), up to max; how many, or -1. */
static int ns_pids(pid_t pid, pid_t *out, int max)
{
	char path[64], line[512];
	if (pid)
		snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof path, "/proc/self/status");
	FILE *f = fopen(path, "re");
	int n = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		n = 0;
		for (char *p = line + 6, *end; n < max; p = end) {
			long v = strtol(p, &end, 10);
			if (end == p)
				break;
			out[n++] = (pid_t)v;
		}
		break;
	}
	fclose(f);
	return n;
}

int pid_ns_level(void)
{
	pid_t ids[33];
	int n = ns_pids(0, ids, 33);
	return n > 0 ? n - 1 : -1;
}

pid_t pid_at_level(pid_t root, int level, pid_t pid)
{
	pid_t queue[4096];
	size_t head = 0, tail = 0;
	if (level < 0 || level > 32 || pid <= 0)
		return 0;
	/* The same namespace: the number is this /proc's, whether or not it still runs. */
	if (level == 0)
		return pid;
	queue[tail++] = root;
	while (head < tail) {
		pid_t p = queue[head++], ids[33];
		int n = ns_pids(p, ids, 33);
		if (n > level && ids[level] == pid)
			return p;
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/task", (int)p);
		DIR *d = opendir(path);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char kids[320];
			snprintf(kids, sizeof kids, "/proc/%d/task/%s/children", (int)p, e->d_name);
			FILE *f = fopen(kids, "re");
			char word[32];
			while (f && tail < sizeof queue / sizeof queue[0] && fscanf(f, "%31s", word) == 1) {
				char *end;
				long v = strtol(word, &end, 10);
				if (*end == '\0' && v > 0)
					queue[tail++] = (pid_t)v;
			}
			if (f)
				fclose(f);
		}
		if (d)
			closedir(d);
	}
	return 0;
}

const char *descriptor_limit_words(int errnum, char *buf, size_t size)
{
	struct rlimit rl;
	if (size == 0)
		return "";
	buf[0] = '\0';
	if (errnum == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		snprintf(buf, size,
			 " (this process has as many descriptors open as its limit, "
			 "RLIMIT_NOFILE %llu, allows: raise it, or start fewer at once)",
			 (unsigned long long)rl.rlim_cur);
	else if (errnum == ENFILE)
		snprintf(buf, size, " (the system's table of open files is full: fs.file-max)");
	return buf;
}

void say_dup_high_failed(const char *prefix, int errnum)
{
	int e = errnum == EINVAL ? EMFILE : errnum;
	char words[256];
	fprintf(stderr, "%s: %s%s\n", prefix,
		e == EMFILE ? "no descriptor free from 10 on" : strerror(e),
		descriptor_limit_words(e, words, sizeof words));
}
