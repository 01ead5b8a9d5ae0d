#!/bin/bash
# SPDX-License-Identifier: ISC
# bench/vm_guest.sh DEST BINDIR LIBDIR PKGLIBEXECDIR SYSCONFDIR SPAWNBENCH ROUNDS - run
# inside the VM by bench/run_vm: the cgroup limits' cost. On each backend
# (sudo as a non-root supervisor in its delegated service's leaf, pam as
# root with the default parent) bench/spawnbench spawns, interleaved in one
# process, a project with memory_max, tasks_max and cpu_max (a cgroup of
# its own per run: made, limits written, the first process cloned into it,
# cgroup.kill, emptied, removed) and the same project without them.
# Prints "sudo=BASELINE_MS LIMITED_MS" and "pam=...".
set -u
dest=$1 bindir=$2 libdir=$3 pkglibexecdir=$4 sysconfdir=$5 SPAWNBENCH=$6 rounds=$7
: "$bindir"
HELPER=$dest$pkglibexecdir/ruas-exec SESSION=$dest$pkglibexecdir/ruas-session
export LD_LIBRARY_PATH=$dest$libdir
sup_uid=56920 t1_uid=56921
. "$(dirname "$0")/ruas_host.sh"
sup_service_start >/dev/null || exit 1
for b in sudo pam; do
	parent=
	[ "$b" = sudo ] && parent="cgroup_parent = \"$D\";"
	cat >"/etc/ruas-vm/$b.conf" <<EOC
helper = "$HELPER";
session_helper = "$SESSION";
backend = "$b";
$parent
projects = (
  { name = "bare"; run_as_user = "t1"; work_dir = "/srv/work"; command = ["/bin/true"]; },
  { name = "limited"; run_as_user = "t1"; work_dir = "/srv/work"; command = ["/bin/true"];
    memory_max = "256M"; tasks_max = 64; cpu_max = 1.0; }
);
EOC
	chmod 644 "/etc/ruas-vm/$b.conf"
done
echo "sudo=$(as_sup "$SPAWNBENCH" /etc/ruas-vm/sudo.conf limited "$rounds" -- @bare </dev/null)"
echo "pam=$("$SPAWNBENCH" /etc/ruas-vm/pam.conf limited "$rounds" -- @bare </dev/null)"
echo "runs_left=$(find "$C" -mindepth 2 -type d -name 'run-*' | wc -l)"
