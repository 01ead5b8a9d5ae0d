/* SPDX-License-Identifier: ISC */
/* consumer.c - see consumer.h; built with the programs, against the installed library only. */
#define _GNU_SOURCE
#include "consumer.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int failures;

void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("FAIL: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
	failures++;
}

void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

void die(const char *what, ruas_error *err)
{
	fprintf(stderr, "%s: %s\n", what, err ? ruas_error_message(err) : strerror(errno));
	fflush(stdout);
	exit(2);
}

int finish(void)
{
	note("%d failure(s)", failures);
	return failures ? 1 : 0;
}

ruas_config *load_config(const char *path)
{
	ruas_config *cfg;
	ruas_error *err = NULL;
	if (ruas_config_load(&cfg, path, NULL, &err) < 0)
		die("ruas_config_load", err);
	return cfg;
}

long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void pipes_close(struct agent_pipes *p)
{
	int *fds[] = {&p->in, &p->out, &p->err};
	for (size_t i = 0; i < 3; i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

int spawn_piped(ruas_child **c, const ruas_config *cfg, const char *project,
		const char *const *args, const char *const *env, struct agent_pipes *p,
		ruas_error **err)
{
	int in[2], out[2], er[2];
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(er, O_CLOEXEC) < 0)
		die("pipe2", NULL);
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.env = env;
	o.stdin_fd = in[0];
	o.stdout_fd = out[1];
	o.stderr_fd = er[1];
	int r = ruas_spawn(c, cfg, project, args, &o, err);
	close(in[0]);
	close(out[1]);
	close(er[1]);
	p->in = in[1];
	p->out = out[0];
	p->err = er[0];
	if (r < 0)
		pipes_close(p);
	return r;
}

int spawn_quiet(ruas_child **c, const ruas_config *cfg, const char *project, ruas_error **err)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		die("/dev/null", NULL);
	ruas_spawn_options o = RUAS_SPAWN_OPTIONS_INIT;
	o.stdin_fd = o.stdout_fd = o.stderr_fd = null;
	int r = ruas_spawn(c, cfg, project, NULL, &o, err);
	close(null);
	return r;
}

int read_line(int fd, char *buf, size_t size, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	size_t n = 0;
	for (;;) {
		long long left = deadline - now_ms();
		struct pollfd pf = {fd, POLLIN, 0};
		if (left <= 0 || poll(&pf, 1, (int)left) <= 0)
			return -1;
		char ch;
		ssize_t r = read(fd, &ch, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (ch == '\n') {
			buf[n] = '\0';
			return (int)n;
		}
		if (n + 1 < size)
			buf[n++] = ch;
	}
}

void write_all(int fd, const char *s)
{
	size_t len = strlen(s);
	while (len) {
		ssize_t w = write(fd, s, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fail("write to an agent: %s", strerror(errno));
			return;
		}
		s += w;
		len -= (size_t)w;
	}
}

uid_t user_uid(const char *name)
{
	struct passwd *pw = getpwnam(name);
	if (!pw) {
		fprintf(stderr, "no user %s\n", name);
		exit(2);
	}
	return pw->pw_uid;
}

/* A file of /proc/PID into buf (NUL-terminated, NULs inside turned to spaces). */
static int proc_read(const char *pid, const char *what, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%s/%s", pid, what);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return 0;
}

/* Does the process run with uid as its real, effective or saved uid? */
static int runs_as(const char *pid, uid_t uid)
{
	char st[4096];
	if (proc_read(pid, "status", st, sizeof st) < 0)
		return 0;
	const char *u = strstr(st, "\nUid:");
	unsigned long r, e, s;
	if (!u || sscanf(u + 5, "%lu %lu %lu", &r, &e, &s) != 3)
		return 0;
	return r == uid || e == uid || s == uid;
}

/* Calls f for every process of uid; returns how many there were. */
static int each_process_of(uid_t uid, void (*f)(const char *pid, void *arg), void *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	if (!d)
		die("/proc", NULL);
	while ((e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]) && runs_as(e->d_name, uid)) {
			n++;
			if (f)
				f(e->d_name, arg);
		}
	closedir(d);
	return n;
}

int processes_of(uid_t uid)
{
	return each_process_of(uid, NULL, NULL);
}

static void show_one(const char *pid, void *arg)
{
	char cmd[512];
	(void)arg;
	if (proc_read(pid, "cmdline", cmd, sizeof cmd) == 0)
		note("  pid %s: %s", pid, cmd);
}

void show_processes_of(uid_t uid)
{
	each_process_of(uid, show_one, NULL);
}

struct named {
	const char *comm;
	int found;
};
static void match_comm(const char *pid, void *arg)
{
	struct named *w = arg;
	char comm[64];
	if (proc_read(pid, "comm", comm, sizeof comm) == 0) {
		comm[strcspn(comm, "\n")] = '\0';
		if (strcmp(comm, w->comm) == 0)
			w->found = 1;
	}
}

int process_named(uid_t uid, const char *comm)
{
	struct named w = {comm, 0};
	each_process_of(uid, match_comm, &w);
	return w.found;
}

int children(int *zombies)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	*zombies = 0;
	if (!d)
		die("/proc", NULL);
	while ((e = readdir(d))) {
		char st[1024];
		if (!isdigit((unsigned char)e->d_name[0]) ||
		    proc_read(e->d_name, "stat", st, sizeof st) < 0)
			continue;
		/* pid (comm) state ppid ...: comm may hold anything, so from the last ')'. */
		const char *p = strrchr(st, ')');
		char state;
		long ppid;
		if (!p || sscanf(p + 1, " %c %ld", &state, &ppid) != 2 || ppid != (long)getpid())
			continue;
		n++;
		if (state == 'Z')
			(*zombies)++;
	}
	closedir(d);
	return n;
}
