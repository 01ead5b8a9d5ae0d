/*
 * ruas-exec - the part of ruas that runs as the target user.
 *
 * sudo -i hands its arguments to the target's login shell, which would
 * expand `$`, drop empty arguments and swallow newlines. So the supervisor
 * sends one hex argument that passes through untouched, and this helper
 * does what a shell wrapper cannot do exactly:
 *
 *   exec mode:  chdir(work_dir), allowlisted variables over the login
 *               environment, close stray descriptors, then run argv under
 *               the reaper (reaper.h), which ends the agent's whole tree.
 *   check mode: the startup probes (escalation, trust anchors, the agent's
 *               PID namespace, work_dir access, scan), reported on stdout between nonce-marked
 *               lines, in the records of src/common/proto/wire_write.h.
 *
 * Exit codes follow env(1): 125 the helper failed, 126 the command could
 * not be run, 127 it was not found.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "anchor_probe.h"
#include "buf.h"
#include "channel_in.h"
#include "contain.h"
#include "exit_status.h"
#include "lost_end.h"
#include "names.h"
#include "payload.h"
#include "people_exec.h"
#include "pidns.h"
#include "probes.h"
#include "reaper.h"
#include "quote.h"
#include "scan.h"
#include "wire_write.h"

#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

static void complain(const char *what, const char *arg, const char *why)
{
	struct buf b = BUF_INIT;
	buf_adds(&b, "ruas-exec: ");
	buf_adds(&b, what);
	if (arg) {
		buf_addc(&b, ' ');
		quote_display_dq(&b, arg);
	}
	if (why)
		buf_printf(&b, ": %s", why);
	buf_addc(&b, '\n');
	if (b.data)
		fputs(b.data, stderr);
	buf_free(&b);
}

/*
 * Every descriptor but 0, 1, 2, the channel and the init's control socket
 * closes: nothing of the login shell's (or of sudo's) may reach the agent.
 */
