/* SPDX-License-Identifier: ISC */
/*
 * stall_end.c - see stall_end.h. A pid's descendants are found by their
 * parent on /proc, which only holds while each parent lives: so each is
 * held by a pidfd and stopped as soon as it is found, before anything is
 * killed, and the walk repeats until it finds nothing new. A pidfd opened
 * after the pid was read could name a new process of that number: its
 * parent is read again once it is held, and only a match is kept. What
 * escaped by a double fork before the stop is not found; PAM modules wait
 * for their children, so a stalled stack's own are there.
 */
#include "spawn/stall_end.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

#define STALL_MAX 256 /* descendants followed at most */

struct held {
	pid_t pid;
	int pidfd; /* -1 where the kernel has none: then the pid, as kill(2) does */
};

static int signal_held(const struct held *h, int sig)
{
	if (h->pidfd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, h->pidfd, sig, NULL, 0);
	return kill(h->pid, sig);
}

static int known(const struct held *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return 1;
	return 0;
}

/* The real uid of pid (Uid: in its status), or (uid_t)-1. */
static uid_t real_uid(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	uid_t u = (uid_t)-1;
	if (!f)
		return u;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "Uid:", 4) == 0) {
			char *end;
			unsigned long v = strtoul(line + 4, &end, 10);
			if (end != line + 4)
				u = (uid_t)v;
			break;
		}
	fclose(f);
	return u;
}

/* One walk of /proc: children of v[0..*n) not yet in v, held, stopped, added. 1: found some. */
static int walk(struct held *v, size_t *n, uid_t target, struct stall *st)
{
	DIR *d = opendir("/proc");
	if (!d) {
		st->unseen = 1;
		return 0;
	}
	int found = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);
		pid_t parent = process_parent(pid);
		if (pid <= 1 || parent <= 0 || !known(v, *n, parent) || known(v, *n, pid))
			continue;
		if (*n == STALL_MAX) {
			st->unseen = 1;
			break;
		}
		struct held h = {pid, process_pidfd(pid)};
		if (h.pidfd >= 0 && process_parent(pid) != parent) {
			close(h.pidfd); /* the number is another process's by now */
			continue;
		}
		if (real_uid(pid) == target)
			st->target_ran = 1;
		(void)signal_held(&h, SIGSTOP);
		v[(*n)++] = h;
		found = 1;
	}
	closedir(d);
	return found;
}

/* How long what was killed may take to be gone (a kill ends it at once; the bound is for a stuck kernel). */
#define KILLED_GONE_MS 5000

/*
 * Whether every held process with a pidfd has ended (its pidfd readable:
 * exited, a zombie at most) within ms; those without one are not waited
 * for, as a number cannot say whether it is still the same process.
 */
static int gone_within(const struct held *v, size_t n, int ms)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < n; i++) {
		if (v[i].pidfd < 0)
			continue;
		struct pollfd p = {v[i].pidfd, POLLIN, 0};
		int r;
		do {
			struct timespec t;
			clock_gettime(CLOCK_MONOTONIC, &t);
			long left = ms - ((t.tv_sec - t0.tv_sec) * 1000L +
					  (t.tv_nsec - t0.tv_nsec) / 1000000L);
			r = poll(&p, 1, left > 0 ? (int)left : 0);
		} while (r < 0 && errno == EINTR);
		if (r <= 0)
			return 0;
	}
	return 1;
}

/*
 * Where the helper had started, sudo or ruas-session only waits for it:
 * let go, with its helper gone it closes its PAM session itself (which a
 * kill would skip, leaving root's side of it) and ends. 1: it has ended
 * (not reaped) within 5 s.
 */
static int ends_by_itself(pid_t pid)
{
	(void)kill(pid, SIGCONT);
	for (int ms = 0; ms < 5000; ms += 20) {
		siginfo_t si;
		si.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid)
			return 1;
		struct timespec ts = {0, 20 * 1000000L};
		nanosleep(&ts, NULL);
	}
	return 0;
}

void stall_end(pid_t pid, uid_t target, struct stall *st)
{
	struct held v[STALL_MAX];
	size_t n = 1;
	st->denied = st->target_ran = st->unseen = st->kept = 0;
	/* pid is our unreaped child: its number cannot be another's. */
	v[0].pid = pid;
	v[0].pidfd = -1;
	(void)kill(pid, SIGSTOP);
	int pass = 0;
	while (walk(v, &n, target, st) && ++pass < 16)
		;
	if (pass == 16)
		st->unseen = 1;
	for (size_t i = n; i-- > 1;)
		if (signal_held(&v[i], SIGKILL) < 0) {
			if (errno == EPERM)
				st->denied++;
			if (v[i].pidfd >= 0)
				close(v[i].pidfd);
			v[i].pidfd = -1;
		}
	/* Ended means gone by the time the spawn says so, not a SIGKILL on its way. */
	if (!gone_within(v + 1, n - 1, KILLED_GONE_MS))
		st->unseen = 1;
	for (size_t i = n; i-- > 1;)
		if (v[i].pidfd >= 0)
			close(v[i].pidfd);
	if (st->target_ran && ends_by_itself(pid))
		return;
	if (kill(pid, SIGKILL) < 0) {
		/* Not ours to end after all: let it go on rather than wait on it stopped. */
		(void)kill(pid, SIGCONT);
		st->kept = 1;
	}
}
