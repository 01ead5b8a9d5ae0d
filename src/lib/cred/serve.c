/* SPDX-License-Identifier: ISC */
/* serve.c - see serve.h. */
#include "cred/serve.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config/loader.h"
#include "cred/source.h"
#include "cred_wire.h"
#include "payload.h"
#include "proc.h"
#include "random_hex.h"

#define REQUEST_MAX 128     /* a name, its newline, and room to see that it is too long */
#define REQUEST_SECONDS 10  /* a requester that says nothing in that time is cut */
#define STRANGERS_RECORDED 32 /* refusals of strangers recorded one by one per run; then counted */

struct cred_serve {
	int gate;      /* this side's end of the SOCK_SEQPACKET pair */
	int stop;      /* an eventfd: cred_serve_free() says stop */
	pthread_t th;
	int started;
	uid_t target_uid;
	char *project, *person, *target;
	struct cred_slot *slots;
	size_t nslots;
	char **env; /* the spawn's, for from_command */
	ruas_credential_callback cb; /* the embedder's, NULL: none */
	void *cb_payload;
	struct audit_run *audit;
	unsigned long strangers; /* refused by the init: stranger() */
};

static void record(struct cred_serve *cs, const char *name, int granted, const char *why,
		   long pid);

static void strv_wipe_free(char **v)
{
	for (char **e = v; e && *e; e++) {
		explicit_bzero(*e, strlen(*e));
		free(*e);
	}
	free(v);
}

void cred_serve_free(struct cred_serve *cs)
{
	if (!cs)
		return;
	if (cs->started) {
		uint64_t one = 1;
		while (write(cs->stop, &one, sizeof one) < 0 && errno == EINTR)
			;
		pthread_join(cs->th, NULL);
	}
	if (cs->strangers > STRANGERS_RECORDED) {
		char why[160];
		snprintf(why, sizeof why, "%lu more requests from outside the run were refused and "
					  "not recorded one by one",
			 cs->strangers - STRANGERS_RECORDED);
		record(cs, NULL, 0, why, 0);
	}
	if (cs->gate >= 0)
		close(cs->gate);
	if (cs->stop >= 0)
		close(cs->stop);
	for (size_t i = 0; i < cs->nslots; i++)
		cred_slot_clear(&cs->slots[i]);
	free(cs->slots);
	strv_wipe_free(cs->env);
	free(cs->project);
	free(cs->person);
	free(cs->target);
	free(cs);
}

/* The supervisor's environment as the spawn saw it, copied. */
static char **env_copy(const char *const *env)
{
	size_t n = 0;
	while (env && env[n])
		n++;
	char **v = calloc(n + 1, sizeof *v);
	for (size_t i = 0; v && i < n; i++)
		if (!(v[i] = strdup(env[i]))) {
			strv_wipe_free(v);
			return NULL;
		}
	return v;
}

struct cred_serve *cred_serve_new(const struct ruas_project *p, uid_t target_uid,
				  const char *const *env, ruas_credential_callback cb, void *payload,
				  char name[64], int *helper_end)
{
	int sv[2] = {-1, -1};
	char hex[33];
	struct cred_serve *cs = calloc(1, sizeof *cs);
	if (!cs)
		return NULL;
	cs->gate = cs->stop = -1;
	cs->target_uid = target_uid;
	cs->cb = cb;
	cs->cb_payload = payload;
	*helper_end = -1;
	int ok = (cs->project = strdup(p->name)) && (cs->target = strdup(p->run_as_user)) &&
		 (!p->person || (cs->person = strdup(p->person))) &&
		 (cs->env = env_copy(env)) &&
		 (cs->slots = calloc(p->credentials.n + 1, sizeof *cs->slots));
	for (size_t i = 0; ok && i < p->credentials.n; i++, cs->nslots++)
		ok = cred_slot_init(&cs->slots[i], &p->credentials.v[i], env) == 0;
	if (ok)
		ok = (cs->stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) >= 0 &&
		     socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0 &&
		     random_hex(hex, sizeof hex) == 0;
	if (!ok) {
		int e = errno ? errno : ENOMEM;
		if (sv[0] >= 0)
			close(sv[0]), close(sv[1]);
		cred_serve_free(cs);
		errno = e;
		return NULL;
	}
	snprintf(name, 64, "%s%s", PAYLOAD_CREDENTIALS_PREFIX, hex);
	cs->gate = sv[0];
	*helper_end = sv[1];
	return cs;
}

