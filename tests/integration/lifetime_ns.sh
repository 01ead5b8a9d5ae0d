#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the lifetime modes (lifetime = "pidns", the default
# where it works, and "subreaper"): whatever the agent does as its own uid
# (SIGKILL or SIGSTOP to its parent, kill -9 -1, setsid, double fork), when
# the run ends no process of it remains and ruas run returns. Both
# backends, inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/lifetime_ns.sh"
sandbox_enter "$0" "$@"
# Not 24000 (people.sh's): the agents here kill -9 -1 as their own uid.
SANDBOX_ID_BASE=31000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }

for u in sup t1; do sandbox_user "$u"; done
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
mkdir -p "$SB/w" "$SB/conf"
chown t1 "$SB/w"
T1=$(id -u t1)
HOSTNS=$(readlink /proc/self/ns/pid)
# A set-user-ID copy of id: does a setuid program still work for the agent?
install -o root -m 4755 /usr/bin/id "$SB/suid-id"

# Can t1 make a PID namespace of its own (unprivileged user namespaces)?
USERNS=1
setpriv --reuid=t1 --regid=t1 --init-groups -- unshare --user --map-current-user --pid --fork \
	true 2>/dev/null || USERNS=0

KILLPARENT='sleep 600 & kill -KILL $PPID; wait'
STOPPARENT='kill -STOP $PPID; exec sleep 600'
STOPHIDE='(setsid sleep 607 &); kill -STOP $PPID; exec sleep 600'
KILLALL='sleep 600 & kill -9 -1; echo survived; exit 7'
ESCAPE='setsid sh -c "sleep 601 & sleep 602" & (sleep 603 &); (setsid sleep 604 &); exit 0'
HOLD='(setsid sleep 605 &); (sleep 606 &); sleep 608'
TREE='setsid sh -c "sleep 301" & (sleep 302 &) ; sleep 303'
WHERE='printf "ns=%s ppid=%s\n" "$(readlink /proc/self/ns/pid)" "$PPID"'
# project NAME EXTRA SCRIPT: a project of t1 in $SB/w that runs bash -c SCRIPT.
project() {
	printf '  { name = "%s"; run_as_user = "t1"; work_dir = "%s"; %s command = ["bash", "-c", %s]; },\n' \
		"$1" "$SB/w" "$2" "$(cfgstr "$3")"
}
# write_conf FILE BACKEND GLOBALS: a configuration of the projects on stdin.
write_conf() {
	{
		printf 'helper = %s;\nsession_helper = %s;\nbackend = "%s";\n%s\nprojects = (\n' \
			"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$2" "$3"
		sed '$ s/,$//'
		echo ');'
	} >"$1"
	chmod 644 "$1"
}
for backend in sudo pam; do
	{
		project killparent "" "$KILLPARENT"
		project stopparent "" "$STOPPARENT"
		project stophide "" "$STOPHIDE"
		project killall "" "$KILLALL"
		project escape "" "$ESCAPE"
		project hold "" "$HOLD"
		project where "" "$WHERE"
		project where-pidns 'lifetime = "pidns";' "$WHERE"
		project where-sub 'lifetime = "subreaper";' "$WHERE"
		project tree-sub 'lifetime = "subreaper";' "$TREE"
		project procs "" "ls /proc | grep -c '^[0-9]'"
		project suid "" "exec $SB/suid-id"
		project sudo-allowed 'target_sudo_allowed = ["/usr/bin/systemctl restart app"];' "$WHERE"
	} | write_conf "$SB/conf/$backend.conf" "$backend" "terminate_grace = 1;"
	project plain "" true | write_conf "$SB/conf/$backend-clean.conf" "$backend" ""
	project old "" true | write_conf "$SB/conf/$backend-sub.conf" "$backend" 'lifetime = "subreaper";'
done

