/* SPDX-License-Identifier: ISC */
/*
 * cred_gate.h - the run's credential gate (docs/credentials.md), as the
 * helper sets it up: a listening unix socket at the abstract name the
 * payload gives, handed with the library's end of the gate to the run's
 * PID namespace init (pidns.h PIDNS_GATE), which alone can tell whether a
 * peer is inside the run. The helper keeps neither.
 */
#ifndef RUAS_CRED_GATE_H
#define RUAS_CRED_GATE_H

/*
 * name: the payload's credentials ("" none); gate: the library's end; ctl:
 * the init's control socket. Closes gate either way. 0, or -1 after a
 * complaint (the agent must not start: it was promised credentials).
 */
int cred_gate_open(const char *name, int gate, int ctl);

#endif
