/* SPDX-License-Identifier: ISC */
/* pidns.c - see pidns.h. */
#include "pidns.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

/* How often a terminating init looks whether anything is left. */
#define POLL_MS 20

/* Every disposition back to SIG_DFL, every signal but SIGCHLD unblocked; *chld: {SIGCHLD}. */
static void init_signals(sigset_t *chld)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	/* Some numbers are libc's own or cannot be changed: their errors do not matter. */
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);
	sigemptyset(chld);
	sigaddset(chld, SIGCHLD);
	sigprocmask(SIG_SETMASK, chld, NULL);
}

/* Nothing of the owner's but fd: not the agent's stdio, not the spawn channel. */
static void init_descriptors(int keep)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; fd < 3 && null >= 0; fd++)
		if (fd != null)
			dup2(null, fd);
	if (keep > 3)
		close_range(3, (unsigned int)keep - 1, 0);
	close_range((unsigned int)keep + 1, ~0U, 0);
}

/*
 * The processes inside but this one, as the namespace's own /proc lists
 * them, less zombies (what is left of the run is what still runs).
 */
static unsigned long init_count(void)
{
	DIR *d = opendir("/proc");
	unsigned long n = 0;
	struct dirent *e;
	if (!d)
		return 0xffffffffUL;
	while ((e = readdir(d))) {
		char *end, path[64], stat[512];
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 1)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len = fd < 0 ? -1 : read(fd, stat, sizeof stat - 1);
		if (fd >= 0)
			close(fd);
		if (len <= 0)
			continue; /* gone since the listing */
		stat[len] = '\0';
		const char *paren = strrchr(stat, ')');
		if (!paren || paren[1] != ' ' || paren[2] != 'Z')
			n++;
	}
	closedir(d);
	return n;
}

/* The run's credential gate (PIDNS_GATE): -1 each while there is none. */
struct gate {
	int listener; /* kept, bound, until this init exits: its name is never free to take */
	int out;      /* to the library; -1 once it is gone or the run ends */
	uid_t uid;    /* the run's user, as this init's user namespace names it */
};

/* One line to a requester that is not passed on, never waiting; then it is closed. */
static void gate_refuse(int conn, const char *line)
{
	(void)!send(conn, line, strlen(line), MSG_NOSIGNAL | MSG_DONTWAIT);
	close(conn);
}

/*
 * One connection to the gate. The kernel gives the peer's pid as this
 * namespace names it, 0 for a process outside: only a process of the run,
 * of the run's user, is passed to the library (kind 'C', with the
 * connection); anyone else is refused here, at once, and the library is
 * told (kind 'O' outside the namespace, 'U' another user) so that it
 * records it. Nothing waits: a library that does not keep up has that one
 * request refused, and the gate stays; the listener stays bound whatever
 * happens, so that no one else can take its name while the run lives.
 */
static void gate_accept(struct gate *g)
{
	struct sockaddr_un peer;
	socklen_t plen = sizeof peer;
	int conn = accept4(g->listener, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0)
		return; /* EAGAIN, EINTR, ECONNABORTED: nothing to pass on */
	if (g->out < 0) {
		gate_refuse(conn, "error the run is ending\n");
		return;
	}
	struct ucred uc;
	socklen_t len = sizeof uc;
	int known = getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 && len == sizeof uc;
	unsigned long pid = known && uc.pid > 0 ? (unsigned long)uc.pid : 0;
	unsigned long uid = known ? (unsigned long)uc.uid : 0xffffffffUL;
	unsigned char kind = !known || uc.uid != g->uid ? (unsigned char)'U'
			     : pid == 0			  ? (unsigned char)'O'
							  : (unsigned char)'C';
	unsigned char b[9] = {kind,
			      (unsigned char)(pid >> 24), (unsigned char)(pid >> 16),
			      (unsigned char)(pid >> 8), (unsigned char)pid,
			      (unsigned char)(uid >> 24), (unsigned char)(uid >> 16),
			      (unsigned char)(uid >> 8), (unsigned char)uid};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	memset(&u, 0, sizeof u);
	struct iovec iov = {b, sizeof b};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	if (kind == 'C') {
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof u.buf;
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
		if (!cm) { /* never: the buffer is one header's */
			close(conn);
			return;
		}
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &conn, sizeof conn);
	}
	ssize_t w = sendmsg(g->out, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
		close(g->out); /* the library is gone */
		g->out = -1;
	}
	if (kind != 'C')
		gate_refuse(conn, kind == 'O' ? "error refused: this process is not one of the "
						"run's (it is outside the run's PID namespace)\n"
					      : "error refused: this process is not one of the "
						"run's\n");
	else if (w != (ssize_t)sizeof b)
		gate_refuse(conn, "error busy: the run's credentials are answering others; try "
				  "again\n");
	else
		close(conn); /* the library's now */
}

