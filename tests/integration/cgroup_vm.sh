#!/bin/bash
# SPDX-License-Identifier: ISC
# A run's own cgroup v2 (src/lib/cgroup/run.c) and the launcher that starts
# its first process inside it (src/lib/spawn/clone_into.c), against a real
# kernel's cgroup v2 in the VM (tests/vm/vm.sh; this host has memory and
# pids bound to cgroup v1): tests/vm/cgroup_probe's cases, judged here.
# Skips loudly where no VM can run (tests/vm/vm.sh says why).
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
. "$abs_top_srcdir/tests/integration/vm_guest.sh"
built=${abs_top_builddir:?}/tests/vm/cgroup_probe
[ -x "$built" ] || { echo "cgroup_vm: $built not built" >&2; exit 99; }
tmp=$(mktemp -d /var/tmp/ruas-cgroup-vm.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
# The guest has a /tmp of its own (a build tree there is out of its sight),
# and its user half runs as another uid: a copy it can reach (the directory
# 0711, its other files unlisted).
chmod 0711 "$tmp" && install -m 0755 "$built" "$tmp/cgroup_probe" || exit 99
probe=$tmp/cgroup_probe
vm_guest 300 "$abs_top_srcdir/tests/vm/cgroup_guest.sh" "$probe"
expect "the guest script ran to its end" test "$RC" = 0
for c in place oom tasks cpu setup errors; do
	expect "$c: the probe ran to its end" test "$(val "$c.rc")" = 0
	expect "$c: killed, empty, removed and gone" \
		test "$(val "$c.kill")$(val "$c.empty")$(val "$c.populated")$(val "$c.removed")$(val "$c.gone")" = "00001"
done
# place: the first process and all it forked are in the run's cgroup from the start.
expect "place: the child sees itself in the run's cgroup" has "$(val place.child)" "0::/ruas-vm/run-"
expect "place: the shell and both sleeps are in it" test "$(val place.procs)" = 3
expect "place: cgroup.kill ended the shell (SIGKILL)" test "$(val place.status)" = 137
expect "place: the clone's pidfd is the child's" test "$(val place.pidfd_is_child)" = 1
expect "place: ... and close-on-exec" test "$(val place.pidfd_cloexec)" = 1
# oom: memory_max holds, and the kernel's count says so.
expect "oom: 300 MB under memory_max 64M is killed (137)" test "$(val oom.status)" = 137
expect "oom: memory.events counts the OOM kill" test "$(val oom.oom_kills)" -ge 1
# tasks: pids.max holds, and refused forks are counted.
refused=$(val tasks.out.0)
refused=${refused#refused }
expect "tasks: the fork loop went on to its end, refused at the limit ($refused of 100)" \
	test "$refused" -ge 80
expect "tasks: ... and went on (exit 0)" test "$(val tasks.status)" = 0
expect "tasks: never more than tasks_max 20 processes" test "$(val tasks.procs)" -le 20
expect "tasks: ... and it reached the limit" test "$(val tasks.procs)" -ge 15
expect "tasks: pids.events counts the refused forks" test "$(val tasks.pids_max_events)" -ge 1
# cpu: two busy loops under cpu_max 0.5 use at most 0.6 of a CPU.
expect "cpu: both loops ran out their time" test "$(val cpu.status)" = 0
expect "cpu: at most 0.6 CPUs under cpu_max 0.5 (per mille: $(val cpu.cpu_per_mille))" \
	test "$(val cpu.cpu_per_mille)" -le 600
expect "cpu: ... and not starved" test "$(val cpu.cpu_per_mille)" -ge 300
# setup: what posix_spawn would give, the caller's stray descriptor not among it.
expect "setup: descriptors 0 1 2 only" test "$(val setup.out.0)" = "0 1 2 "
expect "setup: an empty signal mask" has "$(val setup.out.1)" "0000000000000000"
expect "setup: no ignored signal (the caller's SIG_IGN is not inherited)" \
	has "$(val setup.out.2)" "0000000000000000"
sidpid=$(val setup.out.3)
sid=${sidpid%% *} pid=${sidpid##* }
expect "setup: a session of its own ($sidpid)" test -n "${pid#pid=}" -a "${sid#sid=}" = "${pid#pid=}"
expect "setup: stdin is /dev/null" test "$(val setup.out.4)" = /dev/null
# errors: the launcher's failures come back as errnos, nothing left behind.
expect "errors: a missing program is ENOENT (2)" test "$(val errors.missing)" = 2
expect "errors: ... and leaves no zombie" test "$(val errors.zombie)" = 0
expect "errors: ... nor its pidfd" test "$(val errors.fd_leak)" = 0
expect "errors: a directory that is no cgroup is refused" test "$(val errors.not_cgroup)" != 0
expect "errors: a cgroup with controllers for its children takes no process (EBUSY 16)" \
	test "$(val errors.inner)" = 16
# A user with a delegated subtree runs the same way; without one it cannot.
expect "delegated: a user's run in its own subtree" has "$(val deleg.child)" "0::/deleg/runs/run-"
expect "delegated: the shell and both sleeps are in it" test "$(val deleg.procs)" = 3
expect "delegated: killed, empty, removed" \
	test "$(val deleg.kill)$(val deleg.empty)$(val deleg.removed)$(val deleg.gone)" = 0001
expect "delegated: memory_max holds for the user's run too (137)" test "$(val deleg_oom.status)" = 137
expect "delegated: ... counted" test "$(val deleg_oom.oom_kills)" -ge 1
expect "undelegated: a user cannot make a run beneath root's cgroup" \
	test "$(val undelegated.error)" = "mkdir: Permission denied"
# The judge (cgroup/judge.c; verdicts as in judge.h) on the kernel's own files.
expect "judge: root's parent beneath the top is usable" test "$(val judge.parent)" = "0 /ruas-vm 0"
expect "judge: the top, where root's probe runs, is usable too (exempt)" test "$(val judge.own)" = "0 / 0"
expect "judge: the user's delegated runs is usable" test "$(val deleg_judge.parent)" = "0 /deleg/runs 0"
expect "judge: the user's own leaf holds its process: nothing handed down from it" \
	test "$(val deleg_judge.own)" = "6 /deleg/sup 7"
expect "judge: root's parent is no user's to make runs in" \
	test "$(val undelegated_judge.parent)" = "3 /ruas-vm 0"
expect "nothing of any run is left" test "$(val leftover)" = 0
vm_guest_dump
tap_finish
