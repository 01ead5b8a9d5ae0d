/* SPDX-License-Identifier: ISC */
/* channel.c - see channel.h. */
#include "channel.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HEAD 5

int channel_peer(int fd, pid_t *pid, uid_t *uid, gid_t *gid)
{
	struct ucred cr;
	socklen_t len = sizeof cr;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return -1;
	*pid = cr.pid;
	*uid = cr.uid;
	*gid = cr.gid;
	return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One sendmsg of iov, with fds as SCM_RIGHTS when nfds > 0. */
static ssize_t send_iov(int fd, struct iovec *iov, size_t niov, const int *fds, size_t nfds,
			int flags)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(CHANNEL_MAX_FDS * sizeof(int))];
	} cm;
	struct msghdr m;
	memset(&m, 0, sizeof m);
	memset(&cm, 0, sizeof cm);
	m.msg_iov = iov;
	m.msg_iovlen = niov;
	if (nfds) {
		m.msg_control = cm.buf;
		m.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	ssize_t n;
	while ((n = sendmsg(fd, &m, MSG_NOSIGNAL | flags)) < 0 && errno == EINTR)
		;
	return n;
}

int channel_send(int fd, int type, const void *body, size_t len, const int *fds, size_t nfds)
{
	unsigned char head[HEAD];
	if (len > CHANNEL_MAX_BODY || nfds > CHANNEL_MAX_FDS) {
		errno = EMSGSIZE;
		return -1;
	}
	put32(head, (uint32_t)len);
	head[4] = (unsigned char)type;
	struct iovec iov[2] = {{head, sizeof head}, {(void *)body, len}};
	struct iovec *v = iov;
	size_t niov = len ? 2 : 1;
	size_t total = sizeof head + len, done = 0;
	while (done < total) {
		ssize_t n = send_iov(fd, v, niov, done ? NULL : fds, done ? 0 : nfds, 0);
		if (n <= 0)
			return -1;
		done += (size_t)n;
		size_t skip = (size_t)n;
		while (niov && skip >= v[0].iov_len) {
			skip -= v[0].iov_len;
			v++;
			niov--;
		}
		if (niov) {
			v[0].iov_base = (char *)v[0].iov_base + skip;
			v[0].iov_len -= skip;
		}
	}
	return 0;
}

int channel_send_buf(int fd, int type, const struct buf *body)
{
	if (body->oom) {
		errno = ENOMEM;
		return -1;
	}
	return channel_send(fd, type, body->data, body->len, NULL, 0);
}

int channel_send_control(int fd, int type, const struct buf *body)
{
	unsigned char m[HEAD + CHANNEL_CONTROL_MAX];
	size_t len = body ? body->len : 0;
	if (len > sizeof m - HEAD || (body && body->oom)) {
		errno = EMSGSIZE;
		return -1;
	}
	put32(m, (uint32_t)len);
	m[4] = (unsigned char)type;
	if (len)
		memcpy(m + HEAD, body->data, len);
	ssize_t n;
	while ((n = send(fd, m, HEAD + len, MSG_NOSIGNAL | MSG_DONTWAIT)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)(HEAD + len))
		return 0;
	if (n >= 0)
		errno = EPROTO; /* a part went: the stream is broken, as if the peer had gone */
	return -1;
}

/* Closes what came in a control message beyond what the caller can hold. */
static void close_fds(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * Descriptors of one received control message into fds (up to want, counted
 * in *got); any beyond, or any that come with a later part of the message,
 * are closed and make it -1.
 */
static int take_rights(struct msghdr *m, int first, int *fds, size_t want, size_t *got)
{
	int bad = (m->msg_flags & MSG_CTRUNC) != 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int in[CHANNEL_MAX_FDS + 8];
		if (k > sizeof in / sizeof in[0])
			k = sizeof in / sizeof in[0];
		memcpy(in, CMSG_DATA(c), k * sizeof(int));
		if (!first || *got + k > want) {
			close_fds(in, k);
			bad = 1;
			continue;
		}
		memcpy(fds + *got, in, k * sizeof(int));
		*got += k;
	}
	if (bad) {
		close_fds(fds, *got);
		*got = 0;
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* Reads exactly len bytes (the header), with any descriptors sent along. */
static int read_head(int fd, void *head, size_t len, int *fds, size_t *nfds)
{
	char *p = head;
	size_t done = 0, want = *nfds;
	*nfds = 0;
	while (done < len) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE((CHANNEL_MAX_FDS + 8) * sizeof(int))];
		} cm;
		struct iovec iov = {p + done, len - done};
		struct msghdr m;
		memset(&m, 0, sizeof m);
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = cm.buf;
		m.msg_controllen = sizeof cm.buf;
		ssize_t n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close_fds(fds, *nfds);
			*nfds = 0;
			return -1;
		}
		if (take_rights(&m, done == 0, fds, want, nfds) < 0)
			return -1;
		if (n == 0) {
			close_fds(fds, *nfds);
			*nfds = 0;
			if (done == 0)
				return 0;
			errno = EPROTO;
			return -1;
		}
		done += (size_t)n;
	}
	return 1;
}

