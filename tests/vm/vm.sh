#!/bin/bash
# tests/vm/vm.sh [-t SECONDS] [-m MIB] SCRIPT [ARG...]: run SCRIPT as root
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
#   - the whole run is bounded (-t, default 900 s: a safety net, not a
#     measurement): a guest that never ends is killed, and that is an error.
#
# Exit: SCRIPT's status; 77 where no VM can run here (not root, no qemu or
# no Debian kernel: it says which, loudly); 99 when the VM itself failed
# (the console log is printed). The initramfs is built once per kernel
# and harness, under $RUAS_VM_CACHE (default: $abs_top_builddir/tests/vm,
# else /var/tmp/ruas-vm).
set -u
timeout_s=900 mem=1024
while getopts t:m: o; do
	case $o in
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-m MIB] SCRIPT [ARG...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-t SECONDS] [-m MIB] SCRIPT [ARG...]" >&2; exit 2; }
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

# The initramfs: Debian's tools with the 9p and overlay modules and a
# mountroot of our own (tests/vm/host9p), keyed by kernel and harness.
cache=${RUAS_VM_CACHE:-${abs_top_builddir:+$abs_top_builddir/tests/vm}}
cache=${cache:-/var/tmp/ruas-vm}
mkdir -p "$cache" || exit 99
key=$(cat "$here/host9p" "$0" | sha256sum | cut -c1-16)
initrd=$cache/initrd-$kver-$key.img
if [ ! -s "$initrd" ]; then
	conf=$(mktemp -d "$cache/initramfs-conf.XXXXXX") || exit 99
	cp -r /etc/initramfs-tools/. "$conf/" || exit 99
	sed -i 's/^MODULES=.*/MODULES=list/; s/^COMPRESS=.*/COMPRESS=gzip/' "$conf/initramfs.conf"
	printf '%s\n' 9pnet 9pnet_virtio 9p virtio_pci overlay >"$conf/modules"
	install -m 0755 "$here/host9p" "$conf/scripts/host9p" || exit 99
	if ! mkinitramfs -d "$conf" -o "$initrd.tmp" "$kver" >"$cache/mkinitramfs.log" 2>&1; then
		echo "tests/vm: mkinitramfs failed:" >&2
		cat "$cache/mkinitramfs.log" >&2
		rm -rf "$conf" "$initrd.tmp"
		exit 99
	fi
	rm -rf "$conf"
	mv "$initrd.tmp" "$initrd" || exit 99
fi

# The exchange: the script, its arguments (one per line, NUL-free), and
# what comes back. Made where the guest sees it at the same path as the
# host (the whole root is shared), but handed over its own share so the
# guest can write it.
xfer=$(mktemp -d /var/tmp/ruas-vm-run.XXXXXX) || exit 99
trap 'rm -rf "$xfer"' EXIT
install -m 0755 "$script" "$xfer/script" || exit 99
# pid 1 from a path without spaces or commas, whatever the checkout's is:
# the guest sees the host's /var/tmp at the same place.
install -m 0755 "$here/init.sh" "$xfer/init" || exit 99
: >"$xfer/args"
for a in "$@"; do
	case $a in *$'\n'*) echo "tests/vm: an argument holds a newline" >&2; exit 2 ;; esac
	printf '%s\n' "$a" >>"$xfer/args"
done

timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
	-accel tcg,thread=multi -m "$mem" -smp 2 -display none -monitor none -no-reboot \
	-serial "file:$xfer/console.log" \
	-kernel "$kernel" -initrd "$initrd" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on \
	-device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
	-fsdev local,id=xfer,path="$xfer",security_model=none \
	-device virtio-9p-pci,fsdev=xfer,mount_tag=xfer \
	-append "boot=host9p console=ttyS0 panic=-1 quiet init=$xfer/init" \
	</dev/null >"$xfer/qemu.log" 2>&1
qrc=$?
[ -f "$xfer/out" ] && cat "$xfer/out"
[ -f "$xfer/err" ] && cat "$xfer/err" >&2
if [ ! -f "$xfer/rc" ]; then
	echo "tests/vm: the VM ended without the script's status (qemu exit $qrc$([ "$qrc" = 124 ] && echo ", killed after $timeout_s s")); its console:" >&2
	tail -40 "$xfer/console.log" >&2
	cat "$xfer/qemu.log" >&2
	exit 99
fi
exit "$(cat "$xfer/rc")"
