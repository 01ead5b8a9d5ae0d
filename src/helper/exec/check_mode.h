/* SPDX-License-Identifier: ISC */
/*
 * check_mode.h - ruas-exec's check mode: the startup probes (escalation,
 * the session's groups, trust anchors, the agent's PID namespace, work_dir
 * access and scan, bubblewrap, the audit's paths), as the target, sent
 * back as one REPORT over the channel (helper_report.h). No login file of
 * the target's has run before, and none runs here: nothing in its home can
 * change, fake or delay what the probes find.
 */
#ifndef RUAS_CHECK_MODE_H
#define RUAS_CHECK_MODE_H

#include "payload.h"

/* The probes of p, their REPORT sent on chan. The helper's exit code. */
int check_mode(const struct payload *p, int chan);

#endif
