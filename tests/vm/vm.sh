#!/bin/bash
# SPDX-License-Identifier: ISC
# tests/vm/vm.sh [-t SECONDS] [-T SECONDS] [-m MIB] SCRIPT [ARG...]: run SCRIPT as root
# (pid 1's child) in a VM that boots this machine's own Debian kernel
# package over its own root file system, for what this host cannot give a
# test: a cgroup v2 with every controller (here memory and pids are bound
# to cgroup v1), later systemd.
#
#   - qemu with TCG (nested KVM does not work on these machines), 2 CPUs;
#   - / shared read-only over virtio 9p, with a tmpfs overlay on top, so
#     that the guest may write anywhere (useradd, /etc/sudoers.d) and
#     nothing reaches the host;
#   - a cgroup2 mounted on /sys/fs/cgroup with +cpu +memory +pids enabled
#     for its children;
#   - SCRIPT and its arguments go in, and its stdout, stderr and exit
#     status come back, through a second 9p share that is writable;
#   - SCRIPT itself is bounded inside the guest (-T, default 600 s, from
#     its start, so the boot does not count): one that outlives it is
#     killed and that is an error; the whole VM is bounded too (-t,
#     default 900 s: a safety net, not a measurement).
#   - nothing of the guest can reach the host but regular files in the
#     exchange share (qemu's mapped-file model: the guest's modes, owners,
#     symlinks and device nodes are metadata there, never real ones), read
#     back as files, not followed, and bounded.
#
# Exit: SCRIPT's status (its 77 and 99 become 1: those are the harness's);
# 77 where no VM can run here (not root, no qemu or no Debian kernel: it
# says which, loudly); 99 when the VM itself failed or SCRIPT outlived -T
# (the console is printed). The initramfs is built once per kernel and
# harness, under $RUAS_VM_CACHE (default: $abs_top_builddir/tests/vm.cache,
# else /var/cache/ruas-vm), a directory root owns that nobody else may
# write, as it is the first code the guest runs as root.
set -u
timeout_s=900 script_s=600 mem=1024
while getopts t:T:m: o; do
	case $o in
	t) timeout_s=$OPTARG ;;
	T) script_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-T SECONDS] [-m MIB] SCRIPT [ARG...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-t SECONDS] [-T SECONDS] [-m MIB] SCRIPT [ARG...]" >&2; exit 2; }
script=$1
shift
here=$(cd "$(dirname "$0")" && pwd)

skip() {
	echo "SKIP: tests/vm: $*" >&2
	exit 77
}
[ "$(id -u)" = 0 ] || skip "the VM shares this machine's whole root file system and needs root to read it"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
command -v mkinitramfs >/dev/null || skip "mkinitramfs is not installed (apt-get install initramfs-tools)"
kernel=$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || skip "no Debian kernel in /boot (apt-get install linux-image-amd64)"
kver=${kernel#/boot/vmlinuz-}
[ -d "/lib/modules/$kver" ] || skip "no modules for $kver in /lib/modules"
[ -f "$script" ] || { echo "tests/vm: no script $script" >&2; exit 2; }

# root_only PATH: PATH is root's and nobody else may write it (or fail).
root_only() {
	local st
	st=$(stat -c '%u %a' -- "$1") || exit 99
	case $st in
	"0 "?[0145][0145] | "0 "[0145][0145]) return 0 ;;
	esac
	echo "tests/vm: $1 must be root's and writable by nobody else (it is: uid mode $st)" >&2
	exit 99
}

