#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the agent's lifetime on both backends (sudo for a
# non-root supervisor, pam for root), and for what PAM brings: limits,
# account checks, sessions closed. Inside the private-namespace sandbox.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/lifecycle.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=23000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
if [ ! -x "$SESSION" ]; then
	echo "Bail out! ruas-session was not installed at $SESSION" >&2
	exit 99
fi


sandbox_guard
sandbox_user sup
sandbox_user t1
sandbox_user t7
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
mkdir -p "$SB/w" "$SB/conf"
chown t1 "$SB/w"

# The agents: one that leaves a setsid'd and a double-forked grandchild,
# one that ignores SIGTERM, one that exits leaving a child behind.
TREE='setsid sh -c "sleep 301" & (sleep 302 &) ; sleep 303'
STUBBORN='trap "" TERM HUP INT; sleep 304 & sleep 305'
LEFTOVER='sleep 306 & exit 3'
# Says which signal reached it and goes on; ends by SIGTERM.
TRAPS='for s in INT HUP QUIT USR1 USR2 WINCH ALRM CONT; do trap "echo got $s" $s; done; echo ready; while :; do sleep 0.1; done'
# Tries to push a byte into its terminal (TIOCSTI is 0x5412 on Linux).
TIOCSTI='my $c = "x"; print -t STDIN ? "tty " : "notty ", (ioctl(STDIN, 0x5412, $c) ? "injected" : "refused: $!"), "\n";'
for backend in sudo pam; do
	cat >"$SB/conf/$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
