#!/bin/bash
# SPDX-License-Identifier: ISC
# tests/vm/init.sh - pid 1 of a tests/vm/vm.sh guest: the file systems a
# test expects, a cgroup2 with its controllers, then the script from the
# exchange share, as root, within its bound; its status goes back, and the
# guest powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo "+cpu +memory +pids" >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p /xfer
modprobe 9pnet_virtio 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 xfer /xfer
hostname ruas-vm
ip link set lo up 2>/dev/null
mapfile -t args </xfer/args
limit=$(cat /xfer/limit)
# The script in a process group of its own, and a watchdog that marks the
# overrun before it kills the group: a status of the script's (124
# included) is never taken for the bound.
setsid bash -c 'cd /tmp && exec /xfer/script "$@"' script "${args[@]}" >/xfer/out 2>/xfer/err </dev/null &
pid=$!
(sleep "$limit" && echo "$limit" >/xfer/timed_out && kill -KILL -- -"$pid") &
dog=$!
wait "$pid"
rc=$?
kill "$dog" 2>/dev/null
echo "$rc" >/xfer/rc.tmp
mv /xfer/rc.tmp /xfer/rc
sync
echo o >/proc/sysrq-trigger
sleep 60
