#!/bin/bash
# SPDX-License-Identifier: ISC
# tests/vm/smoke_guest.sh HOSTFILE ARG SECRET - run inside the VM by tests/vm.sh:
# what the harness promises, as key=value lines for the host to judge.
set -u
echo "kernel=$(uname -r)"
echo "controllers=$(cat /sys/fs/cgroup/cgroup.subtree_control)"
echo "args=$#|$2"
# A cgroup v2 with every controller: memory.max OOM-kills what outgrows it.
mkdir /sys/fs/cgroup/smoke
echo 50M >/sys/fs/cgroup/smoke/memory.max
echo 0 >/sys/fs/cgroup/smoke/memory.swap.max
bash -c 'echo $$ >/sys/fs/cgroup/smoke/cgroup.procs &&
	exec /usr/bin/python3 -c "b = bytearray(200 * 1024 * 1024); print(len(b))"'
echo "python_status=$?"
echo "oom_kill=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/smoke/memory.events)"
# The root is writable, and what is written stays in the guest.
echo guest >"$1" && echo "wrote=$1"
echo "uid=$(id -u)"
# A hostile guest: its stderr a symlink to a host file only root may read,
# a device node of the host's disk beside it. The host reads back files,
# never follows them, and no node of the guest's is a real one there.
exec 2>&-
ln -sf "$3" /xfer/err
mknod /xfer/disk b 8 0 2>/dev/null
chmod 0777 /xfer
exit 7
