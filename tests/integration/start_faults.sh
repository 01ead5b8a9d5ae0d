#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests of starts under faults (issue 26, item 10): a
# supervisor at a low descriptor limit starting many agents at once; ruas
# check and ruas run out of descriptors; sudo's PAM session that never
# hands over; a target's login file that forges or holds the helper's
# channel. Each start fails, if it does, with an error that says what was
# observed (never the target's login files or sudo's rules without
# evidence), within its bound, without a busy loop, and leaves nothing of
# the target behind. Both backends where the fault exists on both (sudo
# for a non-root supervisor, pam for root).
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/start_faults.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: tests/integration/start_faults.sh needs pkg-config and cc" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=54000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }

consumer_flags
expect "pkg-config finds the staged ruas" test "$RC" = 0
C=$abs_top_srcdir/tests/consumer
consumer_build nofilespawn "$C/nofilespawn.c" "$C/consumer.c"
expect "nofilespawn builds against the installed library" test "$RC" = 0
consumer_build startspawn "$C/startspawn.c"
expect "startspawn builds against the installed library" test "$RC" = 0

# ------------------------------------------------------------------ users and rules
sandbox_user sup
sandbox_user t1
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
HOME1=$(getent passwd t1 | cut -d: -f6)
mkdir -p "$SB/conf"
for backend in sudo pam; do
	cat >"$SB/conf/$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
projects = (
  { name = "sleeper"; run_as_user = "t1"; work_dir = "/tmp"; command = ["sleep", "600"]; },
  { name = "mark"; run_as_user = "t1"; work_dir = "/tmp"; command = ["sh", "-c", "echo agent-ran > \"\$HOME/agent-ran\""]; }
);
EOC
	chmod 644 "$SB/conf/$backend.conf"
done
leftovers() { pgrep -u t1 2>/dev/null | tr '\n' ' '; }

# ------------------------------------------------------------------ nofile 64, 16 at once
# Every spawn runs, or fails naming the descriptor limit (not sudo, not a
# login file); no busy loop (CPU far below wall time); nothing of t1 left,
# no zombie of the supervisor's. 80 and 88 too: there the user database
# ran out first, which said the target had no passwd entry.
for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	for n in 64 80 88; do
		OUT=$(as_user "$who" "$SB/bin/nofilespawn" "$SB/conf/$backend.conf" sleeper t1 "$n" 16 2>&1)
		RC=$?
		expect "$backend: nofile $n, 16 spawns at once: each runs or names the limit, no spin, nothing left" \
			test "$RC" = 0
		echo "$OUT" | grep '^spawned=' | sed 's/^/# /'
		OUT="left: $(leftovers)"
		expect "$backend: ... nothing of t1 is left" test -z "$(leftovers)"
	done
done

# ------------------------------------------------------------------ ruas check and run at ulimit -n
# Out of descriptors is said as such: never a missing user, a rule that is
# not configured, a helper not installed or a PAM service file to put back.
# cli_limited WHO N ARGS...: ruas ARGS under ulimit -n N as WHO; sets RC, OUT.
cli_limited() {
	local who=$1 n=$2
	shift 2
	OUT=$(as_user "$who" bash -c 'ulimit -n "$1"; shift; exec "$@"' - "$n" "$RUAS" "$@" </dev/null 2>&1)
	RC=$?
}
misblames() {
	local m
	for m in "passwordless sudo" "does not exist" "not configured" "cannot be executed" \
		"put back the service file" "Invalid argument"; do
		[[ "$OUT" == *"$m"* ]] && return 0
	done
	return 1
}
for n in 6 8 10; do
	for call in "sup sudo check" "sup sudo run" "root pam check" "root pam run"; do
		set -- $call
		if [ "$3" = run ]; then
			cli_limited "$1" "$n" run -c "$SB/conf/$2.conf" mark
		else
			cli_limited "$1" "$n" check -c "$SB/conf/$2.conf"
		fi
		expect "$2: ruas $3 at ulimit -n $n fails" test "$RC" != 0
		expect "$2: ... naming RLIMIT_NOFILE" has "$OUT" "RLIMIT_NOFILE"
		expect "$2: ... blaming nothing it did not see" eval '! misblames'
		[ "$3" = check ] && expect "$2: ... the checks are not run below their floor" \
			has "$OUT" "the checks need at least 16 descriptors"
	done
done

# ------------------------------------------------------------------ sudo failing by itself
# sudo at nofile 8 fails in its PAM stack and then says "a password is
# required"; a sudo killed by a signal says nothing. Neither is a missing
# rule. (Wrappers as the configuration's sudo, so the supervisor has room.)
# /usr/local/bin is this namespace's own (a tmpfs): nothing lands on the host.
mount -t tmpfs -o mode=0755 tmpfs /usr/local/bin || { echo "Bail out! cannot mount a tmpfs on /usr/local/bin" >&2; exit 99; }
printf '#!/bin/bash\nulimit -n 8\nexec /usr/bin/sudo "$@"\n' >/usr/local/bin/sudo-fd8
printf '#!/bin/bash\nkill -SEGV $$\n' >/usr/local/bin/sudo-segv
chmod 755 /usr/local/bin/sudo-fd8 /usr/local/bin/sudo-segv
for w in fd8 segv; do
	sed "s|^backend|sudo = \"/usr/local/bin/sudo-$w\";\nbackend|" "$SB/conf/sudo.conf" >"$SB/conf/$w.conf"
	chmod 644 "$SB/conf/$w.conf"
done
run_as sup check -c "$SB/conf/fd8.conf"
OUT=$OUT$ERR
expect "sudo at nofile 8: ruas check says sudo failed by itself" has "$OUT" "sudo failed by itself, not by its rules"
expect "... not that passwordless sudo is not configured" hasnt "$OUT" "not configured"
run_as sup check -c "$SB/conf/segv.conf"
OUT=$OUT$ERR
expect "sudo killed: ruas check says the signal" has "$OUT" "through sudo ended by signal 11"
expect "... which may be the helper's: sudo ends by its command's signal" has "$OUT" \
	"The signal ended sudo or the ruas helper it ran: sudo ends by the signal that ended its command."
OUT=$(as_user sup "$SB/bin/startspawn" "$SB/conf/fd8.conf" mark - </dev/null 2>&1)
expect "sudo at nofile 8: the spawn fails at stage sudo" has "$OUT" "error code=-8 stage=1 "
expect "... saying sudo failed by itself, with its words" has "$OUT" "(sudo): sudo failed: sudo: PAM account management error"
expect "... and what they mean: its PAM stack failed, not a rule" has "$OUT" \
	"sudo failed by itself, not by its rules: its PAM stack failed"
expect "... not that it refused, nor the rule's fix" eval '[[ "$OUT" != *refused* && "$OUT" != *NOPASSWD* ]]'
OUT=$(as_user sup "$SB/bin/startspawn" "$SB/conf/segv.conf" mark - </dev/null 2>&1)
expect "sudo killed by SIGSEGV: the spawn says so" has "$OUT" "(sudo): sudo was killed: it said nothing (signal 11)"
expect "... and that the signal may have ended the helper instead" has "$OUT" \
	"The signal ended sudo or the helper it ran (ruas-exec)"
expect "... not that it refused" hasnt "$OUT" "refused"
OUT="left: $(leftovers)"
expect "... nothing of t1 is left" test -z "$(leftovers)"

tap_finish
