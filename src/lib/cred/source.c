/* SPDX-License-Identifier: ISC */
/* source.c - see source.h. */
#include "cred/source.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "proc.h"
#include "quote.h"
#include "spawn_attr.h"
#include "strv.h"

void cred_value_free(char *value)
{
	if (!value)
		return;
	explicit_bzero(value, strlen(value));
	free(value);
}

static char *env_lookup(const char *const *env, const char *name)
{
	size_t n = strlen(name);
	for (const char *const *e = env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return strdup(*e + n + 1);
	return NULL;
}

int cred_slot_init(struct cred_slot *s, const struct cred_source *src, const char *const *env)
{
	memset(s, 0, sizeof *s);
	s->src = *src;
	s->src.name = strdup(src->name);
	s->src.env = src->env ? strdup(src->env) : NULL;
	s->src.file = src->file ? strdup(src->file) : NULL;
	s->src.argv = NULL;
	int bad = !s->src.name || (src->env && !s->src.env) || (src->file && !s->src.file);
	size_t n = 0;
	for (char **a = src->argv; !bad && a && *a; a++)
		bad = strv_push(&s->src.argv, &n, strdup(*a)) < 0;
	if (!bad && src->kind == CRED_ENV) {
		s->value = env_lookup(env, src->env);
		s->env_missing = !s->value;
		/* Absent is the source's failure, at the request; out of memory is not. */
		for (const char *const *e = env; s->env_missing && e && *e; e++)
			if (strncmp(*e, src->env, strlen(src->env)) == 0 &&
			    (*e)[strlen(src->env)] == '=')
				bad = 1;
	}
	if (bad) {
		cred_slot_clear(s);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void cred_slot_clear(struct cred_slot *s)
{
	free(s->src.name);
	free(s->src.env);
	free(s->src.file);
	strv_free(s->src.argv);
	cred_value_free(s->value);
	memset(s, 0, sizeof *s);
}

int cred_value_line(const char *raw, size_t len, char **out, char *why, size_t whysz)
{
	if (len && raw[len - 1] == '\n')
		len--;
	if (len && raw[len - 1] == '\r')
		len--;
	if (len == 0) {
		snprintf(why, whysz, "the value is empty");
		return -1;
	}
	if (memchr(raw, '\n', len) || memchr(raw, '\r', len) || memchr(raw, '\0', len)) {
		snprintf(why, whysz, "the value is not one line (it holds a newline, CR or NUL byte)");
		return -1;
	}
	if (!(*out = malloc(len + 1))) {
		snprintf(why, whysz, "out of memory");
		return -1;
	}
	memcpy(*out, raw, len);
	(*out)[len] = '\0';
	return 0;
}

static int from_file(const struct cred_source *c, char **value, char *why, size_t whysz)
{
	char raw[CRED_VALUE_MAX + 2];
	struct stat st;
	int fd = open(c->file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, whysz, "cannot open from_file \"%s\": %s", c->file, strerror(errno));
		return -1;
	}
	int r = -1;
	uid_t me = geteuid();
	if (fstat(fd, &st) < 0) {
		snprintf(why, whysz, "cannot stat from_file \"%s\": %s", c->file, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, whysz, "from_file \"%s\" is not a regular file", c->file);
	} else if (st.st_uid != me && st.st_uid != 0) {
		snprintf(why, whysz,
			 "from_file \"%s\" is owned by uid %u, not by the supervisor (uid %u) or "
			 "root; fix: chown it to the supervisor",
			 c->file, (unsigned)st.st_uid, (unsigned)me);
	} else if (st.st_mode & 077) {
		snprintf(why, whysz,
			 "from_file \"%s\" may be read or written by others than its owner (mode "
			 "%04o); fix: chmod 600 \"%s\"",
			 c->file, (unsigned)(st.st_mode & 07777), c->file);
	} else {
		size_t got = 0;
		ssize_t n;
		while (got < sizeof raw && (n = read(fd, raw + got, sizeof raw - got)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			got += (size_t)n;
		}
		if (got > CRED_VALUE_MAX + 1)
			snprintf(why, whysz, "from_file \"%s\" is longer than %u bytes", c->file,
				 CRED_VALUE_MAX);
		else
			r = cred_value_line(raw, got, value, why, whysz);
		explicit_bzero(raw, sizeof raw);
	}
	close(fd);
	return r;
}

/* The command's first line of stderr, printable, into why after what. */
static void first_line(char *why, size_t whysz, const char *what, const char *err, size_t len)
{
	struct buf q = BUF_INIT;
	const char *nl = memchr(err, '\n', len);
	size_t n = nl ? (size_t)(nl - err) : len;
	char line[256];
	if (n >= sizeof line)
		n = sizeof line - 1;
	memcpy(line, err, n);
	line[n] = '\0';
	quote_display_dq(&q, line);
	snprintf(why, whysz, "%s%s%s", what, n ? "; its stderr: " : "", n && q.data ? q.data : "");
	buf_free(&q);
}

/*
 * Reads out and err until both end, the deadline or stop: 0, or -1 when
 * one of those came first.
 */
static int drain(int out, int err, char *obuf, size_t *olen, char *ebuf, size_t *elen,
		 long long deadline, int stop)
{
	struct pollfd pf[3] = {{out, POLLIN, 0}, {err, POLLIN, 0}, {stop, POLLIN, 0}};
	char *bufs[2] = {obuf, ebuf};
	size_t *lens[2] = {olen, elen};
	const size_t caps[2] = {CRED_VALUE_MAX + 2, 1024};
	char sink[512];
	int r = 0;
	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		long long left = deadline - monotonic_ms();
		if (left <= 0 || (poll(pf, 3, (int)left) < 0 && errno != EINTR) || pf[2].revents) {
			r = -1;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			size_t room = caps[i] - *lens[i];
			ssize_t n = room ? read(pf[i].fd, bufs[i] + *lens[i], room)
					 : read(pf[i].fd, sink, sizeof sink);
			if (n > 0 && room)
				*lens[i] += (size_t)n;
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				pf[i].fd = -1;
		}
	}
	explicit_bzero(sink, sizeof sink);
	return r;
}

/*
 * The program of a from_command: an absolute path as it is, else the
 * first executable regular file of that name in the absolute directories
 * of env's PATH (an empty or relative entry would mean the supervisor's
 * working directory, which an agent may write). NULL when none: why says so.
 */
static char *find_program(const char *name, const char *const *env, char *why, size_t whysz)
{
	if (name[0] == '/')
		return strdup(name);
	const char *path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *const *e = env; e && *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	for (const char *p = path; *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n && p[0] == '/') {
			struct buf b = BUF_INIT;
			struct stat st;
			buf_printf(&b, "%.*s/%s", (int)n, p, name);
			if (!b.oom && stat(b.data, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(b.data, X_OK) == 0)
				return b.data;
			buf_free(&b);
		}
		p += n + (end ? 1 : 0);
	}
	struct buf q = BUF_INIT;
	quote_display_dq(&q, name);
	snprintf(why, whysz, "cannot run from_command %s: not found in the absolute directories "
			     "of the supervisor's PATH", q.data ? q.data : "");
	buf_free(&q);
	return NULL;
}

/*
 * Its own process group, in /, with /dev/null as stdin and pipes as
 * stdout and stderr: 0 with *pid and *pidfd, or an errno.
 */
static int start_command(const char *prog, char *const *argv, const char *const *env, int out,
			 int err, pid_t *pid, int *pidfd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	short flags = 0;
	int e = spawn_setup(&fa, &attr, 0);
	if (e == 0 && (posix_spawnattr_getflags(&attr, &flags) ||
		       posix_spawnattr_setflags(&attr, flags | POSIX_SPAWN_SETPGROUP) ||
		       posix_spawnattr_setpgroup(&attr, 0) ||
		       posix_spawn_file_actions_addchdir_np(&fa, "/") ||
		       posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
		       posix_spawn_file_actions_adddup2(&fa, out, 1) ||
		       posix_spawn_file_actions_adddup2(&fa, err, 2) || spawn_close_from(&fa, 3)))
		e = ENOMEM;
	if (e == 0)
		e = posix_spawn(pid, prog, &fa, &attr, argv, (char *const *)env);
	spawn_teardown(&fa, &attr);
	*pidfd = e == 0 ? process_pidfd(*pid) : -1;
	return e;
}

/*
 * The end of the command by the deadline (or stop), else SIGKILL; then
 * SIGKILL to what is left of its group, whose leader is not reaped before
 * that, so that the group's id cannot have been reused. On its pidfd, or
 * where the kernel gives none (valgrind), by asking every 10 ms. 0 with
 * *st, or -1: it could not be reaped (SIGCHLD ignored, or someone else's
 * waitpid took it).
 */
static int finish_command(pid_t pid, int pidfd, int killed, long long deadline, int stop,
			  int *st)
{
	int w = 0;
	while (!killed) {
		long long left = deadline - monotonic_ms();
		struct pollfd pf[2] = {{stop, POLLIN, 0}, {pidfd, POLLIN, 0}};
		if (pidfd < 0 && (w = waitpid(pid, st, WNOHANG)) != 0)
			break; /* reaped (or it cannot be) */
		int r = left > 0 ? poll(pf, pidfd < 0 ? 1 : 2, pidfd < 0 && left > 10 ? 10 : (int)left)
				 : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if ((r == 0 && left <= 10 && pidfd < 0 && monotonic_ms() >= deadline) ||
		    (r == 0 && pidfd >= 0) || pf[0].revents)
			killed = 1;
		else if (pidfd >= 0 && pf[1].revents)
			break;
	}
	if (w == pid) { /* reaped already: its group may be reused; only a living leader pins it */
		if (pidfd >= 0)
			close(pidfd);
		return 0;
	}
	if (killed)
		kill(pid, SIGKILL);
	if (w == 0)
		kill(-pid, SIGKILL); /* the leader is not reaped yet: the group is still its */
	while (w == 0 && (w = waitpid(pid, st, 0)) < 0 && errno == EINTR)
		w = 0;
	if (pidfd >= 0)
		close(pidfd);
	return w == pid ? 0 : -1;
}

static int from_command(const struct cred_source *c, const char *const *env, int stop,
			char **value, char *why, size_t whysz)
{
	int po[2], pe[2];
	char *prog = find_program(c->argv[0], env, why, whysz);
	if (!prog)
		return -1;
	if (pipe2(po, O_CLOEXEC) < 0) {
		snprintf(why, whysz, "cannot run from_command: pipe: %s", strerror(errno));
		free(prog);
		return -1;
	}
	if (pipe2(pe, O_CLOEXEC) < 0) {
		snprintf(why, whysz, "cannot run from_command: pipe: %s", strerror(errno));
		close(po[0]);
		close(po[1]);
		free(prog);
		return -1;
	}
	pid_t pid = -1;
	int pidfd = -1;
	int e = start_command(prog, c->argv, env, po[1], pe[1], &pid, &pidfd);
	close(po[1]);
	close(pe[1]);
	if (e != 0) {
		close(po[0]);
		close(pe[0]);
		struct buf q = BUF_INIT;
		quote_display_dq(&q, prog);
		snprintf(why, whysz, "cannot run from_command %s: %s", q.data ? q.data : "",
			 strerror(e));
		buf_free(&q);
		free(prog);
		return -1;
	}
	free(prog);
	char out[CRED_VALUE_MAX + 2], err[1024];
	size_t olen = 0, elen = 0;
	long long deadline = monotonic_ms() + 1000LL * CRED_COMMAND_SECONDS;
	int cut = drain(po[0], pe[0], out, &olen, err, &elen, deadline, stop) < 0;
	close(po[0]);
	close(pe[0]);
	int st = 0;
	int reaped = finish_command(pid, pidfd, cut, deadline, stop, &st) == 0;
	int late = cut || monotonic_ms() >= deadline;
	int r = -1;
	char what[128];
	if (!reaped) {
		snprintf(why, whysz, "from_command's end could not be seen (is SIGCHLD ignored, or "
				     "its child reaped elsewhere, in the supervisor?)");
	} else if (late || (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && cut)) {
		snprintf(what, sizeof what, "from_command did not finish in %d s (or the run's "
					    "credentials stopped) and was killed",
			 CRED_COMMAND_SECONDS);
		first_line(why, whysz, what, err, elen);
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (WIFSIGNALED(st))
			snprintf(what, sizeof what, "from_command was killed by signal %d",
				 WTERMSIG(st));
		else
			snprintf(what, sizeof what, "from_command exited with status %d",
				 WEXITSTATUS(st));
		first_line(why, whysz, what, err, elen);
	} else if (olen > CRED_VALUE_MAX + 1) {
		snprintf(why, whysz, "from_command printed more than %u bytes", CRED_VALUE_MAX);
	} else {
		r = cred_value_line(out, olen, value, why, whysz);
	}
	explicit_bzero(out, sizeof out);
	return r;
}

int cred_slot_value(struct cred_slot *s, const char *const *env, int stop, char **value,
		    char *why, size_t whysz)
{
	const struct cred_source *c = &s->src;
	*value = NULL;
	if (c->kind == CRED_ENV) {
		if (s->env_missing) {
			snprintf(why, whysz,
				 "from_env: the variable %s was not set in the supervisor's "
				 "environment when the run started", c->env);
			return -1;
		}
		return cred_value_line(s->value, strlen(s->value), value, why, whysz);
	}
	if (c->kind == CRED_FILE)
		return from_file(c, value, why, whysz);
	if (s->value && monotonic_ms() < s->expires_ms)
		return (*value = strdup(s->value)) ? 0 : (snprintf(why, whysz, "out of memory"), -1);
	cred_value_free(s->value);
	s->value = NULL;
	if (from_command(c, env, stop, value, why, whysz) < 0)
		return -1;
	if (c->ttl && (s->value = strdup(*value)))
		s->expires_ms = monotonic_ms() + 1000LL * c->ttl;
	return 0;
}
