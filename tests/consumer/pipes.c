/* SPDX-License-Identifier: ISC */
/*
 * pipes.c - an outside-style supervisor (issue 13): built against the
 * installed library with `pkg-config --cflags --libs ruas` alone, it drives
 * agents over pipes, as chat bridges drive stream-json agents.
 *
 *   pipes run CONF P1 P2 P3   three agents at once, each an echo agent of
 *       newline-delimited JSON, while a logger thread writes to this
 *       process's stderr (and to a descriptor it leaks without
 *       close-on-exec) the whole time; every reply must come on its own
 *       agent's pipe, nothing of the logger's may reach any agent, the exit
 *       codes must be right, and an epoll loop over the pidfds must see
 *       every end, after which ruas_child_try_wait() reaps.
 *   pipes hold CONF PROJECT RELEASE   runs PROJECT with $SPAWN_PROMPT as
 *       its one argument and this environment (ANTHROPIC_API_KEY among it),
 *       echoes the agent's stdout, and holds it until the file RELEASE
 *       exists (two minutes at most): the window in which
 *       tests/integration/spawn.sh looks for the secret.
 */
#define _GNU_SOURCE
#include "consumer.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#define AGENTS 3
#define ROUNDS 40
#define LOGGER_MARK "supervisor-log"

static atomic_int logger_stop;
static atomic_long logger_lines;
static int leaked_fd = -1;

/* The rest of the program: it logs to stderr, and knows nothing of the agents. */
static void *logger(void *arg)
{
	struct timespec pause = {0, 200000};
	(void)arg;
	while (!atomic_load(&logger_stop)) {
		long n = atomic_fetch_add(&logger_lines, 1);
		fprintf(stderr, LOGGER_MARK " %ld: the logger thread\n", n);
		if (dprintf(leaked_fd, LOGGER_MARK " %ld: through a leaked descriptor\n", n) < 0)
			fail("the logger's leaked descriptor: %s", strerror(errno));
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* What came from one descriptor, with a count of its complete lines. */
struct stream {
	char *data;
	size_t len, cap;
	size_t lines;
	int eof;
};

struct agent {
	const char *project;
	char name[16];
	int code; /* the exit code it is asked for */
	ruas_child *child;
	struct agent_pipes p;
	struct stream out, err;
	int ended;  /* its pidfd was seen readable */
	int got;    /* the exit code the wait gave */
	int signal; /* ruas_child_term_signal() */
};

static void stream_read(struct stream *s, int fd, int epfd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		s->eof = 1;
		epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
		return;
	}
	if (s->len + (size_t)n + 1 > s->cap) {
		s->cap = (s->len + (size_t)n + 1) * 2;
		if (!(s->data = realloc(s->data, s->cap)))
			die("realloc", NULL);
	}
	memcpy(s->data + s->len, buf, (size_t)n);
	s->len += (size_t)n;
	s->data[s->len] = '\0';
	for (ssize_t i = 0; i < n; i++)
		s->lines += buf[i] == '\n';
}

/* An end seen on the pidfd: the child is over, so try_wait must reap it now. */
static void ended(struct agent *a, int epfd)
{
	ruas_error *err = NULL;
	epoll_ctl(epfd, EPOLL_CTL_DEL, ruas_child_pidfd(a->child), NULL);
	a->ended = 1;
	int r = ruas_child_try_wait(a->child, &a->got, &err);
	if (r != 0)
		fail("%s: its pidfd was readable, but ruas_child_try_wait returned %d (%s)", a->name,
		     r, err ? ruas_error_message(err) : "still running");
	ruas_error_free(err);
	a->signal = ruas_child_term_signal(a->child);
}

/* One round of events: 0, or -1 when nothing came for 20 s. */
static int events(struct agent *ag, int epfd)
{
	struct epoll_event ev[8];
	int n = epoll_wait(epfd, ev, 8, 20000);
	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0)
		return -1;
	for (int i = 0; i < n; i++) {
		struct agent *a = &ag[ev[i].data.u32 >> 2];
		switch (ev[i].data.u32 & 3) {
		case 0:
			stream_read(&a->out, a->p.out, epfd);
			break;
		case 1:
			stream_read(&a->err, a->p.err, epfd);
			break;
		default:
			ended(a, epfd);
		}
	}
	return 0;
}

