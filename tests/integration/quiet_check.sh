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
# conf USER [EXTRA GLOBAL LINES] [EXTRA PROJECT KEYS] [COMMAND ARRAY'S ITEMS]: a one-project configuration for USER.
conf() {
	mkdir -p "$SB/conf" "$SB/w"
	chmod 755 "$SB/w"
	CONF="$SB/conf/$1.conf"
	{
		printf 'helper = %s;\nsession_helper = %s;\n%s\n' "$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "${2:-}"
		printf 'projects = ( { name = "p"; run_as_user = "%s"; work_dir = %s; command = [%s]; %s } );\n' \
			"$1" "$(cfgstr "$SB/w")" "${4:-\"true\"}" "${3:-}"
	} >"$CONF"
	chmod 644 "$CONF"
}
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
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

# ------------------------------------------------------------------ a command that is not there
# Looked up as the target, in the PATH its login environment starts with
# (sudo's secure_path here), as execvp would: a warning, fatal with
# require_command. q1 is the provisioned, clean target of the first part.
# cmdconf PROJECT-COMMAND [EXTRA GLOBAL LINES] [EXTRA PROJECT KEYS]
cmdconf() {
	conf q1 "${2:-}" "${3:-}" "$1"
}
cmdconf '"ruas-no-such-command"'
run_sup check -c "$CONF"
expect "a command not in the target's PATH: ruas check exits 0" test "$RC" = 0
expect "... with a warning that names the project, user and command" \
	has "$ERR" 'WARNING: project "p": the command "ruas-no-such-command" cannot be run by target user "q1": it is not found in the PATH that its login environment starts with, "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"'
expect "... that says what ruas run would do" has "$ERR" "so ruas run would fail with 127."
expect "... and the fix" has "$ERR" 'Fix: install "ruas-no-such-command" in one of those directories for "q1", or fix the project'"'"'s command (an absolute path, say).'
run_sup check -c "$CONF" --json
expect "... --json: the warning has check \"command\", its user and fix" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $w = $j->{projects}[0]{warnings}; exit((@$w == 1 && $w->[0]{check} eq "command" && $w->[0]{user} eq "q1" && $w->[0]{fix} =~ /^install / && !@{$j->{projects}[0]{errors}}) ? 0 : 1)' <"$SB/out"
expect "... every item holds to ruas(1)'s schema" perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out"

cmdconf '"ruas-no-such-command"' '' 'require_command = true;'
run_sup check -c "$CONF"
expect "require_command = true (project): exit 1" test "$RC" = 1
expect "... an ERROR that says why" has "$ERR" 'ERROR: project "p": the command "ruas-no-such-command" cannot be run by target user "q1"'
expect "... naming the key" has "$ERR" "require_command is true for this project."
cmdconf '"ruas-no-such-command"' 'require_command = true;'
run_sup check -c "$CONF"
expect "require_command = true (top level): exit 1" test "$RC" = 1
cmdconf '"ruas-no-such-command"' 'require_command = true;' 'require_command = false;'
run_sup check -c "$CONF"
expect "... and a project's require_command = false wins: exit 0" test "$RC" = 0
expect "... with the warning" has "$ERR" 'WARNING: project "p": the command "ruas-no-such-command"'
cmdconf '"ruas-no-such-command"' '' 'require_command = "yes";'
run_sup check -c "$CONF"
expect "require_command = \"yes\": a configuration error (exit 2)" test "$RC" = 2
expect "... naming the key" has "$ERR" "require_command must be true or false"

cmdconf '"true"' '' 'require_command = true;'
run_sup check -c "$CONF"
expect "a command in the PATH, with require_command: exit 0, no finding" test "$RC" = 0 -a -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"
cmdconf '"/bin/true"' '' 'require_command = true;'
run_sup check -c "$CONF"
expect "an absolute command that is there: exit 0, no finding" test "$RC" = 0 -a -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"
cmdconf '"/opt/ruas-nope/tool"'
run_sup check -c "$CONF"
expect "an absolute command that is not there: a warning" has "$ERR" 'WARNING: project "p": the command "/opt/ruas-nope/tool" cannot be run by target user "q1": "/opt/ruas-nope/tool" does not exist, so ruas run would fail with 127.'
mkdir -p /opt/ruas-q
printf '#!/bin/sh\nexit 0\n' >/opt/ruas-q/plain
chmod 644 /opt/ruas-q/plain
cmdconf '"/opt/ruas-q/plain"'
run_sup check -c "$CONF"
expect "a command the target may not execute (0644): a warning" has "$ERR" '"/opt/ruas-q/plain" is not a regular file that it may reach and execute, so ruas run would fail with 126.'
mkdir -p /opt/ruas-q/secret
install -m 755 /opt/ruas-q/plain /opt/ruas-q/secret/tool
chmod 700 /opt/ruas-q/secret
cmdconf '"/opt/ruas-q/secret/tool"' '' 'require_command = true;'
run_sup check -c "$CONF"
expect "a command in a directory the target cannot enter: fatal with require_command" test "$RC" = 1
expect "... naming it" has "$ERR" '"/opt/ruas-q/secret/tool" is not a regular file that it may reach and execute'
run_as root check -c "$CONF"
expect "... and as root (pam backend), looked up as the target all the same: exit 1" test "$RC" = 1
# Names with spaces, quotes and $: looked up as they are, never through a shell.
odd='my tool "x" $HOME'
install -m 755 /opt/ruas-q/plain "/usr/local/bin/$odd"
cmdconf "$(cfgstr "$odd")" '' 'require_command = true;'
run_sup check -c "$CONF"
expect "a command named with spaces, quotes and \$, in the PATH: exit 0, no finding" test "$RC" = 0 -a -z "$(grep -E 'ERROR|WARNING' <<<"$ERR")"
cmdconf "$(cfgstr 'no such "x" $HOME')"
run_sup check -c "$CONF"
expect "... one that is not there: a warning, its name escaped" has "$ERR" 'the command "no such \"x\" $HOME" cannot be run by target user "q1"'
cmdconf "$(cfgstr "$odd"), \"arg\"" '' 'require_command = true;'
run_as root check -c "$CONF"
expect "... and as root (pam backend, ENV_PATH of login.defs): exit 0" test "$RC" = 0

tap_finish
