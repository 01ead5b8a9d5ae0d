#!/bin/bash
# SPDX-License-Identifier: ISC
# ruas's cgroup limits for real (issue 27): memory_max, tasks_max, cpu_max
# and cgroup_parent, through ruas_spawn() (tests/vm/limitspawn.c) and
# `ruas check`, in the VM (tests/vm/vm.sh; this
# host has memory and pids bound to cgroup v1), on the sudo backend as a
# non-root supervisor with a delegated cgroup and on the pam backend as
# root: each limit holds and is named, the target cannot leave its run's
# cgroup nor loosen it, a PAM session that moves ruas-session away does
# not take the run with it, a parent the supervisor cannot use is a fatal
# check and starts nothing, a run without limits is unchanged, and nothing
# of the target is left. tests/vm/limits_guest.sh runs inside; this judges.
# Skips loudly where no VM can run (tests/vm/vm.sh says why).
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
. "$abs_top_srcdir/tests/integration/vm_guest.sh"
: "${RUAS_BINDIR:?}" "${RUAS_LIBDIR:?}" "${RUAS_PKGLIBEXECDIR:?}" "${RUAS_SYSCONFDIR:?}"
built=${abs_top_builddir:?}/tests/vm/limitspawn
[ -x "$built" ] || { echo "limits_vm: $built not built" >&2; exit 99; }
# The guest sees this machine's files, not its /tmp: the build is installed
# beneath /var/tmp, as the sandboxes install it.
tmp=$(mktemp -d /var/tmp/ruas-limits-vm.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
if ! "${MAKE:-make}" -s -C "${abs_top_builddir:?}" install DESTDIR="$tmp/dest" >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log" >&2
	echo "ERROR: make install for the VM failed" >&2
	exit 99
fi
install -m 0755 "$built" "$tmp/limitspawn" || exit 99
install -m 0644 "$abs_top_srcdir/contrib/ansible/roles/ruas/library/ruas_check.py" "$tmp/ruas_check.py" ||
	exit 99
vm_guest 600 "$abs_top_srcdir/tests/vm/limits_guest.sh" "$tmp/dest" "$RUAS_BINDIR" \
	"$RUAS_LIBDIR" "$RUAS_PKGLIBEXECDIR" "$RUAS_SYSCONFDIR" "$tmp/limitspawn" "$tmp/ruas_check.py"
expect "the guest script ran to its end" test "$RC" = 0
expect "a supervisor still in its delegated cgroup: ruas check fails" test "$(val early.check.rc)" = 1
expect "... the limits finding says that cgroup holds processes" test "$(val early.check.says)" -ge 1
expect "... and to move into its leaf" test "$(val early.check.fix)" -ge 1
expect "sup's service moved itself into its leaf, as ruas-setup(8) says" \
	test "$(val sup.leaf)" = "0::/sup.service/supervisor"
for who in sup root; do
	case $who in
	sup) how="sudo, non-root supervisor, delegated cgroup_parent" where="0::/sup.service/run-" ;;
	root) how="pam, root supervisor, default parent" where="0::/ruas/run-" ;;
	esac
	# memory_max: 300 MB under 64M is killed, and the limit named.
	expect "$how: 300 MB under memory_max 64M ends the run: 137, limit memory" \
		has "$(all $who.hog.out)" "exit=137 limit=memory"
	expect "$how: ... ruas run's line names memory_max and its value" \
		has "$(all $who.hog.out)" 'ruas: project "hog": memory_max (67108864 bytes) reached: the kernel killed a process of the run (exit status 137)'
	expect "$how: ... and ruas run exits 137" has "$(all $who.hog.out)" "status=137"
	expect "$how: ... nothing of the target left" test "$(val $who.hog.left)" = 0
	# tasks_max: the fork loop never has more than 20 tasks in its cgroup.
	f=$(all $who.forky.out | grep '^forked=')
	current=${f##*current=}
	expect "$how: a fork loop under tasks_max 20 ran on ($f), limit tasks" \
		has "$(all $who.forky.out)" "exit=0 limit=tasks"
	expect "$how: ... never more than 20 tasks" test "${current:-99}" -le 20
	expect "$how: ... and forks were refused at the limit" hasnt "$f" "refused=0 "
	expect "$how: ... nothing of the target left" test "$(val $who.forky.left)" = 0
	# cpu_max: two busy loops under 0.5 use at most 0.6 of a CPU.
	b=$(all $who.busy.out | sed -n 's/^cpu_per_mille=//p')
	expect "$how: two busy loops under cpu_max 0.5 use at most 0.6 CPUs (per mille: $b)" \
		test "${b:-9999}" -le 600
	expect "$how: ... limit none" has "$(all $who.busy.out)" "exit=0 limit=none"
	expect "$how: ... nothing of the target left" test "$(val $who.busy.left)" = 0
	# The run is in its own cgroup; a run without limits is where it always was.
	expect "$how: a run with limits is in a cgroup of its own" has "$(all $who.where.out)" "$where"
	expect "$how: a run without limits is not" hasnt "$(all $who.plain.out)" "/run-"
	expect "$how: ... and ran (0)" has "$(all $who.plain.out)" "exit=0 limit=none"
	# The target tries to leave its cgroup and to loosen it.
	expect "$how: the target cannot move itself out of its run's cgroup" \
		hasnt "$(all $who.escape.out)" "moved-to="
	expect "$how: ... nor write its limits" hasnt "$(all $who.escape.out)" "wrote="
	expect "$how: ... nor make a cgroup in it" hasnt "$(all $who.escape.out)" "made-child"
	expect "$how: ... and is still in it" has "$(all $who.escape.out)" "$where"
	expect "$how: every run's cgroup removed at its end" test "$(val $who.runs_left)" = 0
	expect "$how: the audit records say which limit ended each run" \
		test "$(val $who.limits)" = "memory tasks none none none none "
	expect "$how: ... and the run's peak memory and CPU time" test "$(val $who.usage)" = ok
done
# A cgroup_parent the supervisor cannot use: fatal in the check, no start.
expect "no writable cgroup_parent: ruas check fails" test "$(val bad.check.rc)" = 1
expect "... with the limits finding" test "$(val bad.check.says)" -ge 1
expect "... the spawn refuses (RUAS_ERR_CONFIG), naming it" \
	has "$(all bad.run.out)" "error code=-1 stage=0 errno=0 message=project \"marker\": refusing to start user \"t1\": tasks_max needs a cgroup of each run's own, and none can be made"
expect "... and the agent never ran" test "$(val bad.marker)" = no
# pam_systemd moves ruas-session to a logind scope: the run stays in its cgroup.
expect "a PAM session that moves ruas-session did move it" test "$(val moved.by_pam)" -ge 1
expect "... but the run stayed in its own cgroup" has "$(all moved.out)" "0::/ruas/run-"
expect "... and ran (0)" has "$(all moved.out)" "exit=0 limit=none"
expect "without limits, the PAM session's move is left as it was" \
	has "$(all moved_plain.out)" "0::/logind-scope"
# pam_systemd in sudo's session stack moves sudo to a logind scope, before
# ruas's helper runs: the helper refuses to run anything of the target there.
expect "a PAM session of sudo's that moves sudo did move it" test "$(val sudo_moved.by_pam)" -ge 1
expect "... and the run with limits did not start: RUAS_ERR_START at the helper's stage" \
	has "$(all sudo_moved.out)" "error code=-8 stage=5 errno=0 message="
expect "... saying why" has "$(all sudo_moved.out)" \
	"refusing to run anything of the target outside its limits: the run's cgroup is \"/sup.service/run-"
expect "... nothing of the target ran" test "$(val sudo_moved.marker)" = no
expect "... nothing of the target left" test "$(val sudo_moved.left)" = 0
expect "without limits, sudo's PAM session's move is left as it was" \
	has "$(all sudo_moved_plain.out)" "0::/logind-scope"
# The Ansible role's check, told the supervisor's unit, checks from its leaf.
expect "the role's ruas_check, told the unit, ran ruas check in the service's leaf" \
	test "$(val checkmod.leaf.ran):$(val checkmod.leaf.cgroup)" = "1:/sys/fs/cgroup/sup.service/supervisor"
expect "... where the cgroup limits are no fatal finding" test "$(val checkmod.leaf.limits)" = 0
expect "... as sup (56910), with its own group alone and no capability" \
	test "$(val checkmod.leaf.who)" = "56910 56910 0000000000000000 /sup.service/supervisor"
expect "... and from Ansible's cgroup without the unit, as sup all the same" \
	test "$(val checkmod.here.who)" = "56910 56910 0000000000000000 /"
expect "a frozen leaf holds the check's child as sup, never as root (uids 56910 x4)" \
	test "$(val frozen.joined_uid)" = "56910,56910,56910,56910"
expect "... without a capability" test "$(val frozen.joined_caps)" = 0000000000000000
expect "... and, thawed, the check runs" test "$(val frozen.ran)" = 1
expect "... which they are from where Ansible runs, without the unit" \
	test "$(val checkmod.here.ran)" = 1 -a "$(val checkmod.here.limits)" -ge 1
expect "no run's cgroup is left at all" test "$(val leftover)" = 0
vm_guest_dump
tap_finish
