/* reaper.c - see reaper.h. */
#include "reaper.h"
#include "exit_status.h"

#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static int pidfd_open_(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/*
 * Signals every descendant of this process. Orphans come back to us (we are
 * a subreaper), so the descendants are the processes whose parent chain
 * reaches us. Returns how many were signalled.
 */
static int signal_tree(int sig)
{
	pid_t self = getpid();
	size_t cap = 256, n = 0;
	pid_t *pids = malloc(cap * sizeof *pids), *ppids = malloc(cap * sizeof *ppids);
	DIR *d = opendir("/proc");
	int count = 0;
	if (!pids || !ppids || !d)
		goto out;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long v = strtol(e->d_name, &end, 10);
		if (*end || v <= 0)
			continue;
		if (n == cap) {
			cap *= 2;
			pid_t *a = realloc(pids, cap * sizeof *a);
			if (a)
				pids = a;
			pid_t *b = realloc(ppids, cap * sizeof *b);
			if (b)
				ppids = b;
			if (!a || !b)
				goto out;
		}
		pids[n] = (pid_t)v;
		ppids[n] = process_parent((pid_t)v);
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		pid_t p = ppids[i];
		for (int depth = 0; p > 1 && depth < 4096; depth++) {
			if (p == self) {
				if (kill(pids[i], sig) == 0)
					count++;
				break;
			}
			size_t j = 0;
			while (j < n && pids[j] != p)
				j++;
			p = j < n ? ppids[j] : -1;
		}
	}
out:
	if (d)
		closedir(d);
	free(pids);
	free(ppids);
	return count;
}

int reaper_run(char **argv, const struct reaper_options *o)
{
	sigset_t set, old;
	int sup_fd = -1, par_fd = -1, sfd = -1;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror("ruas-exec: PR_SET_CHILD_SUBREAPER");
		return EXIT_HELPER;
	}
	if (o->supervisor > 0) {
		sup_fd = pidfd_open_(o->supervisor);
		if (sup_fd < 0 || (o->supervisor_start &&
				   process_start_time(o->supervisor) != o->supervisor_start)) {
			fputs("ruas-exec: the supervisor is gone; not starting the agent\n", stderr);
			return EXIT_HELPER;
		}
	}
	par_fd = pidfd_open_(getppid());

	if (block_relayed_signals(&set, &old) < 0) {
		perror("ruas-exec: sigprocmask");
		return EXIT_HELPER;
	}
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		perror("ruas-exec: signalfd");
		return EXIT_HELPER;
	}

	pid_t agent = fork();
	if (agent < 0) {
		perror("ruas-exec: fork");
		return EXIT_HELPER;
	}
	if (agent == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		setsid();
		execvp(argv[0], argv);
		int e = errno;
		fprintf(stderr, "ruas-exec: cannot run \"%s\": %s\n", argv[0], strerror(e));
		_exit(e == ENOENT ? 127 : 126);
	}

	int agent_status = -1, terminating = 0;
	long long kill_at = 0;
	for (;;) {
		int st;
		pid_t w;
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == agent)
				agent_status = st;
		int no_children = w < 0 && errno == ECHILD;
		if (agent_status != -1 && no_children)
			break;
		/* The agent is done: nothing it started may outlive it. */
		if (agent_status != -1 && !terminating) {
			terminating = 1;
			signal_tree(SIGTERM);
			kill_at = monotonic_ms() + 1000LL * o->grace_seconds;
		}
		if (terminating && monotonic_ms() >= kill_at) {
			signal_tree(SIGKILL);
			kill_at = monotonic_ms() + 200;
		}
		struct pollfd pf[3] = {{sfd, POLLIN, 0}, {sup_fd, POLLIN, 0}, {par_fd, POLLIN, 0}};
		long long left = terminating ? kill_at - monotonic_ms() : -1;
		int timeout = terminating ? (left < 0 ? 0 : left > 1000 ? 1000 : (int)left) : -1;
		if (poll(pf, 3, timeout) < 0 && errno != EINTR)
			break;
		int stop = 0;
		if (pf[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof si) == sizeof si)
				if (si.ssi_signo != SIGCHLD)
					stop = 1;
		}
		if ((pf[1].revents | pf[2].revents) & (POLLIN | POLLHUP)) {
			stop = 1;
			/* Level-triggered: stop watching once seen. */
			if (pf[1].revents) {
				close(sup_fd);
				sup_fd = -1;
			}
			if (pf[2].revents) {
				close(par_fd);
				par_fd = -1;
			}
		}
		if (stop && !terminating) {
			terminating = 1;
			signal_tree(SIGTERM);
			kill_at = monotonic_ms() + 1000LL * o->grace_seconds;
		}
	}
	if (sup_fd >= 0)
		close(sup_fd);
	if (par_fd >= 0)
		close(par_fd);
	close(sfd);
	return exit_status_code(agent_status);
}
