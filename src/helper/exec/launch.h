/* SPDX-License-Identifier: ISC */
/*
 * launch.h - the run's first exec inside its confinement: the target's own
 * login shell, which only now may read the target's login files, and
 * which runs the inner helper, which execs the agent (agent.h).
 *
 * The outer helper (this process, the first program of the run as the
 * target) prepares it all before it forks: the shell of the target's
 * passwd entry (the payload's: the library looked it up), started as a login shell (argv[0] "-bash", as sudo -i and
 * login(1) start it) with -c "exec HELPER --agent-fd 3", in the target's
 * home; under bubblewrap for a person (EXEC_BWRAP), bwrap runs
 * `HELPER --login-fd 3 SHELL HOME` first, which starts the same login shell inside
 * the masks. The AGENT message is on its way before the fork: the agent's
 * argv, the variables the run sets after the login files, its work_dir
 * and stdio, for the inner helper on descriptor 3.
 *
 * What the login files see: stdin /dev/null (or the agent's pty, where
 * the agent has one, as sudo -i's login shell has the terminal), stdout
 * and stderr the agent's stderr (so their chatter never reaches a stdout
 * that the supervisor parses), descriptor 3, and the login environment
 * (login_env.h). Whatever they do happens inside the run and ends with it.
 */
#ifndef RUAS_LAUNCH_H
#define RUAS_LAUNCH_H

#include <signal.h>

#include "agent.h"
#include "payload.h"
#include "run_limits.h"

struct launch {
	char *path;  /* what the child execs: the login shell, or bwrap */
	char **argv; /* its argv */
	int cont;    /* the inner helper's end of the AGENT/START channel: its descriptor 3 */
	int news;    /* the outer helper's end: START arrives here (non-blocking), -1 once closed */
	int bwrap_args; /* bwrap's options (people_exec.h bwrap_options()), or -1 */
	int stdin_tty; /* stdin is the agent's pty: the login shell has it too */
	char *home;  /* where the login shell starts */
	/* What START said: */
	int started;    /* 1 once the agent's exec was next */
	int exec_errno; /* its errno when that exec (or the work_dir) failed, else 0 */
	int no_work_dir; /* it was the work_dir that failed (START_NO_WORK_DIR) */
	int said;       /* any START came at all */
	/* START_EXEC's pipe (agent.h): its end of file is the exec done; -1: none, or seen */
	int exec_pipe;
	int exec_pipe_taken; /* one was taken: no other START_EXEC's is */
	int shell_is_child; /* the login shell is the process the reaper forks (no pty, no bwrap) */
	pid_t shell;    /* then its pid, the only sender whose START counts; 0: any (launch_news()) */
	int told;       /* STARTED went to the library (started.h) */
	pid_t agent_pid; /* who sent START_EXEC (SO_PASSCRED): the agent, in this PID namespace */
	int pid_level;  /* this process's PID namespace below its /proc's (proc.h), -1: unknown */
	int exec_ok;    /* the agent's exec succeeded: its pipe ended with no START_FAILED */
	int login_refused;    /* the login shell cannot give a login environment (launch_prepare) */
	int work_dir_refused; /* the outer helper could not enter the work_dir: the errno, else 0 */
	struct run_rlimits rlimits; /* set in the child before its exec (run_limits.h) */
	/* owned storage */
	char **owned;
	size_t nowned;
};

/*
 * Prepares l for p (its helper path, flags and deny list) and sends the
 * AGENT message: a, with the agent's stdio (this process's 0, 1, 2); tmp:
 * the person's private temp directory, or NULL (bwrap_options() masks the
 * others'). 0, or -1 after a complaint on stderr.
 */
int launch_prepare(struct launch *l, const struct payload *p, const struct agent_start *a,
		   const char *tmp);
/* In the forked child: descriptors, home, signal mask old, then the exec. Never returns. */
_Noreturn void launch_exec(const struct launch *l, const sigset_t *old);
/*
 * What START said since the last call; closes news at its end. Only the
 * shell's process (shell, when known) is heard: the inner helper is what
 * the login shell execs, and the processes a login file starts are
 * others. A START_EXEC counts only with its pipe, a START_FAILED only
 * after it.
 */
void launch_news(struct launch *l);
/*
 * exec_pipe's poll revents: at its end of file (POLLHUP, no bytes) it is
 * closed (-1), and what START said before it decides: 1 when the agent's
 * exec succeeded, 0 when it failed or has yet to end. One with bytes (a
 * fake's) is closed unread, and never says it succeeded.
 */
int launch_exec_done(struct launch *l, short revents);
/* The run's first process, first, was forked: cont is closed, and shell set. */
void launch_forked(struct launch *l, pid_t first);
/*
 * When ended, the run's first process has ended, and with it any exec of
 * the agent's (which came before): an exec pipe not ended and told by now
 * is a login file's, closed unjudged, so that its end (its holder killed)
 * never says a start that never was.
 */
void launch_first_ended(struct launch *l, int ended);
void launch_free(struct launch *l);

/*
 * `ruas-exec --login-fd 3 SHELL HOME` under bubblewrap: the login shell
 * SHELL (which the outer helper judged) as above, in HOME, with
 * descriptor 3 and everything else as it came. Never returns.
 */
_Noreturn void launch_login_shell(const char *self, const char *shell, const char *home);

#endif