static void close_strays(int chan, int ctl)
{
	int keep[2] = {chan < ctl ? chan : ctl, chan < ctl ? ctl : chan};
	unsigned int from = 3;
	for (int i = 0; i < 2; i++) {
		if (keep[i] < 0)
			continue;
		if ((unsigned int)keep[i] > from)
			close_range(from, (unsigned int)keep[i] - 1, 0);
		from = (unsigned int)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

/*
 * A per-spawn work_dir: beneath the project's work_dir (root), which is
 * entered first, through the person's scope when there is one. The library
 * checked the same before the spawn; this check, as the target and on
 * descriptors, is the one that a swap in between cannot get past. An
 * O_PATH descriptor of the work_dir, or -1 with the reason said.
 */
static int open_beneath_root(const struct payload *p)
{
	char why[512];
	int rootfd = -1, fd = -1;
	int scoped = p->scope && *p->scope;
	enum contain_result r = contain_resolve(scoped ? p->scope : p->root, p->root, &rootfd, why,
						sizeof why, 0);
	if (r != CONTAIN_OK) {
		if (scoped && (r == CONTAIN_OUTSIDE || r == CONTAIN_ABSLINK))
			complain("work_dir is not contained in its person's scope", NULL, why);
		else
			complain("cannot enter work_dir", p->root, why);
		return -1;
	}
	r = contain_resolve_at(rootfd, p->root, p->work_dir, &fd, why, sizeof why, 0);
	close(rootfd);
	if (r == CONTAIN_OK)
		return fd;
	if (r == CONTAIN_OUTSIDE || r == CONTAIN_ABSLINK)
		complain("work_dir is not contained in its project's work_dir:", NULL, why);
	else
		complain("cannot enter work_dir", p->work_dir, why);
	return -1;
}

/* Into work_dir, as the target; a person's only through the scope. */
static int enter_work_dir(const struct payload *p)
{
	int fd = -1;
	if (p->root && *p->root) {
		if ((fd = open_beneath_root(p)) < 0)
			return -1;
	} else if (p->scope && *p->scope) {
		/* Enter the object that was checked, not the name again. */
		char why[512];
		if (contain_resolve(p->scope, p->work_dir, &fd, why, sizeof why, 0) != CONTAIN_OK) {
			complain("work_dir is not contained in its person's scope", NULL, why);
			return -1;
		}
	} else if (chdir(p->work_dir) < 0) {
		complain("cannot enter work_dir", p->work_dir, strerror(errno));
		return -1;
	}
	if (fd < 0)
		return 0;
	int r = fchdir(fd);
	close(fd);
	if (r < 0) {
		complain("cannot enter work_dir", p->work_dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int exec_mode(struct payload *p, struct reaper_options *ro)
{
	if (enter_work_dir(p) < 0)
		return EXIT_HELPER;
	for (size_t i = 0; i < p->nenv; i++) {
		/* RUAS_DENY_LIST is the library's own; everything else is allowlisted. */
		const char *why = strcmp(p->env_names[i], "RUAS_DENY_LIST") == 0
					  ? NULL
					  : env_name_refusal(p->env_names[i]);
		if (why) {
			complain("refusing variable", p->env_names[i], why);
			return EXIT_HELPER;
		}
		if (setenv(p->env_names[i], p->env_values[i], 1) < 0) {
			complain("cannot set", p->env_names[i], strerror(errno));
			return EXIT_HELPER;
		}
	}
	/* The audit's run id, so that the agent's own logs can name its run. */
	if (p->run_id && *p->run_id && setenv("RUAS_RUN_ID", p->run_id, 1) < 0) {
		complain("cannot set", "RUAS_RUN_ID", strerror(errno));
		return EXIT_HELPER;
	}
	/* The login shell left PWD at the home directory. */
	if (setenv("PWD", p->work_dir, 1) < 0 || unsetenv("OLDPWD") < 0) {
		complain("cannot set PWD", NULL, strerror(errno));
		return EXIT_HELPER;
	}
	if (p->exec_flags & EXEC_PRIVATE_TMP) {
		struct buf tmp = BUF_INIT;
		if (private_tmp(p->person, &tmp) < 0 || setenv("TMPDIR", tmp.data, 1) < 0 ||
		    setenv("CLAUDE_CODE_TMPDIR", tmp.data, 1) < 0) {
			buf_free(&tmp);
			return EXIT_HELPER;
		}
		buf_free(&tmp);
	}
	char **argv = p->argv;
	if (p->exec_flags & EXEC_BWRAP) {
		if (!bwrap_path()) {
			complain("enforce = \"bwrap\" but bwrap is not installed", NULL,
				 "apt-get install bubblewrap");
			return EXIT_HELPER;
		}
		if (!(argv = bwrap_argv(p->argv, p->deny, p->ndeny)))
			return EXIT_HELPER;
	}
	close_strays(ro->chan, ro->init_ctl);
	ro->supervisor = (pid_t)p->supervisor_pid;
	ro->supervisor_start = p->supervisor_start;
	ro->grace_seconds = p->grace_seconds;
	ro->lifetime = p->lifetime;
	ro->pty = (p->exec_flags & EXEC_PTY) != 0;
	int rc = reaper_run(argv, ro);
	if (argv != p->argv)
		free(argv);
	return rc;
}

/* getegid() and getgroups(); unreadable groups make the parser refuse the report. */
static void emit_session_groups(void)
{
	gid_t g[4096];
	int n = getgroups((int)(sizeof g / sizeof *g), g);
	wire_write_gids(stdout, getegid(), g, n);
}

/* Can bubblewrap run here, as this user? */
static void check_bwrap(void)
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
	wire_write_bwrap(stdout, rc, out.data);
	buf_free(&out);
}

/* Audit: can this user open (and list) each path? */
static void check_probes(const struct payload *p)
{
	for (size_t i = 0; i < p->nprobes; i++) {
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
		wire_write_probe(stdout, i, verdict);
	}
}


static void check_dir(size_t idx, const struct payload_dir *pd,
		      const struct payload *p)
{
	struct dir_result d;
	if (pd->scope && *pd->scope) {
		char why[512];
		int fd;
		if (contain_resolve(pd->scope, pd->work_dir, &fd, why, sizeof why, 0) != CONTAIN_OK) {
			struct dir_result escape = {.state = DIR_ESCAPE, .path = why};
			wire_write_dir(stdout, idx, &escape);
			return;
		}
		close(fd);
	}
	probe_dir_access(pd->work_dir, &d);
	wire_write_dir(stdout, idx, &d);
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
		wire_write_item(stdout, idx, &sr.items[i]);
	wire_write_scan(stdout, idx, sr.total, sr.entries, sr.incomplete);
	scan_result_free(&sr);
}

static int check_mode(struct payload *p)
{
	struct rlimit rl;
	/*
	 * Other processes of the target's uid (an agent still running) may not
	 * ptrace this one or open its descriptors through /proc, to change
	 * what the probes see or what the report says.
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		complain("cannot make the check private (PR_SET_DUMPABLE)", NULL, strerror(errno));
		return EXIT_HELPER;
	}
	/* The scan holds one descriptor per directory level. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	wire_write_begin(stdout, p->nonce);
	fflush(stdout);

	struct esc_probe plain = {0, 0, BUF_INIT, 0}, tty = {0, 0, BUF_INIT, 0};
	probe_escalation(p->sudo_path, &plain, &tty);
	wire_write_esc(stdout, 0, plain.true_rc, plain.list_rc, plain.list.data, plain.truncated);
	wire_write_esc(stdout, 1, tty.true_rc, tty.list_rc, tty.list.data, tty.truncated);
	/*
	 * The groups this login session really has: a PAM module (pam_group)
	 * may grant some that the group database does not list.
	 */
	emit_session_groups();
	/* The trust anchors; sudo's listing gives its secure_path. */
	check_anchors(p, plain.list.data);
	buf_free(&plain.list);
	buf_free(&tty.list);

	/* Before the scans and their threads: the probe forks and unshares. */
	if (p->check_flags & CHECK_USERNS) {
		char why[256];
		int e = pidns_probe(1, why, sizeof why);
		wire_write_lifetime(stdout, e, why);
	}
	for (size_t i = 0; i < p->ndirs; i++)
		check_dir(i, &p->dirs[i], p);
	if (p->check_flags & CHECK_BWRAP)
		check_bwrap();
	check_probes(p);
	wire_write_end(stdout, p->nonce);
	if (fflush(stdout) != 0 || ferror(stdout))
		return EXIT_HELPER;
	return 0;
}

/*
 * The payload, only from the channel: its variables, arguments and paths
 * are for the target alone, and a command line shows them to every local
 * user and to sudo's log.
 */
static int take_payload(int argc, char **argv, struct reaper_options *ro, struct payload *p)
{
	int via = channel_in_open(argc, argv, &ro->chan, &ro->init_ctl);
	if (via < 0)
		return -1;
	ro->via_fd = via == CHANNEL_VIA_FD;
	if (via == CHANNEL_VIA_NONE) {
		fputs(argc == 2 ? "ruas-exec: refusing a payload on the command line: it comes only "
				  "over the channel (are ruas and ruas-exec of the same version?)\n"
				: "ruas-exec: internal helper of ruas, started by libruas "
				  "through sudo; not for direct use\n",
		      stderr);
		return -1;
	}
	if (channel_in_payload(ro->chan, p) < 0)
		return -1;
	if (p->kind != PAYLOAD_EXEC && p->kind != PAYLOAD_CHECK) {
		/* A session payload is ruas-session's; anything else is nobody's. */
		complain("refusing a payload that is not for ruas-exec",
			 p->kind == PAYLOAD_SESSION ? "session" : "unknown", NULL);
		payload_free(p);
		return -1;
	}
	return 0;
}

/*
 * A namespace's init that no reaper took over (the helper failed before
 * the agent could start): its end of file ends it, and it is reaped here,
 * so that the helper never exits with a live namespace below it, where a
 * fork of anything at exit (a sanitizer's leak check does one) would land.
 */
static void end_init(struct reaper_options *ro)
{
	if (ro->init_ctl < 0)
		return;
	close(ro->init_ctl);
	ro->init_ctl = -1;
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct payload p;
	struct reaper_options ro = {.chan = -1, .init_ctl = -1, .status = -1, .survivors = -1};

	if (getuid() == 0 || geteuid() == 0) {
		fputs("ruas-exec: refusing to run as root: a run_as_user must be "
		      "an unprivileged account\n", stderr);
		return EXIT_HELPER;
	}
	memset(&p, 0, sizeof p);
	if (take_payload(argc, argv, &ro, &p) < 0) {
		end_init(&ro);
		if (ro.chan >= 0)
			channel_in_exit(ro.chan, -1, EXIT_HELPER, -1);
		return EXIT_HELPER;
	}
	int rc;
	switch (p.kind) {
	case PAYLOAD_EXEC:
		rc = exec_mode(&p, &ro);
		end_init(&ro);
		if (ro.chan >= 0)
			channel_in_exit(ro.chan, ro.status, rc, ro.survivors);
		/* Nobody is left to record the run's end: this side does. */
		if (ro.supervisor_lost)
			lost_end_record(&p, &ro);
		payload_free(&p);
		/*
		 * _exit: this process's children may go to a new PID namespace
		 * (lifetime pidns), where no at-exit handler can fork (a leak
		 * checker's does, and fails or hangs there). Nothing else is
		 * registered at exit.
		 */
		fflush(NULL);
		_exit(rc);
	case PAYLOAD_CHECK:
		close(ro.chan); /* the report goes to stdout, framed by its nonce */
		rc = check_mode(&p);
		break;
	default: /* take_payload() let no other kind through */
		rc = EXIT_HELPER;
		break;
	}
	payload_free(&p);
	return rc;
}
