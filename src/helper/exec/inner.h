/* SPDX-License-Identifier: ISC */
/*
 * inner.h - the inner helper, `ruas-exec --agent-fd 3`: what the target's
 * login shell runs, inside the run, once the login files are done. It
 * takes the AGENT message (agent.h) from descriptor 3 and makes the
 * agent's start exact whatever the login files did: the variables the run
 * sets (the allowlisted values, RUAS_RUN_ID, a person's TMPDIR, PWD) over
 * the login environment, the work_dir (the descriptor the outer helper
 * opened), the agent's own stdin, stdout and stderr, every signal at its
 * default and none blocked, no other descriptor; then it says START and
 * execs the agent's argv, byte for byte.
 */
#ifndef RUAS_INNER_H
#define RUAS_INNER_H

/* Never returns: the agent, or exit 125 (no start message), 126 or 127 (exec failed). */
_Noreturn void inner_main(void);

#endif
