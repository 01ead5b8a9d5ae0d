/* SPDX-License-Identifier: ISC */
/*
 * ruas-exec - the part of ruas that runs as the target user, and the first
 * program of every call ruas makes as the target: sudo (sudo -n -u T --
 * ruas-exec --channel-fd 0) and ruas-session run it directly, never
 * through a login shell, so that nothing the target can write runs before
 * it. It is not dumpable from its first instruction (and, installed
 * unreadable, from its exec): no other process of the target's uid may
 * ptrace it, read its memory or take its descriptors.
 *
 *   --channel-fd N [--init-fd M]   the supervisor's channel (channel.h):
 *       exec mode   (exec_mode.h) the run: work_dir, confinement, then the
 *                   target's login shell inside it, the agent below it;
 *       check mode  (check_mode.h) the startup probes, reported over the
 *                   channel;
 *   --agent-fd 3   the inner helper (inner.h), which the login shell runs
 *                  inside the run, after the login files: the agent's exec;
 *   --login-fd 3 SHELL HOME   under bubblewrap, the login shell's start (launch.h).
 *
 * Exit codes follow env(1): 125 the helper failed, 126 the command could
 * not be run, 127 it was not found.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel_in.h"
#include "check_mode.h"
#include "complain.h"
#include "exec_mode.h"
#include "exit_status.h"
#include "inner.h"
#include "launch.h"
#include "lost_end.h"
#include "payload.h"
#include "proc.h"
#include "reaper.h"
#include "started.h"
#include "tell_started.h"
#include "userns.h"

/* `--NAME 3`: the helper's inner modes, each on descriptor 3 only. */
static int inner_mode(int argc, char **argv, const char *name)
{
	return argc == 3 && strcmp(argv[1], name) == 0 && strcmp(argv[2], "3") == 0;
}

/*
 * The payload, only from the channel: its variables, arguments and paths
 * are for the target alone, and a command line shows them to every local
 * user and to sudo's log. 0; -1 before the HELLO, -2 after it (the library
 * then waits for STARTED).
 */
static int take_payload(int argc, char **argv, struct reaper_options *ro, struct payload *p)
{
	int got = channel_in_open(argc, argv, &ro->chan, &ro->init_ctl);
	if (got < 0)
		return -1;
	if (got == 0) {
		fputs(argc == 2 ? "ruas-exec: refusing a payload on the command line: it comes only "
				  "over the channel (are ruas and ruas-exec of the same version?)\n"
				: "ruas-exec: internal helper of ruas, started by libruas "
				  "through sudo; not for direct use\n",
		      stderr);
		return -1;
	}
	/* Descriptor 3 is ruas-session's (pam), 0 sudo's stdin. */
	ro->via_fd = strcmp(argv[2], "0") != 0;
	/* The library sends the payload only now: never into sudo's I/O log (payload.h). */
	if (channel_in_hello(ro->chan) < 0)
		return -1;
	return channel_in_payload(ro->chan, p, &ro->gate) < 0 ? -2 : 0;
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

/* The run, its EXIT, and the end record when nobody else is left to make it. */
static _Noreturn void run(struct payload *p, struct reaper_options *ro)
{
	struct msg_exit e;
	ro->started_ms = monotonic_ms();
	int rc = exec_mode(p, ro, &e);
	userns_release();
	end_init(ro);
	int told = channel_in_exit(ro->chan, &e) == 0;
	/* Nobody is left to record the run's end: this side does. */
	int alive = ro->supervisor_watched ? !ro->supervisor_lost : lost_end_supervisor_alive(p);
	if (ro->supervisor_lost || (!told && !ro->library_records_end && !alive))
		lost_end_record(p, &e, ro->started_ms);
	payload_free(p);
	/*
	 * _exit: this process's children may go to a new PID namespace
	 * (lifetime pidns), where no at-exit handler can fork (a leak
	 * checker's does, and fails or hangs there). Nothing else is
	 * registered at exit.
	 */
	fflush(NULL);
	_exit(rc);
}

int main(int argc, char **argv)
{
	struct payload p;
	struct reaper_options ro = {.chan = -1, .init_ctl = -1, .gate = -1, .status = -1,
				   .survivors = -1};

	/* First: until its exec the process was sudo's, and nothing of the target's may reach in. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		perror("ruas-exec: PR_SET_DUMPABLE");
		return EXIT_HELPER;
	}
	if (getuid() == 0 || geteuid() == 0) {
		fputs("ruas-exec: refusing to run as root: a run_as_user must be "
		      "an unprivileged account\n", stderr);
		return EXIT_HELPER;
	}
	if (inner_mode(argc, argv, "--agent-fd"))
		inner_main();
	if (argc == 5 && strcmp(argv[1], "--login-fd") == 0 && strcmp(argv[2], "3") == 0)
		launch_login_shell(argv[0], argv[3], argv[4]);
	/* What the helper says last is also the reason a failed start gives (started.h). */
	if (complain_keep() < 0) {
		perror("ruas-exec: stderr");
		return EXIT_HELPER;
	}
	/*
	 * Until the reaper takes it (reaper.c, continue_sudo()): a SIGCONT
	 * after a stop that a process of the target's caused, kept pending.
	 */
	sigset_t cont;
	if (sigemptyset(&cont) < 0 || sigaddset(&cont, SIGCONT) < 0 ||
	    sigprocmask(SIG_BLOCK, &cont, NULL) < 0) {
		perror("ruas-exec: sigprocmask");
		return EXIT_HELPER;
	}
	/* On the sudo backend, before anything is read: the maker of the user namespace. */
	if (argc >= 3 && strcmp(argv[1], "--channel-fd") == 0 && strcmp(argv[2], "0") == 0 &&
	    userns_prepare() < 0) {
		perror("ruas-exec: fork");
		return EXIT_HELPER;
	}
	memset(&p, 0, sizeof p);
	int took = take_payload(argc, argv, &ro, &p);
	if (took < 0) {
		if (ro.gate >= 0)
			close(ro.gate);
		userns_release();
		end_init(&ro);
		if (took == -2)
			(void)tell_started_failed(ro.chan, STARTED_STAGE_HELPER, 0,
						  *complain_last() ? complain_last()
								   : "the ruas helper refused its payload",
						  LIFETIME_SUBREAPER);
		struct msg_exit e = {EXIT_HOW_HELPER, EXIT_HELPER, MSG_EXIT_SURVIVORS_UNKNOWN, 0};
		(void)channel_in_exit(ro.chan, &e);
		return EXIT_HELPER;
	}
	if (p.kind == PAYLOAD_EXEC)
		run(&p, &ro);
	if (ro.gate >= 0)
		close(ro.gate); /* a check's payload brings none: channel_in_payload() */
	int rc = check_mode(&p, ro.chan);
	userns_release();
	end_init(&ro);
	payload_free(&p);
	return rc;
}
