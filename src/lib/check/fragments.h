/* SPDX-License-Identifier: ISC */
/*
 * fragments.h - the "sudoers_fragment" warnings (host items): a fragment
 * that ruas-setup wrote and that still grants a renamed supervisor, or
 * users who are the run_as_user of no project (issue 28). Judged as
 * ruas-setup prune judges (src/common/setup_fragment_scan.h), whose
 * command is the fix.
 */
#ifndef RUAS_CHECK_FRAGMENTS_H
#define RUAS_CHECK_FRAGMENTS_H

#include "ruas.h"

/*
 * Reads fs_root's (NULL: the host's) /etc/sudoers.d. The current
 * supervisor is cfg's supervisor key; unset, every supervisor of a fragment
 * that grants a user of a project, as ruas-setup prune takes it. A directory or a fragment this user cannot read (0750
 * and 0440 root) is noted as unjudged, not a finding. -1 on OOM.
 */
int report_setup_fragments(ruas_report *rep, const struct ruas_config *cfg,
			   const char *fs_root);

#endif
