# SPDX-License-Identifier: ISC
# vm_guest.sh - sourced by the suites that judge a guest script's output
# (tests/vm/vm.sh boots it): runs it, skips loudly as vm.sh does where no VM
# can run, and gives val/all over its NAME=VALUE lines. Needs tap.sh and a
# $tmp of the caller's, which it writes out and err into.

# vm_guest SECONDS GUEST ARG...: sets RC and ERR; exits 77 with vm.sh's reason.
vm_guest() {
	local secs=$1
	shift
	bash "$abs_top_srcdir/tests/vm/vm.sh" -T "$secs" "$@" >"$tmp/out" 2>"$tmp/err"
	RC=$?
	ERR=$(cat "$tmp/err")
	if [ "$RC" = 77 ]; then
		printf '%s\n' "$ERR" >&2
		exit 77
	fi
}

# The last value of NAME, and all of them, one a line.
val() { sed -n "s/^$1=//p" "$tmp/out" | tail -1; }
all() { sed -n "s/^$1=//p" "$tmp/out"; }

# On a failure, what the guest said, for the log.
vm_guest_dump() {
	[ "$fail" = 0 ] && return 0
	echo "# guest output:"
	sed 's/^/#   /' "$tmp/out"
	echo "# stderr:"
	printf '%s\n' "$ERR" | tail -60 | sed 's/^/#   /'
}