/* PIDNS_GATE's two descriptors; anything else that came with a command is closed. */
static int take_gate(struct msghdr *mh, struct gate *g, int want)
{
	int fds[2], n = 0, bad = 0;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
			if (n < 2)
				fds[n++] = fd;
			else
				close(fd), bad = 1;
		}
	}
	if (!want || bad || n != 2 || (mh->msg_flags & MSG_CTRUNC) || g->listener >= 0) {
		for (int i = 0; i < n; i++)
			close(fds[i]);
		return want ? -1 : 0;
	}
	g->listener = fds[0];
	g->out = fds[1];
	return 0;
}

/* One command from the owner: 0 to go on, -1 to end the namespace. */
static int init_command(int ctl, long long *deadline, int *proc_mounted, struct gate *gate)
{
	unsigned char c, g[4];
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = {&c, 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof u.buf};
	if (recvmsg(ctl, &mh, MSG_CMSG_CLOEXEC) != 1)
		return -1; /* the owner is gone, or says nothing we know */
	if (take_gate(&mh, gate, c == PIDNS_GATE) < 0)
		return -1;
	if (c == PIDNS_GATE) {
		if (recv(ctl, g, 4, MSG_WAITALL) != 4)
			return -1;
		gate->uid = (uid_t)((unsigned int)g[0] << 24 | (unsigned int)g[1] << 16 |
				    (unsigned int)g[2] << 8 | g[3]);
		return 0;
	}
	if (c == PIDNS_COUNT) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		unsigned long n = *proc_mounted ? init_count() : 0xffffffffUL;
		unsigned char b[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
				      (unsigned char)(n >> 8), (unsigned char)n};
		return send(ctl, b, 4, MSG_NOSIGNAL | MSG_DONTWAIT) == 4 ? 0 : -1;
	}
	if (c == PIDNS_PROC) {
		int r = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
		unsigned char e = r == 0 ? 0 : (unsigned char)(errno > 0 && errno < 256 ? errno : 255);
		*proc_mounted = r == 0;
		/*
		 * Never waits: an owner that asks without reading its answers
		 * is not the helper, and the namespace ends rather than the
		 * init blocking with it alive.
		 */
		return send(ctl, &e, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1 ? 0 : -1;
	}
	if (c != PIDNS_TERM || recv(ctl, g, 4, MSG_WAITALL) != 4)
		return -1;
	/* The run is ending: a request from now on is refused (the name stays taken). */
	if (gate->out >= 0)
		close(gate->out);
	gate->out = -1;
	/* SIGCONT too: a stopped process must be able to act on its SIGTERM. */
	kill(-1, SIGTERM);
	kill(-1, SIGCONT);
	unsigned int grace = (unsigned int)g[0] << 24 | (unsigned int)g[1] << 16 |
			     (unsigned int)g[2] << 8 | g[3];
	if (*deadline < 0)
		*deadline = monotonic_ms() + 1000LL * grace;
	return 0;
}

