/* SPDX-License-Identifier: ISC */
/* check_mode.c - see check_mode.h. */
#include "check_mode.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anchor_probe.h"
#include "command_lookup.h"
#include "buf.h"
#include "channel.h"
#include "contain.h"
#include "exit_status.h"
#include "helper_report_write.h"
#include "people_exec.h"
#include "pidns.h"
#include "probes.h"
#include "scan.h"
#include "userns.h"

/* getegid() and getgroups(); unreadable groups leave out the record, which fails the report. */
static void session_groups(struct buf *rep)
{
	gid_t g[4096];
	int n = getgroups((int)(sizeof g / sizeof *g), g);
	report_put_gids(rep, getegid(), g, n);
}

/* Can bubblewrap run here, as this user? */
static void check_bwrap(struct buf *rep)
{
	const char *bw = bwrap_path();
	struct buf out = BUF_INIT;
	int rc = -1;
	if (bw) {
		char *argv[] = {(char *)bw, "--dev-bind", "/", "/", "--die-with-parent",
				"--", "/bin/true", NULL};
		rc = probe_run(bw, argv, &out);
	} else {
		buf_adds(&out, "bwrap is not installed (apt-get install bubblewrap)");
	}
	report_put_bwrap(rep, rc, out.data);
	buf_free(&out);
}

/* Audit: can this user open (and list) each path? */
static void check_probes(struct buf *rep, const struct payload *p)
{
	for (size_t i = 0; i < p->nprobes && i < REPORT_MAX_PROBES; i++) {
		int verdict = PROBE_MISSING;
		struct stat st;
		if (lstat(p->probes[i], &st) == 0 || errno != ENOENT) {
			int fd = open(p->probes[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
			verdict = PROBE_DENIED;
			if (fd >= 0) {
				char c;
				DIR *d = S_ISDIR(st.st_mode) ? fdopendir(fd) : NULL;
				if (d) {
					verdict = readdir(d) || errno == 0 ? PROBE_READABLE : PROBE_DENIED;
					closedir(d);
				} else {
					verdict = read(fd, &c, 1) >= 0 ? PROBE_READABLE : PROBE_DENIED;
					close(fd);
				}
			}
		}
		report_put_probe(rep, i, verdict);
	}
}

static void check_dir(struct buf *rep, size_t idx, const struct payload_dir *pd,
		      const struct payload *p)
{
	struct dir_result d;
	if (pd->scope && *pd->scope) {
		char why[512];
		int fd;
		if (contain_resolve(pd->scope, pd->work_dir, &fd, why, sizeof why, 0) != CONTAIN_OK) {
			struct dir_result escape = {.state = DIR_ESCAPE, .path = why};
			report_put_dir(rep, idx, &escape);
			return;
		}
		close(fd);
	}
	probe_dir_access(pd->work_dir, &d);
	report_put_dir(rep, idx, &d);
	free(d.path);
	free(d.owner);
	if (d.state != DIR_OK)
		return;

	struct scan_options so = {.prune = (const char *const *)pd->prune,
				  .cap = p->scan_cap,
				  .seconds = p->scan_seconds};
	struct scan_result sr;
	if (scan_tree(pd->work_dir, &so, &sr) < 0)
		return; /* vanished since the access probe; nothing to report */
	for (size_t i = 0; i < sr.nitems; i++)
		report_put_item(rep, idx, &sr.items[i]);
	report_put_scan(rep, idx, sr.total, sr.entries, sr.incomplete);
	scan_result_free(&sr);
}

/* The projects' commands, looked up in the login environment's PATH as the agent's exec would. */
static void check_commands(struct buf *rep, const struct payload *p)
{
	const char *path = getenv("PATH");
	for (size_t i = 0; i < p->ncommands && i < REPORT_MAX_CMDS; i++) {
		struct cmd_lookup c;
		command_lookup(p->commands[i], path, &c);
		report_put_cmd(rep, i, c.state, c.path, c.searched);
	}
}

int check_mode(const struct payload *p, int chan)
{
	struct rlimit rl, fsize;
	struct buf rep = BUF_INIT;
	report_begin(&rep, REPORT_FROM_HELPER);
	/*
	 * The hard limits a run gets from sudo or PAM, which ruas-exec may only
	 * lower (run_limits.h): the library judges the project's against them.
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && getrlimit(RLIMIT_FSIZE, &fsize) == 0)
		report_put_rlimits(&rep,
				   rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : rl.rlim_max,
				   fsize.rlim_max == RLIM_INFINITY ? UINT64_MAX : fsize.rlim_max);
	/* The scan holds one descriptor per directory level. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	struct esc_probe plain = {0, 0, BUF_INIT, 0}, tty = {0, 0, BUF_INIT, 0};
	struct cmd_probe pw = {0, 0, BUF_INIT}, da = {0, 0, BUF_INIT};
	int known = (p->check_flags & CHECK_ESC_KNOWN) != 0;
	/* Known: the library kept them from a check whose key still holds; none is run. */
	if (!known) {
		probe_escalation(p->sudo_path, &plain, &tty, &pw, &da);
		report_put_esc(&rep, 0, plain.true_rc, plain.list_rc, plain.list.data,
			       plain.truncated);
		report_put_esc(&rep, 1, tty.true_rc, tty.list_rc, tty.list.data, tty.truncated);
	} else {
		report_put_esc_known(&rep);
	}
	/*
	 * The groups this login session really has: a PAM module (pam_group)
	 * may grant some that the group database does not list.
	 */
	session_groups(&rep);
	/* An empty password makes every rule that asks for one ask for nothing. */
	if (!known)
		report_put_passwd(&rep, pw.rc, pw.out.data);
	/* doas is a way up of its own, beside sudo's rules. */
	if (da.ran)
		report_put_doas(&rep, da.rc, da.out.data);
	buf_free(&pw.out);
	buf_free(&da.out);
	/* The trust anchors; sudo's listing gives its secure_path. */
	check_anchors(&rep, p, known ? p->known_listing : plain.list.data);
	buf_free(&plain.list);
	buf_free(&tty.list);

	/* Before the scans and their threads: the probe forks and unshares. */
	if (p->check_flags & CHECK_USERNS) {
		char why[256];
		int e = pidns_probe(userns_enter, why, sizeof why);
		report_put_lifetime(&rep, e, why);
	}
	for (size_t i = 0; i < p->ndirs; i++)
		check_dir(&rep, i, &p->dirs[i], p);
	if (p->check_flags & CHECK_BWRAP)
		check_bwrap(&rep);
	check_probes(&rep, p);
	check_commands(&rep, p);
	int r = channel_send_buf(chan, CHANNEL_REPORT, &rep);
	if (r < 0)
		fprintf(stderr, "ruas-exec: cannot send the check's report: %s\n", strerror(errno));
	buf_free(&rep);
	return r < 0 ? EXIT_HELPER : 0;
}
