/* channel.c - see channel.h. */
#include "channel.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define PREFIX "ruas-channel-"
#define MAX_FDS 3

/* The abstract address of token: a NUL, then PREFIX and the token. */
static socklen_t address(struct sockaddr_un *sa, const char *token)
{
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	size_t n = strlen(PREFIX);
	memcpy(sa->sun_path + 1, PREFIX, n);
	memcpy(sa->sun_path + 1 + n, token, CHANNEL_TOKEN_LEN);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n + CHANNEL_TOKEN_LEN);
}

int channel_token_valid(const char *token)
{
	size_t i = 0;
	for (; token[i]; i++)
		if (!((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f')))
			return 0;
	return i == CHANNEL_TOKEN_LEN;
}

int channel_listen(char token[CHANNEL_TOKEN_LEN + 1], int *fd)
{
	unsigned char raw[CHANNEL_TOKEN_LEN / 2];
	static const char hex[] = "0123456789abcdef";
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		return -1;
	for (size_t i = 0; i < sizeof raw; i++) {
		token[2 * i] = hex[raw[i] >> 4];
		token[2 * i + 1] = hex[raw[i] & 15];
	}
	token[CHANNEL_TOKEN_LEN] = '\0';
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -1;
	struct sockaddr_un sa;
	socklen_t len = address(&sa, token);
	if (bind(s, (struct sockaddr *)&sa, len) < 0 || listen(s, 8) < 0) {
		int e = errno;
		close(s);
		errno = e;
		return -1;
	}
	*fd = s;
	return 0;
}

int channel_connect(const char *token, int *fd)
{
	if (!channel_token_valid(token)) {
		errno = EINVAL;
		return -1;
	}
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	struct sockaddr_un sa;
	socklen_t len = address(&sa, token);
	int r;
	while ((r = connect(s, (struct sockaddr *)&sa, len)) < 0 && errno == EINTR)
		;
	if (r < 0) {
		int e = errno;
		close(s);
		errno = e;
		return -1;
	}
	*fd = s;
	return 0;
}

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

void channel_put32(unsigned char *p, unsigned int v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

unsigned int channel_get32(const unsigned char *p)
{
	return (unsigned int)p[0] << 24 | (unsigned int)p[1] << 16 | (unsigned int)p[2] << 8 | p[3];
}

int channel_send(int fd, int type, const void *body, size_t len, const int *fds, size_t nfds)
{
	unsigned char head[5];
	if (len > CHANNEL_MAX_BODY || nfds > MAX_FDS) {
		errno = EMSGSIZE;
		return -1;
	}
	channel_put32(head, (unsigned int)len);
	head[4] = (unsigned char)type;
	struct iovec iov[2] = {{head, sizeof head}, {(void *)body, len}};
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(MAX_FDS * sizeof(int))];
	} cm;
	struct msghdr m;
	memset(&m, 0, sizeof m);
	memset(&cm, 0, sizeof cm);
	m.msg_iov = iov;
	m.msg_iovlen = len ? 2 : 1;
	if (nfds) {
		m.msg_control = cm.buf;
		m.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	size_t total = sizeof head + len, done = 0;
	while (done < total) {
		ssize_t n = sendmsg(fd, &m, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
		/* The descriptors went with the first bytes; the rest is plain data. */
		m.msg_control = NULL;
		m.msg_controllen = 0;
		size_t skip = (size_t)n;
		while (m.msg_iovlen && skip >= m.msg_iov[0].iov_len) {
			skip -= m.msg_iov[0].iov_len;
			m.msg_iov++;
			m.msg_iovlen--;
		}
		if (m.msg_iovlen) {
			m.msg_iov[0].iov_base = (char *)m.msg_iov[0].iov_base + skip;
			m.msg_iov[0].iov_len -= skip;
		}
	}
	return 0;
}

int channel_send_control(int fd, int type, const void *body, size_t len)
{
	unsigned char m[5 + 8];
	if (len > 8) {
		errno = EMSGSIZE;
		return -1;
	}
	channel_put32(m, (unsigned int)len);
	m[4] = (unsigned char)type;
	if (len)
		memcpy(m + 5, body, len);
	ssize_t n;
	while ((n = send(fd, m, 5 + len, MSG_NOSIGNAL | MSG_DONTWAIT)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)(5 + len))
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

/* Reads exactly len bytes (the header), with any descriptors sent along. */
static int read_head(int fd, void *head, size_t len, int *fds, size_t *nfds)
{
	char *p = head;
	size_t done = 0, want = *nfds;
	*nfds = 0;
	while (done < len) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(MAX_FDS * sizeof(int))];
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
		if (n < 0)
			return -1;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int got[MAX_FDS + 8];
			if (k > sizeof got / sizeof got[0])
				k = sizeof got / sizeof got[0];
			memcpy(got, CMSG_DATA(c), k * sizeof(int));
			if (done != 0 || *nfds + k > want || (m.msg_flags & MSG_CTRUNC)) {
				close_fds(got, k);
				close_fds(fds, *nfds);
				*nfds = 0;
				errno = EPROTO;
				return -1;
			}
			memcpy(fds + *nfds, got, k * sizeof(int));
			*nfds += k;
		}
		if (m.msg_flags & MSG_CTRUNC) {
			close_fds(fds, *nfds);
			*nfds = 0;
			errno = EPROTO;
			return -1;
		}
		if (n == 0) {
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
	unsigned char head[5];
	size_t none = 0;
	if (!nfds)
		nfds = &none;
	int r = read_head(fd, head, sizeof head, fds, nfds);
	if (r <= 0)
		return r;
	size_t len = channel_get32(head), done = 0;
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
