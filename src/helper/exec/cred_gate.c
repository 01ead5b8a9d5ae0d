/* SPDX-License-Identifier: ISC */
/* cred_gate.c - see cred_gate.h. */
#include "cred_gate.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "complain.h"
#include "pidns.h"

int cred_gate_open(const char *name, int gate, int ctl)
{
	struct sockaddr_un sa;
	size_t n = strlen(name);
	if (ctl < 0) {
		close(gate);
		complain("cannot serve the run's credentials", NULL,
			 "they need the run's PID namespace (lifetime = \"pidns\"), which tells a "
			 "process of this run from another of the same user; this run has none");
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (n + 1 > sizeof sa.sun_path) {
		close(gate);
		complain("cannot serve the run's credentials", name, "name too long");
		return -1;
	}
	/* Abstract: nothing on a file system to leave behind or to swap. */
	memcpy(sa.sun_path + 1, name, n);
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int r = l < 0 ? -1
		      : bind(l, (const struct sockaddr *)&sa,
			     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n));
	if (r == 0)
		r = listen(l, 64);
	if (r == 0)
		r = pidns_gate(ctl, l, gate, getuid());
	int e = errno;
	if (l >= 0)
		close(l);
	close(gate);
	if (r < 0) {
		complain("cannot serve the run's credentials", name, strerror(e));
		return -1;
	}
	return 0;
}