/* Writes all of s to conn, for as long as the requester reads (it is the run's). */
static void answer(struct cred_serve *cs, int conn, const char *kind, const char *text)
{
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s%s\n", kind, text);
	size_t off = 0;
	long long deadline = monotonic_ms() + 1000LL * REQUEST_SECONDS;
	while (!b.oom && off < b.len) {
		ssize_t w = send(conn, b.data + off, b.len - off, MSG_NOSIGNAL);
		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			break;
		long long left = deadline - monotonic_ms();
		struct pollfd pf[2] = {{conn, POLLOUT, 0}, {cs->stop, POLLIN, 0}};
		if (left <= 0 || (poll(pf, 2, (int)left) < 0 && errno != EINTR) || pf[1].revents)
			break;
	}
	if (b.data)
		explicit_bzero(b.data, b.len);
	buf_free(&b);
}

/* The request's name into name: 0, or -1 (nothing, too long, not a name, the deadline). */
static int read_request(struct cred_serve *cs, int conn, char name[REQUEST_MAX], int seconds)
{
	size_t len = 0;
	long long deadline = monotonic_ms() + 1000LL * seconds;
	for (;;) {
		ssize_t n = recv(conn, name + len, REQUEST_MAX - 1 - len, 0);
		if (n > 0) {
			len += (size_t)n;
			name[len] = '\0';
			char *nl = memchr(name, '\n', len);
			if (nl) {
				*nl = '\0';
				return nl == name + len - 1 ? 0 : -1; /* one line, nothing after */
			}
			if (len == REQUEST_MAX - 1)
				return -1;
			continue;
		}
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			return -1;
		long long left = deadline - monotonic_ms();
		struct pollfd pf[2] = {{conn, POLLIN, 0}, {cs->stop, POLLIN, 0}};
		if (left <= 0 || (poll(pf, 2, (int)left) < 0 && errno != EINTR) || pf[1].revents)
			return -1;
	}
}

static void record(struct cred_serve *cs, const char *name, int granted, const char *why, long pid)
{
	struct audit_credential c = {cs->project, cs->person, cs->target, name, granted, why, pid};
	audit_run_credential(cs->audit, &c);
}

/*
 * A name that no configured source has, from the embedder's callback: 1
 * with *value, 0 when it has none (or there is no callback), -1 with why.
 */
static int from_callback(struct cred_serve *cs, const char *name, char **value, char *why,
			 size_t whysz)
{
	if (!cs->cb)
		return 0;
	char *buf = calloc(1, CRED_VALUE_MAX + 1);
	if (!buf) {
		snprintf(why, whysz, "out of memory");
		return -1;
	}
	int n = cs->cb(cs->project, name, buf, CRED_VALUE_MAX + 1, cs->cb_payload);
	int r = n;
	if (n < 0) {
		snprintf(why, whysz, "the embedder's credential callback failed");
		r = -1;
	} else if (n > 0 && ((size_t)n > CRED_VALUE_MAX || buf[n] != '\0' ||
			     strlen(buf) != (size_t)n)) {
		snprintf(why, whysz, "the embedder's credential callback gave a malformed value");
		r = -1;
	} else if (n > 0) {
		r = cred_value_line(buf, (size_t)n, value, why, whysz) < 0 ? -1 : 1;
	}
	explicit_bzero(buf, CRED_VALUE_MAX + 1);
	free(buf);
	return r;
}

