#!/bin/bash
# SPDX-License-Identifier: ISC
# The VM harness (tests/vm/vm.sh) keeps its promises, so that the tests
# that need a real cgroup v2 can rely on it: a guest boots this machine's
# kernel and root, runs a script as root with its arguments byte for byte,
# has cgroup v2 with the memory, pids and cpu controllers (memory.max
# OOM-kills a 200 MB python3 under 50M), may write its root without a
# byte reaching the host, and gives back the script's output and status;
# a script that outlives its bound is killed and that is an error, and its
# own 77 is not taken for a skip. Skips
# loudly where no VM can run (not root, no qemu, no Debian kernel).
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
vm=$abs_top_srcdir/tests/vm/vm.sh
marker=/etc/ruas-vm-smoke.$$
rm -f "$marker"
tmp=$(mktemp -d /var/tmp/ruas-vm-test.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
secret=$tmp/secret
echo HOST-SECRET-$$ >"$secret"
chmod 0600 "$secret"
OUT=$(bash "$vm" "$abs_top_srcdir/tests/vm/smoke_guest.sh" "$marker" 'a b $HOME "q"' "$secret" 2>"$tmp/err")
RC=$? ERR=$(cat "$tmp/err")
if [ "$RC" = 77 ]; then
	echo "$ERR" >&2
	exit 77
fi
expect "the guest's script status comes back" test "$RC" = 7
expect "it ran this machine's Debian kernel" has "$OUT" "kernel=$(basename "$(ls -1 /boot/vmlinuz-*-amd64 | sort -V | tail -1)" | sed 's/^vmlinuz-//')"
expect "as root" has "$OUT" "uid=0"
expect "its arguments arrive byte for byte" has "$OUT" 'args=3|a b $HOME "q"'
expect "cgroup v2 gives its children cpu, memory and pids" has "$OUT" "controllers=cpu memory pids"
expect "memory.max 50M OOM-kills a 200 MB python3 (SIGKILL)" has "$OUT" "python_status=137"
expect "... and memory.events counts it" has "$OUT" "oom_kill=1"
expect "the guest may write its root" has "$OUT" "wrote=$marker"
expect "... and nothing of it reaches the host" test ! -e "$marker"
expect "a guest's symlink in the exchange is never followed on the host" hasnt "$ERR" "HOST-SECRET-$$"
# A script that never ends: killed at its bound (counted from its start,
# not the boot), an error (99), never a pass; and one that exits 77 is not
# taken for the harness's skip. The first one's output shows that it
# started.
printf '#!/bin/sh\necho started\nexec sleep 100000\n' >"$tmp/hang"
OUT=$(bash "$vm" -T 5 "$tmp/hang" 2>&1)
RC=$? ERR=""
expect "a script that outlives -T is an error (99)" test "$RC" = 99
expect "... it had started (the boot is not what timed out)" has "$OUT" "started"
expect "... saying it was killed at its bound" has "$OUT" "outlived -T 5 s"
printf '#!/bin/sh\nexit 77\n' >"$tmp/skip"
OUT=$(bash "$vm" "$tmp/skip" 2>&1)
RC=$? ERR=""
expect "a script's own 77 is not the harness's skip: 1" test "$RC" = 1
expect "... saying why" has "$OUT" "the script exited 77"
tap_finish
