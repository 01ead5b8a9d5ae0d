/* SPDX-License-Identifier: ISC */
/*
 * host_notes.h - what a check says about the host once, not per project:
 * whether /proc shows agents' command lines to every local user, and what
 * this supervisor could not judge because only root can read it.
 */
#ifndef RUAS_CHECK_HOST_NOTES_H
#define RUAS_CHECK_HOST_NOTES_H

#include "ruas.h"

/*
 * From a mountinfo text: does the proc mounted on /proc (the topmost one)
 * keep other users' /proc/PID/cmdline from them (hidepid 1, 2 or 4, or
 * noaccess, invisible, ptraceable)? 1 yes, 0 no, -1 no proc on /proc.
 */
int proc_hides_cmdlines(const char *mountinfo);

/*
 * The "proc" warning (host item) when /proc shows every process's command
 * line to every user; judged from fs_root's proc/self/mountinfo (NULL: the
 * host's). Nothing when it cannot be read. -1 on OOM.
 */
int report_proc_cmdlines(ruas_report *rep, const char *fs_root);

/*
 * The files and directories beneath fs_root (NULL: "/") that the checks
 * read for ways up and that this process cannot read (EACCES): shadow's
 * empty passwords, doas.conf, polkit's rules, the PAM stacks judged. Each
 * one noted in rep (report_unjudged). -1 on OOM.
 */
int report_not_judged(ruas_report *rep, const char *fs_root);

#endif
