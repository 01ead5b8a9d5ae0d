#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for issue 28: ruas check as a non-root supervisor of a
# host that ruas-setup provisioned makes no sudo call that sudo logs as
# "command not allowed" (Defaults logfile, in the sandbox); and a project
# command that the target's login PATH does not find is a finding.
# Inside the sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/quiet_check.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=57300
sandbox_setup
sandbox_guard
sandbox_proc_hidepid
set -u
EXTRA_ENV=()
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"
. "$abs_top_srcdir/tests/integration/tap.sh"

setup() {
	"$SETUP" "$@" --helper "$HELPER" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
# conf USER [EXTRA GLOBAL LINES] [EXTRA PROJECT KEYS]: a one-project configuration for USER.
conf() {
	mkdir -p "$SB/conf" "$SB/w"
	chmod 755 "$SB/w"
	CONF="$SB/conf/$1.conf"
	{
		printf 'helper = %s;\nsession_helper = %s;\n%s\n' "$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "${2:-}"
		printf 'projects = ( { name = "p"; run_as_user = "%s"; work_dir = %s; command = ["true"]; %s } );\n' \
			"$1" "$(cfgstr "$SB/w")" "${3:-}"
	} >"$CONF"
	chmod 644 "$CONF"
}
LOG=/var/log/sudo-test.log
sandbox_sudoers zz-logfile "Defaults logfile=$LOG"

# ------------------------------------------------------------------ a provisioned, clean host
sandbox_user sup
sandbox_user q1
setup install --supervisor sup --target q1
expect "ruas-setup install of a clean target: exit 0" test "$RC" = 0
conf q1
: >"$LOG"
run_sup check -c "$CONF"
expect "provisioned target: ruas check as the supervisor exits 0" test "$RC" = 0
expect "... with no finding" test -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"
SUDOLOG=$(cat "$LOG")
echo "# sudo's log of that check:"
sed 's/^/#   /' "$LOG"
expect "... and sudo's log holds no \"command not allowed\"" hasnt "$SUDOLOG" "command not allowed"
expect "... nor \"user NOT in sudoers\"" hasnt "$SUDOLOG" "NOT in sudoers"

# A target given only listpw=never (as ruas-setup wrote it before the
# "(T) !ALL" rule): its listing finds no rule, and sudo logs it. The helper
# asks once, not once plain and once on a terminal.
sandbox_user q2
sandbox_sudoers ruas-sup-old 'sup ALL=(q2) NOPASSWD: ALL' 'Defaults:q2 listpw=never'
conf q2
: >"$LOG"
run_sup check -c "$CONF"
expect "listpw=never without a rule: ruas check exits 0" test "$RC" = 0
expect "... with no finding" test -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"
expect "... and sudo logs one \"command not allowed\", not two" test "$(grep -c 'command not allowed' "$LOG")" = 1

# requiretty and a narrow rule: the plain listing is refused, the one on a
# terminal shows the rule, so the terminal's listing is still made.
sandbox_user q3
sandbox_sudoers ruas-sup-q3 'sup ALL=(q3) NOPASSWD: ALL' 'Defaults:q3 requiretty' 'q3 ALL=(root) NOPASSWD: /usr/bin/id'
as_user q3 timeout -k 5 60 script -qec "sudo -n /usr/bin/id -u" /dev/null </dev/null >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out") ERR=""
expect "requiretty and NOPASSWD: /usr/bin/id: the attack, on a pty it runs as root" has "$OUT" "0"
conf q3
run_sup check -c "$CONF"
expect "... ruas check as the supervisor exits 1" test "$RC" = 1
expect "... naming the rule (from the listing on a terminal)" has "$ERR" "(root) NOPASSWD: /usr/bin/id"

tap_finish
