/* SPDX-License-Identifier: ISC */
/* ask.c - see ask.h. */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ask.h"
#include "cred_wire.h"

#define ANSWER_SECONDS 60 /* the library runs a from_command for up to 30 s */

int ask_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CRED_WIRE_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      (i > 0 && strchr("_.-", s[i]))))
			return 0;
	return 1;
}

/* The socket RUAS_CREDENTIALS names, connected: a descriptor, or -1 after a message. */
static int connect_gate(const char *prog)
{
	const char *where = getenv(CRED_WIRE_ENV);
	struct sockaddr_un sa;
	if (!where || !*where) {
		fprintf(stderr, "%s: " CRED_WIRE_ENV " is not set: this process is not in a run of "
				"ruas that has credentials\n", prog);
		return -1;
	}
	size_t n = strlen(where);
	if (where[0] != '@' || n < 2 || n > sizeof sa.sun_path) {
		fprintf(stderr, "%s: " CRED_WIRE_ENV " does not name ruas's socket (@NAME)\n", prog);
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path + 1, where + 1, n - 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (const struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)) < 0) {
		fprintf(stderr, "%s: cannot reach the run's credentials (%s): %s%s\n", prog, where,
			strerror(errno),
			errno == ECONNREFUSED ? " (the run has ended, or this is not its network "
						"namespace)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/*
	 * The listener is the run's PID namespace init: of this user (the sudo
	 * backend) or root (pam). A socket of anyone else's under that name is
	 * not ruas's, and is told nothing.
	 */
	struct ucred uc;
	socklen_t len = sizeof uc;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0 || len != sizeof uc ||
	    (uc.uid != getuid() && uc.uid != 0)) {
		fprintf(stderr, "%s: the socket %s is not the run's: it belongs to uid %ld; asking "
				"nothing of it\n", prog, where, len == sizeof uc ? (long)uc.uid : -1L);
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole answer into buf (NUL-terminated): its length, or -1 after a message. */
static long read_answer(const char *prog, int fd, char *buf, size_t cap)
{
	size_t len = 0;
	for (;;) {
		struct pollfd pf = {fd, POLLIN, 0};
		int p = poll(&pf, 1, ANSWER_SECONDS * 1000);
		if (p < 0 && errno == EINTR)
			continue;
		if (p <= 0) {
			fprintf(stderr, "%s: no answer from the run's credentials\n", prog);
			return -1;
		}
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		/* A server that closed without reading all we sent: what it said is all there is. */
		if (n < 0 && errno == ECONNRESET && len > 0)
			break;
		if (n < 0) {
			fprintf(stderr, "%s: %s\n", prog, strerror(errno));
			return -1;
		}
		len += (size_t)n;
		if (n == 0 || len == cap - 1)
			break;
	}
	buf[len] = '\0';
	return (long)len;
}

int ask_credential(const char *prog, const char *name, char *value, size_t size)
{
	char answer[ASK_VALUE_SIZE];
	int fd = connect_gate(prog);
	if (fd < 0)
		return -1;
	char req[CRED_WIRE_NAME_MAX + 2];
	int rl = snprintf(req, sizeof req, "%s\n", name);
	if (rl < 0 || (size_t)rl >= sizeof req) {
		close(fd);
		return -1;
	}
	/*
	 * A refusal may come before the request is even sent (the run's init
	 * refuses strangers at once, and closes): then what it said is read
	 * below all the same.
	 */
	if (send(fd, req, (size_t)rl, MSG_NOSIGNAL) != rl && errno != EPIPE && errno != ECONNRESET) {
		fprintf(stderr, "%s: cannot ask: %s\n", prog, strerror(errno));
		close(fd);
		return -1;
	}
	long len = read_answer(prog, fd, answer, sizeof answer);
	close(fd);
	if (len < 0)
		return -1;
	char *nl = len > 0 ? memchr(answer, '\n', (size_t)len) : NULL;
	size_t ok = strlen(CRED_WIRE_OK), er = strlen(CRED_WIRE_ERROR);
	int r = -1;
	if (!nl || nl != answer + len - 1) {
		fprintf(stderr, len == 0 ? "%s: the run's credentials gave no answer (the run is "
					   "ending, or this process is not one of the run's)\n"
					 : "%s: a garbled answer from the run's credentials\n",
			prog);
	} else if (*nl = '\0', strncmp(answer, CRED_WIRE_OK, ok) == 0 && answer[ok] &&
		   strlen(answer + ok) < size) {
		memcpy(value, answer + ok, strlen(answer + ok) + 1);
		r = 0;
	} else if (strncmp(answer, CRED_WIRE_ERROR, er) == 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, name, answer + er);
	} else {
		fprintf(stderr, "%s: a garbled answer from the run's credentials\n", prog);
	}
	explicit_bzero(answer, sizeof answer);
	return r;
}