int channel_recv(int fd, int *type, struct buf *body, int *fds, size_t *nfds)
{
	unsigned char head[HEAD];
	size_t none = 0;
	if (!nfds)
		nfds = &none;
	int r = read_head(fd, head, sizeof head, fds, nfds);
	if (r <= 0)
		return r;
	size_t len = get32(head), done = 0;
	*type = head[4];
	if (len > CHANNEL_MAX_BODY) {
		close_fds(fds, *nfds);
		*nfds = 0;
		errno = EPROTO;
		return -1;
	}
	while (done < len) {
		char tmp[65536];
		size_t want = len - done < sizeof tmp ? len - done : sizeof tmp;
		ssize_t n = read(fd, tmp, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close_fds(fds, *nfds);
			*nfds = 0;
			if (n == 0)
				errno = EPROTO;
			return -1;
		}
		buf_add(body, tmp, (size_t)n);
		done += (size_t)n;
	}
	if (body->oom) {
		close_fds(fds, *nfds);
		*nfds = 0;
		errno = ENOMEM;
		return -1;
	}
	return 1;
}

void channel_out_init(struct channel_out *o)
{
	memset(o, 0, sizeof *o);
	o->fds_at = (size_t)-1;
}

int channel_out_add(struct channel_out *o, int type, const void *body, size_t len,
		    const int *fds, size_t nfds)
{
	unsigned char head[HEAD];
	if (len > CHANNEL_MAX_BODY || nfds > CHANNEL_MAX_FDS ||
	    (nfds && o->fds_at != (size_t)-1)) {
		errno = EMSGSIZE;
		return -1;
	}
	put32(head, (uint32_t)len);
	head[4] = (unsigned char)type;
	size_t at = o->bytes.len;
	buf_add(&o->bytes, head, sizeof head);
	buf_add(&o->bytes, body, len);
	if (o->bytes.oom) {
		errno = ENOMEM;
		return -1;
	}
	if (nfds) {
		o->fds_at = at;
		memcpy(o->fds, fds, nfds * sizeof(int));
		o->nfds = nfds;
	}
	return 0;
}

int channel_out_flush(struct channel_out *o, int fd)
{
	while (o->sent < o->bytes.len) {
		/* Up to the byte that the descriptors go with, then from it with them. */
		int with = o->nfds && o->sent == o->fds_at;
		size_t end = o->nfds && o->sent < o->fds_at ? o->fds_at : o->bytes.len;
		struct iovec iov = {o->bytes.data + o->sent, end - o->sent};
		ssize_t n = send_iov(fd, &iov, 1, with ? o->fds : NULL, with ? o->nfds : 0,
				     MSG_DONTWAIT);
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		if (n == 0) {
			errno = EPIPE;
			return -1;
		}
		if (with)
			o->nfds = 0; /* they went with the first of these bytes */
		o->sent += (size_t)n;
	}
	return 1;
}

void channel_out_free(struct channel_out *o)
{
	buf_free(&o->bytes);
	channel_out_init(o);
}

ssize_t channel_recv_some(int fd, void *buf, size_t size, int *fds, size_t *nfds)
{
	return channel_recv_from(fd, buf, size, fds, nfds, NULL);
}

ssize_t channel_recv_from(int fd, void *buf, size_t size, int *fds, size_t *nfds, pid_t *sender)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(16 * sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
	} cm;
	if (sender)
		*sender = -1;
	struct iovec iov = {buf, size};
	struct msghdr m;
	size_t want = *nfds;
	*nfds = 0;
	memset(&m, 0, sizeof m);
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = cm.buf;
	m.msg_controllen = sizeof cm.buf;
	ssize_t n;
	while ((n = recvmsg(fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); n >= 0 && c; c = CMSG_NXTHDR(&m, c)) {
		if (sender && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
			struct ucred cred;
			memcpy(&cred, CMSG_DATA(c), sizeof cred);
			*sender = cred.pid;
		}
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		/* All that came (the kernel closed what did not fit the buffer: MSG_CTRUNC). */
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
			if (*nfds < want && !(m.msg_flags & MSG_CTRUNC))
				fds[(*nfds)++] = got;
			else
				close(got);
		}
	}
	return n;
}

int channel_read_some(int fd, struct buf *in, size_t max, int *dropped)
{
	char tmp[65536];
	size_t none = 0;
	/* Nothing sends descriptors this way: whatever came is closed unused. */
	ssize_t n = channel_recv_some(fd, tmp, sizeof tmp, NULL, &none);
	if (n <= 0)
		return n == 0 ? 0 : -1;
	size_t keep = in->len < max ? max - in->len : 0;
	if (keep > (size_t)n)
		keep = (size_t)n;
	if (keep < (size_t)n && dropped)
		*dropped = 1;
	if (keep && buf_add(in, tmp, keep) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 1;
}

int channel_next(const char *data, size_t len, size_t *off, int *type, const char **body,
		 size_t *blen)
{
	if (*off == len)
		return 0;
	if (len - *off < HEAD)
		return -1;
	const unsigned char *h = (const unsigned char *)data + *off;
	size_t n = get32(h);
	if (n > CHANNEL_MAX_BODY || n > len - *off - HEAD)
		return -1;
	*type = h[4];
	*body = data + *off + HEAD;
	*blen = n;
	*off += HEAD + n;
	return 1;
}
