#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for what ruas check says of the host once (issue 25,
# src/lib/check/host_notes.c): /proc without hidepid lets every local user
# read every agent's command line (shown for real: another user reads the
# agent's argv), a warning naming the mount option, gone once /proc has
# hidepid=invisible (then the other user cannot read it); and what a
# non-root supervisor could not judge because only root can read it
# (shadow, doas.conf, polkit's 0700 rules.d), named with the root command
# that judges it, which then finds the way up the supervisor could not see.
# Inside the sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/host_notes.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=51000
sandbox_setup
sandbox_guard
set -u
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"
. "$abs_top_srcdir/tests/integration/tap.sh"
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas

sandbox_user sup
sandbox_user hn1
sandbox_user hno
sandbox_sudoers ruas-sup 'sup ALL=(hn1) NOPASSWD: ALL' 'Defaults:hn1 listpw=never'
mkdir -p "$SB/w" "$SB/conf"
chmod 755 "$SB/w"
CONF="$SB/conf/hn.conf"
printf 'helper = %s;\nsession_helper = %s;\nhost_check_interval = 0;\nprojects = ( { name = "p"; run_as_user = "hn1"; work_dir = %s; command = ["sh", "-c", "read x", "PROMPT-51"]; } );\n' \
	"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$(cfgstr "$SB/w")" >"$CONF"
chmod 644 "$CONF"
HIDEPID='WARNING: /proc is mounted without hidepid'

# seen_by_other: does user hno find the argument PROMPT-51 in any
# /proc/PID/cmdline while an agent run of p holds it (only the agent's
# argv has it: the project's command)? The agent waits on
# its stdin (a fifo this shell holds open) until told to end; SEEN 1 or 0.
seen_by_other() {
	rm -f "$SB/fifo"
	mkfifo -m 666 "$SB/fifo"
	# Read-write: opening it never blocks, and the run's read end then does not either.
	exec 7<>"$SB/fifo"
	# The redirection on the job itself: bash gives a background job without one /dev/null.
	as_user sup "$RUAS" run -q -c "$CONF" p <"$SB/fifo" 2>"$SB/run.err" &
	local run=$!
	SEEN=0
	# Until the agent runs (root sees it at once), then as hno.
	for _ in $(seq 200); do
		pgrep -u hn1 -f 'PROMPT-51' >/dev/null && break
		sleep 0.05
	done
	pgrep -u hn1 -f 'PROMPT-51' >/dev/null || not_ok "the agent holding PROMPT-51 never ran: $(cat "$SB/run.err") $(ps -eo pid,euser,args | grep -a PROMPT)"
	# shellcheck disable=SC2016
	# (The pattern does not match itself: grep's own argv is not a hit. -q:
	# a process gone between the glob and the read is an error that must
	# not hide a hit.)
	as_user hno sh -c 'grep -q -s -a "PROMPT-5[1]" /proc/[0-9]*/cmdline' && SEEN=1
	echo end >&7
	exec 7>&-
	returns_within 30 "$run" || not_ok "the run did not end"
}

# 1. /proc as the host mounts it here: no hidepid.
if grep -q ' /proc .* - proc .*hidepid=\(1\|2\|4\|noaccess\|invisible\|ptraceable\)' /proc/self/mountinfo; then
	not_ok "this host's /proc has hidepid: the test needs one without"
fi
run_sup check -c "$CONF"
expect "no hidepid: ruas check exits 0 (a warning)" test "$RC" = 0
expect "... warns that /proc shows agents' command lines" has "$ERR" "$HIDEPID: every local user can read every agent's command line"
expect "... naming the mount option" has "$ERR" "mount -o remount,hidepid=invisible /proc"
expect "... and the fstab line" has "$ERR" "proc /proc proc defaults,hidepid=invisible 0 0"
expect "... once, counted as a warning" has "$ERR" "0 error(s), 1 warning(s)"
run_sup check --json -c "$CONF"
expect "... JSON: host.warnings holds check \"proc\"" \
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); w=d["host"]["warnings"]; assert [i["check"] for i in w]==["proc"], w; assert "hidepid" in w[0]["message"]' "$OUT"
run_as root check -c "$CONF"
expect "... ruas check as root warns too" has "$ERR" "$HIDEPID"
seen_by_other
expect "the attack: another user reads the agent's argument in /proc" test "$SEEN" = 1