_Noreturn void pidns_init(int ctl)
{
	sigset_t chld;
	/* First: should the owner already be gone, ctl reads end of file below. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || prctl(PR_SET_DUMPABLE, 0) < 0)
		_exit(1);
	init_signals(&chld);
	init_descriptors(ctl);
	/* Pin no directory of the owner's (ruas-session's is the supervisor's). */
	if (chdir("/") < 0)
		_exit(1);
	int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		_exit(1); /* failing closed: the namespace ends with us */
	long long deadline = -1;
	int proc_mounted = 0;
	struct gate gate = {-1, -1, 0};
	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		/* kill(-1) reaches every process inside but this one; ESRCH: none is left. */
		if (deadline >= 0 &&
		    ((kill(-1, 0) < 0 && errno == ESRCH) || monotonic_ms() >= deadline))
			_exit(0);
		struct pollfd pf[3] = {{ctl, POLLIN, 0}, {sfd, POLLIN, 0}, {gate.listener, POLLIN, 0}};
		if (poll(pf, gate.listener >= 0 ? 3 : 2, deadline < 0 ? -1 : POLL_MS) < 0 &&
		    errno != EINTR)
			_exit(1);
		if (gate.listener >= 0 && (pf[2].revents & POLLIN))
			gate_accept(&gate);
		if (pf[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
				;
		}
		if (pf[0].revents && init_command(ctl, &deadline, &proc_mounted, &gate) < 0)
			_exit(0);
	}
}