# The processes of t1, found by scanning /proc (pids given as arguments excepted).
survivors() {
	local d pid uid
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		uid=$(awk '/^Uid:/ { print $2; exit }' "$d/status" 2>/dev/null) || continue
		[ "$uid" = "$T1" ] || continue
		case " $* " in *" $pid "*) continue ;; esac
		printf '%s(%s) ' "$pid" "$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null)"
	done
}
# gone_within SECONDS [PID...]: until t1 runs nothing (but those pids).
gone_within() {
	local s=$1
	shift
	for _ in $(seq $((s * 10))); do
		[ -z "$(survivors "$@")" ] && return 0
		sleep 0.1
	done
	return 1
}
# at_least N: until t1 runs N processes or more (5 s at most).
at_least() {
	local tries=50
	while [ "$(pgrep -c -u t1)" -lt "$1" ]; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}
cleanup() {
	pkill -KILL -u t1 2>/dev/null
	pkill -CONT -u t1 2>/dev/null
	[ -n "${rpid:-}" ] && kill -KILL "$rpid" 2>/dev/null
	sleep 0.3
}

for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	CONF="$SB/conf/$backend.conf"
	pidns=1
	[ "$backend" = sudo ] && pidns=$USERNS
	if [ "$pidns" = 0 ]; then
		ok "$backend: # SKIP unprivileged user namespaces are not available here"
		continue
	fi

	run_as "$who" run -c "$CONF" where
	expect "$backend: by default the agent runs in a PID namespace of its own" \
		has "$OUT" "ns=pid:["
	expect "$backend: ... not the host's" hasnt "$OUT" "ns=$HOSTNS"
	run_as "$who" run -c "$CONF" where-pidns
	expect "$backend: lifetime = \"pidns\" runs it there too" hasnt "$OUT" "ns=$HOSTNS"
	expect "$backend: ... and the run succeeds" test "$RC" = 0
	run_as "$who" run -c "$CONF" where-sub
	expect "$backend: lifetime = \"subreaper\" runs it in the host's PID namespace" \
		has "$OUT" "ns=$HOSTNS"
	run_as "$who" run -c "$CONF" procs
	expect "$backend: the agent's /proc shows only its own namespace" test "${OUT:-99}" -le 5

	# The agent SIGKILLs its parent, leaving a sleep behind.
	as_user_bg "$who" "$RUAS" run -c "$CONF" killparent >/dev/null 2>&1 </dev/null
	rpid=$BGPID
	RC=""
	OUT=""
	ERR=""
	sleep 1
	expect "$backend: kill -KILL \$PPID: ruas run returns" returns_within 3 "$rpid"
	OUT="left: $(survivors)"
	expect "$backend: kill -KILL \$PPID: no process of the run survives grace + 2 s" gone_within 3
	cleanup

	# The agent stops its parent, then becomes a long sleep; ruas run is told to stop.
	for how in TERM KILL; do
		for agent in stopparent stophide; do
			as_user_bg "$who" "$RUAS" run -c "$CONF" "$agent" >/dev/null 2>&1 </dev/null
			rpid=$BGPID
			RC=""
			OUT=""
			sleep 1.5
			kill -"$how" "$rpid"
			if [ "$how" = TERM ]; then
				expect "$backend: $agent, SIG$how to ruas run: it returns" returns_within 3 "$rpid"
			else
				wait "$rpid" 2>/dev/null
			fi
			OUT="left: $(survivors)"
			expect "$backend: $agent, SIG$how to ruas run: no survivor within grace + 2 s" \
				gone_within 3
			cleanup
		done
	done

	# kill -9 -1 as the agent: only what it started dies, not the target's other processes.
	as_user_bg t1 sleep 900
	bystander=$BGPID
	sleep 0.3
	run_as "$who" run -c "$CONF" killall
	expect "$backend: kill -9 -1: the agent itself lives on and exits 7" test "$RC" = 7
	expect "$backend: ... having printed its line" has "$OUT" "survived"
	OUT="bystander $bystander: $(survivors)"
	expect "$backend: ... and a process of the same user outside the run survives" \
		kill -0 "$bystander"
	OUT="left: $(survivors "$bystander")"
	expect "$backend: ... and nothing of the run is left" gone_within 3 "$bystander"
	kill -KILL "$bystander" 2>/dev/null
	wait "$bystander" 2>/dev/null
	cleanup

	# setsid and double fork, then the agent exits.
	run_as "$who" run -c "$CONF" escape
	expect "$backend: setsid + double fork: the run returns the agent's status" test "$RC" = 0
	OUT="left: $(survivors)"
	expect "$backend: ... and nothing it started survives" gone_within 3
	cleanup

	# The supervisor is SIGKILLed.
	as_user_bg "$who" "$RUAS" run -c "$CONF" hold >/dev/null 2>&1 </dev/null
	rpid=$BGPID
	at_least 3
	kill -KILL "$rpid"
	wait "$rpid" 2>/dev/null
	OUT="left: $(survivors)"
	expect "$backend: supervisor SIGKILLed: no survivor within grace + 2 s" gone_within 3
	cleanup

	# lifetime = "subreaper" behaves as before: the tree ends on SIGTERM.
	as_user_bg "$who" "$RUAS" run -c "$CONF" tree-sub >/dev/null 2>&1 </dev/null
	rpid=$BGPID
	at_least 4
	kill -TERM "$rpid"
	wait "$rpid" 2>/dev/null
	RC=$?
	OUT="left: $(survivors)"
	expect "$backend: subreaper: SIGTERM ends the whole tree within grace + 2 s" gone_within 3
	expect "$backend: subreaper: ruas exits 128+signal" test "$RC" -ge 128
	cleanup

	# Set-user-ID programs: the pam backend's namespace is root's (no user namespace).
	run_as "$who" run -c "$CONF" suid
	if [ "$backend" = pam ]; then
		expect "pam: a setuid program still works for the agent" has "$OUT" "euid=0"
	else
		expect "sudo: in the user namespace a setuid program gets no privilege" hasnt "$OUT" "euid=0"
	fi
	run_as "$who" run -c "$CONF" sudo-allowed
	if [ "$backend" = pam ]; then
		expect "pam: target_sudo_allowed keeps the PID namespace" hasnt "$OUT" "ns=$HOSTNS"
	else
		expect "sudo: target_sudo_allowed with lifetime auto runs without a user namespace" \
			has "$OUT" "ns=$HOSTNS"
	fi

	# What ruas check says.
	run_as "$who" check -c "$SB/conf/$backend-clean.conf"
	expect "$backend: check of a default project passes" test "$RC" = 0
	expect "$backend: ... with no word about the lifetime" hasnt "$ERR" "lifetime"
	run_as "$who" check -c "$SB/conf/$backend-sub.conf"
	expect "$backend: check with lifetime = \"subreaper\" (global) passes" test "$RC" = 0
	expect "$backend: ... with a warning" has "$ERR" 'WARNING: project "old": lifetime = "subreaper"'
	expect "$backend: ... that names the residual risk" has "$ERR" "can kill or stop its own supervision"
	run_as "$who" check -c "$CONF"
	if [ "$backend" = sudo ]; then
		expect "sudo: check warns that target_sudo_allowed keeps the subreaper" \
			has "$ERR" 'WARNING: project "sudo-allowed": lifetime = "auto" falls back to the subreaper'
	else
		expect "pam: check does not warn about target_sudo_allowed's lifetime" \
			hasnt "$ERR" 'project "sudo-allowed": lifetime'
	fi
	expect "$backend: check warns for the subreaper project" has "$ERR" 'WARNING: project "tree-sub": lifetime = "subreaper"'
	expect "$backend: check says nothing of the lifetime of default projects" \
		hasnt "$ERR" 'project "where": lifetime'
done

OUT="zombies: $(ps -eo stat=,user= | awk '$1 ~ /^Z/ && ($2 == "t1" || $2 == "sup")')"
expect "no zombies are left" test "$OUT" = "zombies: "
tap_finish