# 2. A /proc of this namespace's own with hidepid=invisible.
mount -t proc -o hidepid=invisible proc /proc
run_sup check -c "$CONF"
expect "hidepid=invisible: ruas check exits 0" test "$RC" = 0
expect "... with no hidepid warning" hasnt "$ERR" "hidepid"
expect "... and no warning at all" has "$ERR" "0 error(s), 0 warning(s)"
seen_by_other
expect "the attack fails: the other user cannot read the agent's argument" test "$SEEN" = 0
mount -t proc -o hidepid=0 proc /proc
run_sup check -c "$CONF"
expect "hidepid=0 on top: the warning is back" has "$ERR" "$HIDEPID"
umount /proc
umount /proc

# 3. What only root can read. As this sandbox gives it: shadow 0640 root:shadow.
chmod 640 /etc/shadow
run_sup check -c "$CONF"
expect "non-root: ruas check exits 0" test "$RC" = 0
expect "... says it could not judge shadow's empty passwords" \
	has "$ERR" "ruas: not judged, as only root can read them (this check ran as \"sup\"): empty passwords"
expect "... naming /etc/shadow" has "$ERR" "(/etc/shadow)"
expect "... with the root command that judges them" \
	has "$ERR" "ruas: root judges them: ruas-setup check --config $CONF --supervisor sup"
expect "... not counted as a warning" has "$ERR" "0 error(s), 1 warning(s)"
run_as root check -c "$CONF"
expect "root: nothing left unjudged" hasnt "$ERR" "not judged"

# The host's own polkit directories (/usr and /var/lib are the host's), as
# Debian's polkit ships them: 0700 polkitd. Named when the host has them;
# then a readable empty directory over each, in this namespace only.
run_sup check -c "$CONF"
for d in /usr/share/polkit-1/rules.d /var/lib/polkit-1/localauthority; do
	[ -d "$d" ] || continue
	if ! as_user sup ls "$d" >/dev/null 2>&1; then
		expect "the host's unreadable $d is named" has "$ERR" "($d)"
	fi
done
for d in /usr/share/polkit-1/rules.d /var/lib/polkit-1; do
	[ -d "$d" ] || continue
	mkdir -p "$SB/over$d/localauthority"
	chmod -R 755 "$SB/over$d"
	mount --bind "$SB/over$d" "$d"
done

# doas.conf 0400 and polkit's rules.d 0700, as Debian ships them: a rule of
# each lets hn1 act as another user, which only root can see.
printf 'permit nopass hn1 as hno\n' >/etc/doas.conf
chmod 400 /etc/doas.conf
mkdir -p /etc/polkit-1/rules.d
chmod 700 /etc/polkit-1/rules.d
cat >/etc/polkit-1/rules.d/10-hn1.rules <<'EOR'
polkit.addRule(function(action, subject) {
	if (subject.user == "hn1")
		return polkit.Result.YES;
});
EOR
run_sup check -c "$CONF"
expect "unreadable doas.conf and rules.d: ruas check as sup names both" \
	has "$ERR" "doas's rules (/etc/doas.conf); polkit's rules (/etc/polkit-1/rules.d)"
run_sup check --json -c "$CONF"
# (and /etc/sudoers.d: its 0440 files, ruas-setup's fragments among them, since issue 28)
expect "... JSON: host.unjudged lists the three paths, then sudoers.d" \
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); u=[i["path"] for i in d["host"]["unjudged"]]; assert u==["/etc/shadow","/etc/doas.conf","/etc/polkit-1/rules.d","/etc/sudoers.d"], u; assert all(i["what"] for i in d["host"]["unjudged"])' "$OUT"
# The root command named judges them: the polkit rule (and doas's) is fatal there.
"$SETUP" check --config "$CONF" --supervisor sup --helper "$HELPER" >"$SB/out" 2>"$SB/err" </dev/null
RC=$?
ERR=$(cat "$SB/err")
expect "the root command named fails on what sup could not see" test "$RC" = 1
expect "... naming the polkit rule" has "$ERR" "/etc/polkit-1/rules.d/10-hn1.rules"
if command -v doas >/dev/null; then
	expect "... and the doas rule" has "$ERR" "/etc/doas.conf"