void cred_serve_conn(struct cred_serve *cs, int conn, unsigned long inner_pid)
{
	char name[REQUEST_MAX] = "", why[512], msg[640];
	struct ucred uc = {0, (uid_t)-1, (gid_t)-1};
	socklen_t len = sizeof uc;
	int peer = getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 && len == sizeof uc;
	long pid = peer ? (long)uc.pid : 0;
	int mine = peer && uc.uid == cs->target_uid && inner_pid != 0;
	/*
	 * The request is read whoever asks (a socket closed with it unread
	 * would reset the connection before the refusal is read), but a
	 * stranger gets a second, not ten, to say it: it holds up this run's
	 * requests meanwhile. Its name is recorded, never acted on.
	 */
	int got = read_request(cs, conn, name, mine ? REQUEST_SECONDS : 1) == 0 &&
		  cred_name_valid(name);
	const char *asked = got ? name : NULL;
	if (!peer || uc.uid != cs->target_uid) {
		snprintf(why, sizeof why, "the requester's uid (%ld) is not the run's user %s",
			 peer ? (long)uc.uid : -1L, cs->target);
		answer(cs, conn, CRED_WIRE_ERROR, "refused: this process is not one of the run's");
		record(cs, asked, 0, why, pid);
		return;
	}
	if (inner_pid == 0) {
		answer(cs, conn, CRED_WIRE_ERROR,
		       "refused: this process is not one of the run's (it is outside the run's PID "
		       "namespace)");
		record(cs, asked, 0, "the requester is outside the run (not in its PID namespace)",
		       pid);
		return;
	}
	if (!got) {
		answer(cs, conn, CRED_WIRE_ERROR,
		       "bad request: send one credential name (^[a-z0-9][a-z0-9_.-]*$) and a newline");
		record(cs, NULL, 0, "bad request", pid);
		return;
	}
	struct cred_slot *slot = NULL;
	for (size_t i = 0; i < cs->nslots && !slot; i++)
		if (strcmp(cs->slots[i].src.name, name) == 0)
			slot = &cs->slots[i];
	char *value = NULL;
	int had = !slot ? from_callback(cs, name, &value, why, sizeof why)
		  : cred_slot_value(slot, (const char *const *)cs->env, cs->stop, &value, why,
				    sizeof why) == 0
			  ? 1
			  : -1;
	if (had == 0) {
		snprintf(msg, sizeof msg, "unknown credential \"%s\": project \"%s\" has none by that name",
			 name, cs->project);
		answer(cs, conn, CRED_WIRE_ERROR, msg);
		record(cs, name, 0, "no credential by that name", pid);
		return;
	}
	if (had < 0) {
		snprintf(msg, sizeof msg,
			 "credential \"%s\" could not be had: its source failed (the supervisor's "
			 "audit record says why)", name);
		answer(cs, conn, CRED_WIRE_ERROR, msg);
		record(cs, name, 0, why, pid);
		return;
	}
	answer(cs, conn, CRED_WIRE_OK, value);
	cred_value_free(value);
	record(cs, name, 1, NULL, pid);
}

/*
 * A stranger the init refused ('O': of the run's user, outside its PID
 * namespace; 'U': another user), recorded; past STRANGERS_RECORDED in one
 * run they are only counted (anyone may connect, and a flood must not
 * fill the log), and the count is one record when the run's server ends.
 */
static void stranger(struct cred_serve *cs, char kind, unsigned long uid)
{
	char why[160];
	if (cs->strangers++ >= STRANGERS_RECORDED)
		return;
	if (kind == 'O')
		snprintf(why, sizeof why, "the requester is outside the run (not in its PID namespace)");
	else
		snprintf(why, sizeof why, "the requester's uid (%ld in the run's user namespace) is "
					  "not the run's user %s",
			 uid == 0xffffffffUL ? -1L : (long)uid, cs->target);
	record(cs, NULL, 0, why, 0);
}

/* One message of the init's (pidns.h PIDNS_GATE). 0, or -1: the gate ended. */
static int take_one(struct cred_serve *cs)
{
	unsigned char b[9];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = {b, sizeof b};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof u.buf};
	ssize_t n = recvmsg(cs->gate, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	int conn = -1;
	struct cmsghdr *cm = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&conn, CMSG_DATA(cm), sizeof conn);
	if (n <= 0)
		return -1; /* the init is gone: the run is over */
	int with_conn = b[0] == 'C';
	if (n != (ssize_t)sizeof b || (mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) ||
	    (with_conn != (conn >= 0)) || (!with_conn && b[0] != 'O' && b[0] != 'U')) {
		if (conn >= 0)
			close(conn);
		return -1; /* not the init's words: the gate ends */
	}
	unsigned long pid = (unsigned long)b[1] << 24 | (unsigned long)b[2] << 16 |
			    (unsigned long)b[3] << 8 | b[4];
	unsigned long uid = (unsigned long)b[5] << 24 | (unsigned long)b[6] << 16 |
			    (unsigned long)b[7] << 8 | b[8];
	if (!with_conn) {
		stranger(cs, (char)b[0], uid);
		return 0;
	}
	cred_serve_conn(cs, conn, pid);
	close(conn);
	return 0;
}

static void *serve_main(void *arg)
{
	struct cred_serve *cs = arg;
	for (;;) {
		struct pollfd pf[2] = {{cs->gate, POLLIN, 0}, {cs->stop, POLLIN, 0}};
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			break;
		if (pf[0].revents && take_one(cs) < 0)
			break;
	}
	/* Nothing more is served: a late requester reads end of file at once. */
	shutdown(cs->gate, SHUT_RDWR);
	return NULL;
}

int cred_serve_start(struct cred_serve *cs, struct audit_run *audit)
{
	cs->audit = audit;
	/* The thread takes no signal of the caller's: they are the caller's to handle. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&cs->th, NULL, serve_main, cs);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	cs->started = e == 0;
	return e;
}
