/* SPDX-License-Identifier: ISC */
/* clone_into.c - see clone_into.h. */
#include "spawn/clone_into.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Every descriptor from `from` up, by close_range() (Linux 5.9). Without
 * it (5.7 and 5.8, or a seccomp filter) the start fails: a loop up to the
 * descriptor limit would miss those above a lowered one, and /proc cannot
 * be read here (opendir allocates). Async-signal-safe.
 */
static int close_all_from(unsigned int from)
{
	return syscall(SYS_close_range, from, ~0U, 0) == 0 ? 0 : -1;
}

/*
 * The child, between clone3() and exec: only async-signal-safe calls (the
 * parent may have other threads holding any lock). Writes its errno to
 * *fail, which the parent shares, and never returns.
 */
static _Noreturn void child(const char *path, char *const argv[], char *const envp[],
			    const struct clone_plan *plan, volatile int *fail)
{
	sigset_t none;
	sigemptyset(&none);
	/*
	 * CLONE_CLEAR_SIGHAND reset the handlers, but a signal the caller
	 * ignores stays ignored: every disposition back to the default, as
	 * posix_spawn's POSIX_SPAWN_SETSIGDEF does (glibc's own signals
	 * refuse, which is fine).
	 */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sigaction(sig, &dfl, NULL) < 0 &&
		    errno != EINVAL)
			goto out;
	if (plan->new_session && setsid() < 0)
		goto out;
	for (size_t i = 0; i < plan->nmoves; i++) {
		if (plan->from[i] == plan->to[i]) {
			if (fcntl(plan->to[i], F_SETFD, 0) < 0)
				goto out;
		} else if (dup2(plan->from[i], plan->to[i]) < 0) {
			goto out;
		}
	}
	if (plan->null_stdin) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd < 0 || (fd != 0 && (dup2(fd, 0) < 0 || close(fd) < 0)))
			goto out;
	}
	if (close_all_from((unsigned int)plan->close_from) < 0)
		goto out;
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		goto out;
	execve(path, argv, envp);
out:
	*fail = errno ? errno : EINVAL;
	_exit(127);
}

int clone_into_cgroup(pid_t *pid, int *pidfd, int cgroup_fd, const char *path,
		      char *const argv[], char *const envp[], const struct clone_plan *plan)
{
	if (cgroup_fd < 0 || plan->nmoves > CLONE_PLAN_MOVES_MAX || plan->close_from < 3)
		return EINVAL;
	/* Shared with the child (a copy of this process, not of its memory). */
	volatile int *fail = mmap(NULL, sizeof *fail, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fail == MAP_FAILED)
		return errno;
	*fail = 0;
	/*
	 * All signals blocked across the clone, as posix_spawn does: the child
	 * starts with default dispositions and takes none before its exec.
	 */
	sigset_t all, old;
	sigfillset(&all);
	int e = pthread_sigmask(SIG_SETMASK, &all, &old);
	if (e != 0) {
		munmap((void *)fail, sizeof *fail);
		return e;
	}
	struct clone_args ca;
	memset(&ca, 0, sizeof ca);
	int fd = -1;
	ca.flags = CLONE_VFORK | CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP;
	if (pidfd) {
		/* The child's pidfd from the clone itself: no pid can be reused before it. */
		ca.flags |= CLONE_PIDFD;
		ca.pidfd = (uint64_t)(uintptr_t)&fd;
	}
	ca.exit_signal = SIGCHLD;
	ca.cgroup = (uint64_t)cgroup_fd;
	long r = syscall(SYS_clone3, &ca, sizeof ca);
	if (r == 0)
		child(path, argv, envp, plan, fail);
	e = r < 0 ? errno : 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* CLONE_VFORK: the child has exec'd or exited by now. */
	if (r > 0 && *fail) {
		e = *fail;
		int st;
		while (waitpid((pid_t)r, &st, 0) < 0 && errno == EINTR)
			;
		if (fd >= 0)
			close(fd);
	} else if (r > 0) {
		*pid = (pid_t)r;
		if (pidfd) {
			/* The kernel made it close-on-exec, as every descriptor here is. */
			*pidfd = fd;
		}
	}
	munmap((void *)fail, sizeof *fail);
	return e;
}