fi
# A readable directory with an unreadable rules file: the file is named.
chmod 755 /etc/polkit-1/rules.d
chmod 600 /etc/polkit-1/rules.d/10-hn1.rules
run_sup check -c "$CONF"
expect "an unreadable rules file in a readable directory is named" \
	has "$ERR" "polkit's rules (/etc/polkit-1/rules.d/10-hn1.rules)"
rm -f /etc/doas.conf /etc/polkit-1/rules.d/10-hn1.rules
chmod 644 /etc/shadow
chmod 0444 /etc/sudoers.d/*
run_sup check -c "$CONF"
expect "all readable: nothing said" hasnt "$ERR" "not judged"
chmod 0440 /etc/sudoers.d/*

# 4. The targets' escalation probes, kept (src/lib/check/probe_cache.h).
# sudo logs every call its probes make as the target: a check that keeps
# them makes none, while their key (sudo's, PAM's and doas's files, the
# user database, the target's groups) holds; any change there, or
# --fresh, runs them again.
sandbox_sudoers zz-logfile 'Defaults logfile=/var/log/sudo-probes.log, loglinelen=0'
KCONF="$SB/conf/kept-probes.conf"
sed 's/host_check_interval = 0;/host_check_interval = 300;/' "$CONF" >"$KCONF"
chmod 644 "$KCONF"
probes_logged() { grep -c ' : hn1 : ' /var/log/sudo-probes.log 2>/dev/null || true; }
: >/var/log/sudo-probes.log
run_sup check -c "$KCONF"
expect "kept probes: a first check passes" test "$RC" = 0
first=$(probes_logged)
expect "... its probes ran as the target (sudo logged them)" test "$first" -gt 0
SUPHOME=$(getent passwd sup | cut -d: -f6)
expect "... and are kept in the supervisor's own 0600 file" \
	test "$(stat -c '%U %a' "$SUPHOME"/.cache/ruas/probes-* 2>&1)" = "sup 600"
run_sup check -c "$KCONF"
expect "... a second check passes" test "$RC" = 0
expect "... and runs none of them: sudo logged nothing more of the target's" \
	test "$(probes_logged)" = "$first"
run_sup check --fresh -c "$KCONF"
expect "... --fresh runs them again" test "$(probes_logged)" -gt "$first"
second=$(probes_logged)
sandbox_sudoers hn1-up 'hn1 ALL=(ALL) NOPASSWD: ALL'
run_sup check -c "$KCONF"
expect "... a sudoers rule added: the next check (no --fresh) runs them and is fatal at once" \
	test "$RC" = 1 -a "$(probes_logged)" -gt "$second"
expect "... naming it" has "$ERR" 'target user "hn1" can run passwordless sudo'
run_sup check -c "$KCONF"
expect "... and stays fatal" test "$RC" = 1
rm /etc/sudoers.d/hn1-up
run_sup check -c "$KCONF"
expect "... removed: passes again" test "$RC" = 0
third=$(probes_logged)
sandbox_group hngrp
usermod -aG hngrp hn1
run_sup check -c "$KCONF"
expect "... the target's groups changed: its probes run again" test "$(probes_logged)" -gt "$third"
: >/var/log/sudo-probes.log
run_sup check -c "$CONF"
run_sup check -c "$CONF"
expect "host_check_interval = 0: every check runs them" test "$(probes_logged)" -ge 2
# The kept file is the supervisor's: one another user wrote is never read.
rm -f "$SUPHOME"/.cache/ruas/probes-*
run_sup check -c "$KCONF"
f=$(ls "$SUPHOME"/.cache/ruas/probes-*)
sed -i 's/^R 1 /R 0 /' "$f"
chown hn1 "$f"
: >/var/log/sudo-probes.log
run_sup check -c "$KCONF"
expect "a kept file of another owner is not read: the probes run" test "$(probes_logged)" -gt 0

tap_finish
