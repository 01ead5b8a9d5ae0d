#!/bin/bash
# SPDX-License-Identifier: ISC
# backends.sh - spawn_stress (built under ThreadSanitizer by make
# check-tsan-spawn) on the two backends with run_as_user: as root (the pam
# backend, ruas-session) and as a supervisor user (the sudo backend), with
# a real target user, inside the private-namespace sandbox (see
# tests/integration/sandbox.sh). Usage: backends.sh PATH/spawn_stress.
# Needs root (exit 77 otherwise); any TSan report, leaked descriptor,
# zombie or survivor fails, and so does a process of the target left after.
. "${abs_top_srcdir:?run this through make check-tsan-spawn}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/stress/backends.sh"
stress=${1:?usage: backends.sh PATH/spawn_stress}
case "$stress" in /*) ;; *) stress=$PWD/$stress ;; esac
sandbox_enter "$0" "$stress"
SANDBOX_ID_BASE=36000
sandbox_setup
sandbox_guard
set -u

sandbox_user sup
sandbox_user st1
# The pam backend's service, as make install puts it: without it PAM would run "other".
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
sandbox_sudoers ruas-sup "sup ALL=(st1) NOPASSWD: ALL"
mkdir -p "$SB/lw" "$SB/conf"
chmod 755 "$SB/lw" "$SB/conf"
# Where the supervisor user can run it, whatever the checkout's modes.
install -m 0755 "$stress" "$SB/spawn_stress"
conf=$SB/conf/stress.conf
printf 'helper = %s;\nsession_helper = %s;\nprojects = (\n' "$(cfgstr "$HELPER")" \
	"$(cfgstr "$SESSION")" >"$conf"
printf '  { name = "stress"; run_as_user = "st1"; work_dir = %s; command = ["/bin/sleep"]; ' \
	"$(cfgstr "$SB/lw")" >>"$conf"
# wall_time_max: every spawn has the library's wall clock thread too, started
# and stopped among the signals, terminates and frees of the other threads.
printf 'terminate_grace = 1; wall_time_max = 3600; }\n);\n' >>"$conf"
chmod 644 "$conf"

rc=0
left() { # BACKEND: fails when a process of the target is left
	local procs
	procs=$(pgrep -l -u st1 || :)
	if [ -n "$procs" ]; then
		printf 'spawn_stress (%s): processes of st1 left:\n%s\n' "$1" "$procs" >&2
		rc=1
	fi
}
echo "spawn_stress: the pam backend (as root)"
env RUAS_STRESS_CONFIG="$conf" TSAN_OPTIONS='halt_on_error=1 exitcode=66' \
	"$SB/spawn_stress" </dev/null || rc=$?
left pam
echo "spawn_stress: the sudo backend (as sup)"
EXTRA_ENV=(RUAS_STRESS_CONFIG="$conf" TSAN_OPTIONS='halt_on_error=1 exitcode=66')
as_user sup "$SB/spawn_stress" </dev/null || rc=$?
left sudo
exit "$rc"