# The initramfs: Debian's tools with the 9p and overlay modules and a
# mountroot of our own (tests/vm/host9p), keyed by kernel and harness,
# built under a lock into a name of its own, then renamed into place.
cache=${RUAS_VM_CACHE:-${abs_top_builddir:+$abs_top_builddir/tests/vm.cache}}
cache=${cache:-/var/cache/ruas-vm}
mkdir -p -m 0700 -- "$cache" || exit 99
root_only "$cache"
key=$(cat "$here/host9p" "$here/vm.sh" | sha256sum | cut -c1-16)
initrd=$cache/initrd-$kver-$key.img
exec 9>>"$cache/.lock" || exit 99
flock 9 || exit 99
if [ ! -s "$initrd" ]; then
	conf=$(mktemp -d "$cache/initramfs-conf.XXXXXX") || exit 99
	tmp=$(mktemp "$cache/initrd.XXXXXX") || exit 99
	cp -r /etc/initramfs-tools/. "$conf/" || exit 99
	sed -i 's/^MODULES=.*/MODULES=list/; s/^COMPRESS=.*/COMPRESS=gzip/' "$conf/initramfs.conf"
	printf '%s\n' 9pnet 9pnet_virtio 9p virtio_pci overlay >"$conf/modules"
	install -m 0755 "$here/host9p" "$conf/scripts/host9p" || exit 99
	if ! mkinitramfs -d "$conf" -o "$tmp" "$kver" >"$cache/mkinitramfs.log" 2>&1; then
		echo "tests/vm: mkinitramfs failed:" >&2
		cat "$cache/mkinitramfs.log" >&2
		rm -rf "$conf" "$tmp"
		exit 99
	fi
	rm -rf "$conf"
	mv -f "$tmp" "$initrd" || exit 99
fi
exec 9>&-
root_only "$initrd"

# The exchange: the script, its arguments (one per line) and its bound go
# in, its output and status come back. The share is a directory of its
# own inside a 0700 one, where the console's log and qemu's stay apart.
work=$(mktemp -d /var/tmp/ruas-vm-run.XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
xfer=$work/xfer
mkdir -m 0700 "$xfer" || exit 99
install -m 0755 "$script" "$xfer/script" || exit 99
# What guest scripts source from beside themselves: a host set up for ruas.
install -m 0644 "$here/ruas_host.sh" "$xfer/ruas_host.sh" || exit 99
# pid 1 from a path without spaces or commas, whatever the checkout's is:
# the guest sees the host's /var/tmp at the same place.
install -m 0755 "$here/init.sh" "$work/init" || exit 99
echo "$script_s" >"$xfer/limit"
: >"$xfer/args"
for a in "$@"; do
	case $a in *$'\n'*) echo "tests/vm: an argument holds a newline" >&2; exit 2 ;; esac
	printf '%s\n' "$a" >>"$xfer/args"
done

timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
	-accel tcg,thread=multi -m "$mem" -smp 2 -display none -monitor none -no-reboot \
	-serial "file:$work/console.log" \
	-kernel "$kernel" -initrd "$initrd" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
	-fsdev local,id=xfer,path="$xfer",security_model=mapped-file \
	-device virtio-9p-pci,fsdev=xfer,mount_tag=xfer \
	-append "boot=host9p console=ttyS0 panic=-1 quiet init=$work/init" \
	</dev/null >"$work/qemu.log" 2>&1
qrc=$?

# back NAME: what the guest left as NAME, if a regular file, at most 16 MiB.
back() {
	[ -f "$xfer/$1" ] && [ ! -L "$xfer/$1" ] && head -c 16777216 -- "$xfer/$1"
}
back out
back err >&2
rc=$(back rc)
if [ -n "$(back timed_out)" ]; then
	echo "tests/vm: the script outlived -T $script_s s in the guest and was killed" >&2
	exit 99
fi
case $rc in
[0-9] | [0-9][0-9] | [0-9][0-9][0-9]) ;;
*)
	echo "tests/vm: the VM ended without the script's status (qemu exit $qrc$([ "$qrc" = 124 ] && echo ", killed after $timeout_s s")); its console:" >&2
	tail -c 8192 "$work/console.log" >&2
	tail -c 4096 "$work/qemu.log" >&2
	exit 99
	;;
esac
case $rc in
77 | 99)
	echo "tests/vm: the script exited $rc, which is the harness's own: reported as 1" >&2
	exit 1
	;;
esac
exit "$rc"