terminate_grace = 1;
projects = (
  { name = "tree"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", $(cfgstr "$TREE")]; },
  { name = "stubborn"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", $(cfgstr "$STUBBORN")]; },
  { name = "leftover"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", $(cfgstr "$LEFTOVER")]; },
  { name = "traps"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", $(cfgstr "$TRAPS")]; },
  { name = "plain"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sleep", "307"]; },
  { name = "limits"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", "ulimit -Hn"]; },
  { name = "tiocsti"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["perl", "-e", $(cfgstr "$TIOCSTI")]; }
);
EOC
	chmod 644 "$SB/conf/$backend.conf"
done

target_procs() { pgrep -u t1 2>/dev/null | tr '\n' ' '; }
zombies() { ps -eo stat=,user= | awk '$1 ~ /^Z/ && ($2 == "t1" || $2 == "sup")' | wc -l; }
# wait_for N: until t1 runs at least N processes (5 s at most).
wait_for() {
	for _ in $(seq 50); do
		[ "$(pgrep -u t1 -c)" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# gone_within SECONDS: until t1 runs nothing.
gone_within() {
	local n=$(($1 * 10))
	for _ in $(seq "$n"); do
		[ -z "$(target_procs)" ] && return 0
		sleep 0.1
	done
	return 1
}

for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	CONF="$SB/conf/$backend.conf"
	for sig in TERM HUP INT KILL; do
		as_user_bg "$who" "$RUAS" run -c "$CONF" tree >/dev/null 2>&1 </dev/null
		rpid=$BGPID
		RC="" OUT="" ERR=""
		# The helper, sh, and at least two of the sleeps.
		if ! wait_for 4; then
			not_ok "$backend: the tree agent started its three sleeps" "procs: $(target_procs)"
			kill -KILL "$rpid" 2>/dev/null
			continue
		fi
		kill -"$sig" "$rpid"
		wait "$rpid" 2>/dev/null
		RC=$?
		OUT="left: $(ps -o pid,ppid,sid,args -u t1 2>/dev/null)"
		expect "$backend: SIG$sig to ruas: the whole tree (setsid, double fork) is gone within grace + 2 s" gone_within 3
		[ "$sig" = KILL ] || expect "$backend: SIG$sig to ruas: ruas exits 128+signal of the agent" test "$RC" -ge 128
		pkill -KILL -u t1 2>/dev/null
		sleep 0.2
	done

	as_user_bg "$who" "$RUAS" run -c "$CONF" stubborn >/dev/null 2>&1 </dev/null
	rpid=$BGPID
	# The helper, sh and both sleeps: the trap is set once the sleeps exist.
	wait_for 4
	kill -TERM "$rpid"
	start=$(date +%s%N)
	wait "$rpid" 2>/dev/null
	RC=$?
	OUT="left: $(target_procs)"
	expect "$backend: an agent that ignores SIGTERM is SIGKILLed after the grace period" gone_within 2
	elapsed=$((($(date +%s%N) - start) / 1000000))
	OUT="elapsed ${elapsed} ms"
	expect "$backend: ... not before the grace period (1 s)" test "$elapsed" -ge 900
	pkill -KILL -u t1 2>/dev/null

	# Signals to ruas run from another process mean what they mean to
	# ruas_child_signal(): SIGTERM ends the tree, the others reach the agent.
	gone_within 3
	as_user_bg "$who" "$RUAS" run -q -c "$CONF" traps >"$SB/traps.out" 2>&1 </dev/null
	rpid=$BGPID
	for _ in $(seq 50); do grep -q ready "$SB/traps.out" && break; sleep 0.1; done
	for sig in INT HUP QUIT USR1 USR2 WINCH ALRM CONT; do
		kill -"$sig" "$rpid"
		for _ in $(seq 50); do grep -q "got $sig" "$SB/traps.out" && break; sleep 0.1; done
		OUT=$(cat "$SB/traps.out")
		expect "$backend: SIG$sig to ruas run reaches the agent, which handles it" has "$OUT" "got $sig"
	done
	OUT="ruas: $(ps -o pid=,args= -p "$rpid"); t1: $(target_procs)"
	expect "$backend: ... and neither ruas nor the agent ended of them" kill -0 "$rpid"
	kill -TERM "$rpid"
	wait "$rpid" 2>/dev/null
	RC=$?
	expect "$backend: SIGTERM to ruas run then ends the agent: 143" test "$RC" = 143
	OUT="left: $(target_procs)"
	expect "$backend: ... and nothing of it is left" gone_within 3
	pkill -KILL -u t1 2>/dev/null
	for sig in QUIT USR1 HUP INT; do
		# Each from a clean slate: nothing of the last run still dying.
		gone_within 3
		as_user_bg "$who" "$RUAS" run -q -c "$CONF" plain >"$SB/plain.out" 2>&1 </dev/null
		rpid=$BGPID
		for _ in $(seq 50); do pgrep -u t1 -xf "sleep 307" >/dev/null && break; sleep 0.1; done
		kill -"$sig" "$rpid"
		wait "$rpid" 2>/dev/null
		RC=$?
		OUT="left: $(target_procs); ruas said: $(cat "$SB/plain.out")"
		expect "$backend: SIG$sig to ruas run kills an agent that does not handle it: ruas exits 128+$(kill -l "$sig")" \
			test "$RC" = $((128 + $(kill -l "$sig")))
		pkill -KILL -u t1 2>/dev/null
	done

	# A terminal for ruas run, as an operator's would be. The agent's is a
	# pty of its own (issue 14): what it pushes there stays there, and the
	# operator's terminal, read right after, has nothing of it.
	as_user "$who" script -qec "$RUAS run -c $CONF tiocsti; read -t 1 x; echo \"got[\$x]\"" \
		/dev/null >"$SB/out" 2>&1 </dev/null
	RC=$? OUT=$(tr -d '\r' <"$SB/out") ERR=""
	expect "$backend: the agent has a terminal on stdin" has "$OUT" "tty "
	expect "$backend: ... but cannot push input into the operator's (TIOCSTI)" has "$OUT" "got[]"

	run_as "$who" run -c "$CONF" leftover
	expect "$backend: the agent's exit status passes through" test "$RC" = 3
	OUT="left: $(target_procs)"
	expect "$backend: nothing of a finished agent is left running" gone_within 2
	OUT="zombies: $(zombies)"
	expect "$backend: no zombies" test "$(zombies)" = 0
done

# ------------------------------------------------------------------ pam only
run_as root check -c "$SB/conf/pam.conf"
expect "pam: a root supervisor needs no sudoers rule: check passes" test "$RC" = 0
expect "pam: the report names no sudo problem" hasnt "$ERR" "sudo"

echo 't1 hard nofile 777' >/etc/security/limits.d/ruas-test.conf
run_as root run -c "$SB/conf/pam.conf" limits
expect "pam: a limits.d rule for the target applies to the agent" test "$OUT" = 777
rm /etc/security/limits.d/ruas-test.conf
expect "pam: the session helper is gone after the run" test -z "$(pgrep -f "$SESSION")"

chage -E 0 t7
cat >"$SB/conf/expired.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
projects = ( { name = "old"; run_as_user = "t7"; work_dir = "/tmp"; command = ["true"]; } );
EOC
run_as root check -c "$SB/conf/expired.conf"
expect "pam: an expired account is refused" test "$RC" = 1
expect "pam: ... with PAM's reason" has "$ERR" 'ERROR: project "old" runs as user "t7" through PAM (service "ruas"), but PAM refused the account: account: '
expect "pam: ... which says expired" has "$ERR" "expired"
run_as root run -c "$SB/conf/expired.conf" old
expect "pam: run refuses to start it" test "$RC" = 1

cat >"$SB/conf/nopam.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = "$SB/missing/ruas-session";
projects = ( { name = "p"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["true"]; } );
EOC
run_as root check -c "$SB/conf/nopam.conf"
expect "pam: a missing session helper is diagnosed" has "$ERR" "cannot be executed"

tap_finish
