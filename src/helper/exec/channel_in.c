/* channel_in.c - see channel_in.h. */
#include "channel_in.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "channel.h"

static int refuse(const char *what, const char *why)
{
	fprintf(stderr, "ruas-exec: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	return -1;
}

/*
 * Is the listener the supervisor that sudo ran for? sudo puts the invoking
 * user's uid in SUDO_UID; a name that a stranger bound after the library
 * let go of it (a helper that came too late) has another uid. Root is
 * accepted as well: it can do anything a listener could, and a root
 * caller's check through another user (ruas-setup check) has that user's
 * uid in SUDO_UID.
 */
static int server_is_sudos_caller(int fd)
{
	const char *s = getenv("SUDO_UID");
	char *end;
	pid_t pid;
	uid_t uid;
	gid_t gid;
	if (!s || !*s)
		return refuse("refusing the channel", "SUDO_UID is not set (not started by sudo?)");
	errno = 0;
	unsigned long want = strtoul(s, &end, 10);
	if (errno || *end || (unsigned long)(uid_t)want != want)
		return refuse("refusing the channel", "SUDO_UID is not a uid");
	if (channel_peer(fd, &pid, &uid, &gid) < 0)
		return refuse("cannot identify the supervisor", strerror(errno));
	/* Root may listen too: `sudo -u VIA -- sudo -iu TARGET` from a root caller. */
	if (uid != (uid_t)want && uid != 0)
		return refuse("refusing the channel", "its owner is not the user who ran sudo");
	return 0;
}

/* A socket that ruas-session handed down as descriptor arg (named by opt): 0, or -1. */
static int handed_down(const char *opt, const char *arg, int *out)
{
	char *end;
	struct stat st;
	errno = 0;
	long fd = strtol(arg, &end, 10);
	if (errno || *end || fd < 3 || fd > 1024 || fstat((int)fd, &st) < 0 ||
	    !S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "ruas-exec: %s does not name a socket: %s\n", opt, arg);
		return -1;
	}
	/* ruas-session cleared close-on-exec for the shell; the agent must not get it. */
	if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0)
		return refuse("cannot keep the channel private", strerror(errno));
	*out = (int)fd;
	return 0;
}

int channel_in_open(int argc, char **argv, int *chan, int *init_fd)
{
	*init_fd = -1;
	if (argc == 5 && strcmp(argv[1], "--channel-fd") == 0 &&
	    strcmp(argv[3], "--init-fd") == 0 && strcmp(argv[2], argv[4]) != 0)
		return handed_down("--channel-fd", argv[2], chan) < 0 ||
				       handed_down("--init-fd", argv[4], init_fd) < 0
			       ? -1
			       : CHANNEL_VIA_FD;
	if (argc != 3)
		return CHANNEL_VIA_NONE;
	if (strcmp(argv[1], "--channel-fd") == 0)
		return handed_down("--channel-fd", argv[2], chan) < 0 ? -1 : CHANNEL_VIA_FD;
	if (strcmp(argv[1], "--channel") != 0)
		return CHANNEL_VIA_NONE;
	if (!channel_token_valid(argv[2]))
		return refuse("--channel needs a token of 32 hex digits", NULL);
	int fd;
	if (channel_connect(argv[2], &fd) < 0)
		return refuse("cannot reach the supervisor", strerror(errno));
	if (server_is_sudos_caller(fd) < 0) {
		close(fd);
		return -1;
	}
	*chan = fd;
	return CHANNEL_VIA_SOCKET;
}

/* fds[i] onto i, each exactly once, whatever their numbers. */
static int take_stdio(int fds[3])
{
	int high[3];
	for (int i = 0; i < 3; i++)
		if ((high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			return -1;
	for (int i = 0; i < 3; i++) {
		close(fds[i]);
		if (dup2(high[i], i) < 0)
			return -1;
		close(high[i]);
	}
	return 0;
}

int channel_in_payload(int chan, struct payload *p)
{
	struct buf body = BUF_INIT;
	int fds[3] = {-1, -1, -1}, type = 0;
	size_t nfds = 3;
	const char *why = NULL;
	int r = channel_recv(chan, &type, &body, fds, &nfds);
	if (r <= 0 || type != CHANNEL_PAYLOAD || (nfds != 3 && nfds != 0)) {
		for (size_t i = 0; i < nfds; i++)
			close(fds[i]);
		buf_free(&body);
		return refuse("no payload from the supervisor",
			      r < 0 ? strerror(errno) : r == 0 ? "it closed the channel" : "bad message");
	}
	buf_addc(&body, '\0');
	r = body.oom ? -1 : payload_decode(body.data, p, &why);
	buf_free(&body);
	/* A spawn's payload comes with the agent's stdio; a check's with none. */
	if (r == 0 && p->kind != PAYLOAD_EXEC && p->kind != PAYLOAD_CHECK) {
		/* Not ours: the caller refuses it by name; its descriptors go. */
		for (size_t i = 0; i < nfds; i++)
			close(fds[i]);
		return 0;
	}
	if (r == 0 && (p->kind == PAYLOAD_EXEC) != (nfds == 3)) {
		payload_free(p);
		why = "the agent's stdin, stdout and stderr come with an exec payload only";
		r = -1;
	}
	if (r < 0) {
		for (size_t i = 0; i < nfds; i++)
			close(fds[i]);
		return refuse("bad payload", why ? why : "out of memory");
	}
	if (nfds == 3 && take_stdio(fds) < 0) {
		payload_free(p);
		return refuse("cannot take the agent's stdio", strerror(errno));
	}
	return 0;
}

void channel_in_exit(int chan, int status, int rc, long survivors)
{
	unsigned char body[9];
	if (status == -1) {
		body[0] = CHANNEL_HELPER;
		channel_put32(body + 1, (unsigned int)rc);
	} else if (WIFSIGNALED(status)) {
		body[0] = CHANNEL_SIGNALED;
		channel_put32(body + 1, (unsigned int)WTERMSIG(status));
	} else {
		body[0] = CHANNEL_EXITED;
		channel_put32(body + 1, (unsigned int)WEXITSTATUS(status));
	}
	channel_put32(body + 5, survivors < 0 ? CHANNEL_SURVIVORS_UNKNOWN : (unsigned int)survivors);
	/* Nobody may be listening any more (the supervisor died): that is fine. */
	(void)channel_send(chan, CHANNEL_EXIT, body, sizeof body, NULL, 0);
}
