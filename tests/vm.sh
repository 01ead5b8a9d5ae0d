#!/bin/bash
# The VM harness (tests/vm/vm.sh) keeps its promises, so that the tests
# that need a real cgroup v2 can rely on it: a guest boots this machine's
# kernel and root, runs a script as root with its arguments byte for byte,
# has cgroup v2 with the memory, pids and cpu controllers (memory.max
# OOM-kills a 200 MB python3 under 50M), may write its root without a
# byte reaching the host, and gives back the script's output and status;
# a guest that outlives the bound is killed and that is an error. Skips
# loudly where no VM can run (not root, no qemu, no Debian kernel).
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
vm=$abs_top_srcdir/tests/vm/vm.sh
marker=/etc/ruas-vm-smoke.$$
rm -f "$marker"
OUT=$(bash "$vm" "$abs_top_srcdir/tests/vm/smoke_guest.sh" "$marker" 'a b $HOME "q"' 2>"${TMPDIR:-/tmp}/vm.err.$$")
RC=$? ERR=$(cat "${TMPDIR:-/tmp}/vm.err.$$")
rm -f "${TMPDIR:-/tmp}/vm.err.$$"
if [ "$RC" = 77 ]; then
	echo "$ERR" >&2
	exit 77
fi
expect "the guest's script status comes back" test "$RC" = 7
expect "it ran this machine's Debian kernel" has "$OUT" "kernel=$(basename "$(ls -1 /boot/vmlinuz-*-amd64 | sort -V | tail -1)" | sed 's/^vmlinuz-//')"
expect "as root" has "$OUT" "uid=0"
expect "its arguments arrive byte for byte" has "$OUT" 'args=2|a b $HOME "q"'
expect "cgroup v2 gives its children cpu, memory and pids" has "$OUT" "controllers=cpu memory pids"
expect "memory.max 50M OOM-kills a 200 MB python3 (SIGKILL)" has "$OUT" "python_status=137"
expect "... and memory.events counts it" has "$OUT" "oom_kill=1"
expect "the guest may write its root" has "$OUT" "wrote=$marker"
expect "... and nothing of it reaches the host" test ! -e "$marker"
# A guest that never ends: killed at the bound, an error (99), never a pass.
printf '#!/bin/sh\nexec sleep 100000\n' >"${TMPDIR:-/tmp}/vm-hang.$$"
OUT=$(bash "$vm" -t 20 "${TMPDIR:-/tmp}/vm-hang.$$" 2>&1)
RC=$? ERR=""
rm -f "${TMPDIR:-/tmp}/vm-hang.$$"
expect "a guest that outlives -t is an error (99)" test "$RC" = 99
expect "... saying it was killed at the bound" has "$OUT" "killed after 20 s"
tap_finish
