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

/*
 * Runs `SUDO -n true` and `SUDO -n -l` as the target, all four at once:
 * without a terminal (*plain) and on a pty of their own (*tty), because
 * the agent can get a terminal whenever requiretty stands in its way.
 */
void probe_escalation(const char *sudo, struct esc_probe *plain, struct esc_probe *tty);

/*
 * `passwd -S` as the target: what the system's own (set-user-ID) passwd says
 * of this user's password, into out ("USER NP ..." for an empty one); its
 * exit code, 128+signal, or -errno when it could not start. This program
 * reads no password database itself.
 */
#define PASSWD_PATH "/usr/bin/passwd"
int probe_passwd(struct buf *out);

/*
 * `doas -n true` as the target, where doas (opendoas) is installed: 0 means
 * a doas.conf rule lets it run commands as root without a password. -1
 * (nothing run) where there is no doas; else as probe_run().
 */
#define DOAS_PATH "/usr/bin/doas"
int probe_doas(struct buf *out, int *ran);

/* Runs argv with output captured into out; its exit code, 128+signal or -errno. */
int probe_run(const char *path, char *const argv[], struct buf *out);

/*
 * Can the target enter dir (search on every ancestor, read and search on
 * dir)? Fills d->state, and for a failure the component at fault.
 */
void probe_dir_access(const char *dir, struct dir_result *d);

#endif