static void watch(int epfd, int fd, unsigned int k, unsigned int kind)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = k << 2 | kind};
	if (fd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		fail("agent %u: cannot watch descriptor %d (kind %u): %s", k + 1, fd, kind,
		     fd < 0 ? "none" : strerror(errno));
}

static void start(struct agent *ag, const ruas_config *cfg, int epfd)
{
	for (unsigned int k = 0; k < AGENTS; k++) {
		struct agent *a = &ag[k];
		char code[8];
		ruas_error *err = NULL;
		snprintf(a->name, sizeof a->name, "agent%u", k + 1);
		a->code = 11 + (int)k;
		snprintf(code, sizeof code, "%d", a->code);
		const char *args[] = {a->name, code, NULL};
		if (spawn_piped(&a->child, cfg, a->project, args, NULL, &a->p, &err) < 0)
			die("ruas_spawn", err);
		watch(epfd, a->p.out, k, 0);
		watch(epfd, a->p.err, k, 1);
		watch(epfd, ruas_child_pidfd(a->child), k, 2);
	}
}

static void message(char *buf, size_t size, const struct agent *a, int round)
{
	snprintf(buf, size, "{\"id\":%d,\"msg\":\"m-%s-%d\"}", round, a->name, round);
}

/* Round by round, a message to each agent and all three replies before the next. */
static void converse(struct agent *ag, int epfd)
{
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < AGENTS; k++) {
			char line[128];
			message(line, sizeof line - 1, &ag[k], r);
			strcat(line, "\n");
			write_all(ag[k].p.in, line);
		}
		for (;;) {
			int done = 1;
			for (int k = 0; k < AGENTS; k++)
				done &= ag[k].out.lines >= (size_t)r + 1 || ag[k].out.eof;
			if (done)
				break;
			if (events(ag, epfd) < 0) {
				fail("round %d: no reply within 20 s", r);
				return;
			}
		}
	}
	for (int k = 0; k < AGENTS; k++) {
		int code;
		if (ruas_child_try_wait(ag[k].child, &code, NULL) != 1)
			fail("%s: ruas_child_try_wait did not say 1 (running) while it ran",
			     ag[k].name);
	}
}

/* The next line of s from *pos, or NULL; the newline becomes a NUL. */
static char *next_line(struct stream *s, size_t *pos)
{
	if (*pos >= s->len)
		return NULL;
	char *l = s->data + *pos;
	char *nl = memchr(l, '\n', s->len - *pos);
	if (!nl) {
		*pos = s->len;
		return l;
	}
	*nl = '\0';
	*pos = (size_t)(nl - s->data) + 1;
	return l;
}

/* Its stdout: exactly its replies, in order; its stderr: its fds, then each line it got. */
static void check_agent(struct agent *a)
{
	char want[256], msg[128];
	size_t po = 0, pe = 0;
	char *l;
	if ((a->out.data && strstr(a->out.data, LOGGER_MARK)) ||
	    (a->err.data && strstr(a->err.data, LOGGER_MARK)))
		fail("%s: a line of the supervisor's logger reached the agent", a->name);
	if (!(l = next_line(&a->err, &pe)) || strcmp(l, "fds: 0 1 2") != 0)
		fail("%s: the agent's descriptors are \"%s\", not \"fds: 0 1 2\"", a->name,
		     l ? l : "(nothing on its stderr)");
	for (int r = 0; r < ROUNDS; r++) {
		message(msg, sizeof msg, a, r);
		snprintf(want, sizeof want, "{\"id\":%d,\"reply\":\"%s:m-%s-%d\"}", r, a->name,
			 a->name, r);
		if (!(l = next_line(&a->out, &po)) || strcmp(l, want) != 0)
			fail("%s: reply %d is \"%s\", not \"%s\"", a->name, r, l ? l : "(none)",
			     want);
		snprintf(want, sizeof want, "got: %s", msg);
		if (!(l = next_line(&a->err, &pe)) || strcmp(l, want) != 0)
			fail("%s: its stdin's line %d was \"%s\", not \"%s\"", a->name, r,
			     l ? l : "(none)", want);
	}
	if ((l = next_line(&a->out, &po)))
		fail("%s: more on its stdout: \"%s\"", a->name, l);
	if ((l = next_line(&a->err, &pe)))
		fail("%s: more on its stderr: \"%s\"", a->name, l);
	if (!a->ended)
		fail("%s: the epoll loop never saw its pidfd readable", a->name);
	if (a->got != a->code || a->signal != 0)
		fail("%s: exit code %d, signal %d; want %d, 0", a->name, a->got, a->signal,
		     a->code);
	note("%s: %zu replies, %zu stderr lines, exit %d", a->name, a->out.lines, a->err.lines,
	     a->got);
}

