#!/bin/bash
# SPDX-License-Identifier: ISC
# tests/vm/cgroup_guest.sh PROBE - run inside the VM by
# tests/integration/cgroup_vm.sh: tests/vm/cgroup_probe's cases as root
# beneath a cgroup of the root's, then as a user with a delegated subtree
# (what systemd's Delegate=yes gives a service), and as a user without one.
# Each line of a case's output is prefixed with the case's name.
set -u
probe=$1
uid=56900
P=/sys/fs/cgroup/ruas-vm
mkdir "$P" || exit 1
for c in place oom tasks cpu setup errors judge; do
	"$probe" "$P" "$c" | sed "s/^/$c./"
	echo "$c.rc=${PIPESTATUS[0]}"
done
# Delegated: the subtree and its cgroup.procs, subtree_control and threads
# are the user's; the user's own process sits in a leaf of it (sup), and
# its runs go beneath another (runs): no process in an inner cgroup.
D=/sys/fs/cgroup/deleg
mkdir "$D" "$D/sup" || exit 1
chown "$uid:$uid" "$D" "$D/cgroup.procs" "$D/cgroup.subtree_control" "$D/cgroup.threads" \
	"$D/sup" "$D/sup/cgroup.procs" "$D/sup/cgroup.subtree_control" "$D/sup/cgroup.threads"
echo "+memory +pids +cpu" >"$D/cgroup.subtree_control"
cat >/tmp/as_user.sh <<'USER'
probe=$1 D=$2
mkdir "$D/runs" || exit 1
"$probe" "$D/runs" place | sed s/^/deleg./
echo "deleg.rc=${PIPESTATUS[0]}"
"$probe" "$D/runs" oom | sed s/^/deleg_oom./
echo "deleg_oom.rc=${PIPESTATUS[0]}"
"$probe" /sys/fs/cgroup/ruas-vm place | sed s/^/undelegated./
echo "undelegated.rc=${PIPESTATUS[0]}"
"$probe" "$D/runs" judge | sed s/^/deleg_judge./
"$probe" /sys/fs/cgroup/ruas-vm judge | sed s/^/undelegated_judge./
USER
# Root puts the user's shell in its leaf (as systemd starts a service in its
# cgroup), then it is the user's.
bash -c 'echo $$ >"$1/sup/cgroup.procs" &&
	exec setpriv --reuid "$2" --regid "$2" --clear-groups bash /tmp/as_user.sh "$3" "$1"' \
	_ "$D" "$uid" "$probe"
echo "leftover=$(find /sys/fs/cgroup -mindepth 1 -type d -name 'run-*' | wc -l)"
