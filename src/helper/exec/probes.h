/* SPDX-License-Identifier: ISC */
/* probes.h - what ruas-exec checks as the target user in check mode. */
#ifndef RUAS_PROBES_H
#define RUAS_PROBES_H

#include "buf.h"
#include "helper_report.h"

/* What `sudo -n true` and `sudo -n -l` did, run one way. */
struct esc_probe {
	int true_rc, list_rc; /* exit codes, 128+signal, or -errno: sudo did not start */
	struct buf list;      /* what the listing printed, stdout and stderr */
	int truncated;        /* it printed more than was kept */
};

/* A command run as the target beside sudo's: whether it ran, its exit code and output. */
struct cmd_probe {
	int ran;
	int rc; /* exit code, 128+signal, or -errno: it did not start */
	struct buf out;
};

/*
 * Runs, all at once, as the target: `SUDO -n true` and `SUDO -n -l`
 * without a terminal (*plain) and on a pty of their own (*tty), because
 * the agent can get a terminal whenever requiretty stands in its way;
 * `passwd -S` (*passwd: what the system's set-user-ID passwd says of this
 * user's own password, "USER NP ..." for an empty one; this program reads
 * no password database itself); and, where doas (opendoas) is installed,
 * `doas -n true` (*doas: 0 means a doas.conf rule lets it run commands as
 * root without a password; ran 0 where there is no doas).
 */
#define PASSWD_PATH "/usr/bin/passwd"
#define DOAS_PATH "/usr/bin/doas"
void probe_escalation(const char *sudo, struct esc_probe *plain, struct esc_probe *tty,
		      struct cmd_probe *passwd, struct cmd_probe *doas);

/* Runs argv with output captured into out; its exit code, 128+signal or -errno. */
int probe_run(const char *path, char *const argv[], struct buf *out);

/*
 * Can the target enter dir (search on every ancestor, read and search on
 * dir)? Fills d->state, and for a failure the component at fault.
 */
void probe_dir_access(const char *dir, struct dir_result *d);

#endif