static int run(const char *conf, char **projects)
{
	struct agent ag[AGENTS];
	pthread_t t;
	memset(ag, 0, sizeof ag);
	for (int k = 0; k < AGENTS; k++)
		ag[k].project = projects[k];
	/* A descriptor of the supervisor's without close-on-exec, as careless code leaves. */
	if ((leaked_fd = dup(2)) < 0)
		die("dup", NULL);
	if (pthread_create(&t, NULL, logger, NULL) != 0)
		die("pthread_create", NULL);
	ruas_config *cfg = load_config(conf);
	int epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		die("epoll_create1", NULL);
	start(ag, cfg, epfd);
	converse(ag, epfd);
	for (int k = 0; k < AGENTS; k++) {
		close(ag[k].p.in);
		ag[k].p.in = -1;
	}
	for (;;) {
		int left = 0;
		for (int k = 0; k < AGENTS; k++)
			left += !ag[k].out.eof + !ag[k].err.eof + !ag[k].ended;
		if (!left)
			break;
		if (events(ag, epfd) < 0) {
			fail("the agents did not all end within 20 s of their stdin's end");
			break;
		}
	}
	atomic_store(&logger_stop, 1);
	pthread_join(t, NULL);
	for (int k = 0; k < AGENTS; k++) {
		check_agent(&ag[k]);
		pipes_close(&ag[k].p);
		ruas_child_free(ag[k].child);
		free(ag[k].out.data);
		free(ag[k].err.data);
	}
	note("the logger wrote %ld lines meanwhile", atomic_load(&logger_lines));
	if (atomic_load(&logger_lines) < 10)
		fail("the logger hardly ran: %ld lines", atomic_load(&logger_lines));
	close(epfd);
	ruas_config_free(cfg);
	return finish();
}

static int hold(const char *conf, const char *project, const char *release)
{
	struct timespec pause = {0, 50000000};
	extern char **environ;
	ruas_config *cfg = load_config(conf);
	ruas_child *c;
	struct agent_pipes p;
	ruas_error *err = NULL;
	char line[512];
	const char *prompt = getenv("SPAWN_PROMPT");
	const char *args[] = {prompt ? prompt : "", NULL};
	if (spawn_piped(&c, cfg, project, args, (const char *const *)environ, &p, &err) < 0)
		die("ruas_spawn", err);
	int n;
	while ((n = read_line(p.out, line, sizeof line, 30000)) >= 0) {
		printf("%s\n", line);
		fflush(stdout);
		if (strcmp(line, "ready") == 0)
			break;
	}
	if (n < 0)
		fail("the agent never said ready");
	for (int i = 0; i < 2400 && access(release, F_OK) < 0; i++)
		nanosleep(&pause, NULL);
	int code;
	if (ruas_child_terminate(c, &err) < 0 || ruas_child_wait(c, &code, &err) < 0)
		die("terminate", err);
	pipes_close(&p);
	ruas_child_free(c);
	ruas_config_free(cfg);
	return finish();
}

int main(int argc, char **argv)
{
	/* An agent that has gone must fail the write, not kill the supervisor. */
	signal(SIGPIPE, SIG_IGN);
	if (argc == 3 + AGENTS && strcmp(argv[1], "run") == 0)
		return run(argv[2], argv + 3);
	if (argc == 5 && strcmp(argv[1], "hold") == 0)
		return hold(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: pipes run CONF P1 P2 P3 | pipes hold CONF PROJECT RELEASE\n");
	return 2;
}