static int send_cmd(int ctl, const unsigned char *b, size_t n)
{
	ssize_t w;
	while ((w = send(ctl, b, n, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (w == (ssize_t)n)
		return 0;
	if (w >= 0)
		errno = EPIPE;
	return -1;
}

int pidns_mount_proc(int ctl, int *err)
{
	unsigned char c = PIDNS_PROC, e;
	ssize_t r;
	if (send_cmd(ctl, &c, 1) < 0)
		return -1;
	while ((r = recv(ctl, &e, 1, MSG_WAITALL)) < 0 && errno == EINTR)
		;
	if (r != 1) {
		if (r == 0)
			errno = EPIPE;
		return -1;
	}
	*err = e;
	return 0;
}

int pidns_terminate(int ctl, unsigned int grace_seconds)
{
	unsigned char b[5] = {PIDNS_TERM, (unsigned char)(grace_seconds >> 24),
			      (unsigned char)(grace_seconds >> 16), (unsigned char)(grace_seconds >> 8),
			      (unsigned char)grace_seconds};
	return send_cmd(ctl, b, sizeof b);
}

long pidns_count(int ctl)
{
	unsigned char c = PIDNS_COUNT, b[4];
	ssize_t r;
	if (send_cmd(ctl, &c, 1) < 0)
		return -1;
	while ((r = recv(ctl, b, 4, MSG_WAITALL)) < 0 && errno == EINTR)
		;
	if (r != 4) {
		if (r >= 0)
			errno = EPIPE;
		return -1;
	}
	unsigned long n = (unsigned long)b[0] << 24 | (unsigned long)b[1] << 16 |
			  (unsigned long)b[2] << 8 | b[3];
	if (n == 0xffffffffUL) {
		errno = ENOENT;
		return -1;
	}
	return (long)n;
}

int pidns_gate(int ctl, int listener, int gate, uid_t uid)
{
	unsigned char c = PIDNS_GATE;
	int fds[2] = {listener, gate};
	union {
		char buf[CMSG_SPACE(sizeof fds)];
		struct cmsghdr align;
	} u;
	memset(&u, 0, sizeof u);
	struct iovec iov = {&c, 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof u.buf};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	if (!cm) { /* never: the buffer is one header's */
		errno = EINVAL;
		return -1;
	}
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof fds);
	memcpy(CMSG_DATA(cm), fds, sizeof fds);
	ssize_t w;
	while ((w = sendmsg(ctl, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (w == 1) {
		unsigned char b[4] = {(unsigned char)(uid >> 24), (unsigned char)(uid >> 16),
				      (unsigned char)(uid >> 8), (unsigned char)uid};
		return send_cmd(ctl, b, sizeof b);
	}
	if (w >= 0)
		errno = EPIPE;
	return -1;
}

int pidns_kill(int ctl)
{
	unsigned char c = PIDNS_KILL;
	return send_cmd(ctl, &c, 1);
}

/*
 * In the fresh mount namespace: every mount below / becomes a slave, so
 * that the namespace's own /proc never propagates back to the host.
 */
static int pidns_slave_mounts(void)
{
	return mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL);
}

static int failed(char *why, size_t whysz, const char *step, int e, int result)
{
	snprintf(why, whysz, "%s: %s", step, strerror(e));
	errno = e;
	return result;
}

int pidns_start(pidns_userns_fn userns, int *ctl, char *why, size_t whysz)
{
	int sv[2];
	const char *step = "";
	*ctl = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return failed(why, whysz, "socketpair", errno, PIDNS_UNAVAILABLE);
	/* A caller without privilege first joins a user namespace where it has some. */
	if (userns && userns(why, whysz) < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		errno = e;
		return PIDNS_UNAVAILABLE;
	}
	if (unshare(CLONE_NEWPID | CLONE_NEWNS) < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		/* In a user namespace now, with no way back: not fit to run an agent. */
		return failed(why, whysz, "unshare(CLONE_NEWPID | CLONE_NEWNS)", e,
			      userns ? PIDNS_BROKEN : PIDNS_UNAVAILABLE);
	}
	/* From here on this process is inside: a failure leaves it unfit to run an agent. */
	step = "mount --make-rslave /";
	int r = pidns_slave_mounts();
	if (r == 0) {
		step = "fork";
		pid_t pid = fork();
		if (pid == 0) {
			close(sv[0]);
			pidns_init(sv[1]);
		}
		r = pid < 0 ? -1 : 0;
	}
	int e = errno;
	close(sv[1]);
	if (r < 0) {
		close(sv[0]);
		return failed(why, whysz, step, e, PIDNS_BROKEN);
	}
	*ctl = sv[0];
	return PIDNS_OK;
}

const char *pidns_failure(int got)
{
	return got == PIDNS_UNAVAILABLE
		       ? "lifetime = \"pidns\", but the agent's PID namespace cannot be made"
		       : "the agent's PID namespace could not be set up";
}

/* In the probe's child: the whole start, /proc, the end; the verdict to fd. */
_Noreturn static void probe_child(pidns_userns_fn userns, int fd)
{
	char why[256] = "";
	int ctl, err = 0, e = 0;
	/* Its descriptors are the caller's (a userns hook may need one): it exits soon, execs nothing. */
	if (pidns_start(userns, &ctl, why, sizeof why) != PIDNS_OK) {
		e = errno ? errno : EINVAL;
	} else {
		if (pidns_mount_proc(ctl, &err) < 0)
			err = errno;
		if (err)
			snprintf(why, sizeof why, "mount -t proc: %s (the agent sees the host's /proc)",
				 strerror(err));
		pidns_kill(ctl);
		while (wait(NULL) > 0 || errno == EINTR)
			;
	}
	if (write(fd, &e, sizeof e) == (ssize_t)sizeof e)
		(void)!write(fd, why, strlen(why));
	_exit(0);
}

int pidns_probe(pidns_userns_fn userns, char *why, size_t whysz)
{
	int p[2];
	*why = '\0';
	if (pipe2(p, O_CLOEXEC) < 0)
		return failed(why, whysz, "pipe", errno, errno);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		probe_child(userns, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		return failed(why, whysz, "fork", e, e);
	}
	int e = EIO;
	char buf[256];
	ssize_t n = read(p[0], &e, sizeof e);
	ssize_t m = n == (ssize_t)sizeof e ? read(p[0], buf, sizeof buf - 1) : 0;
	close(p[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof e)
		return failed(why, whysz, "the probe", EIO, EIO);
	buf[m > 0 ? m : 0] = '\0';
	snprintf(why, whysz, "%s", buf);
	return e;
}
