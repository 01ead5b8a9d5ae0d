#!/bin/bash
# SPDX-License-Identifier: ISC
# The limits of a run that the host can give without cgroups (issue 27):
# open_files_max, file_size_max and core_dumps, which ruas-exec sets, soft
# and hard, before the target's login shell runs; and wall_time_max, which
# the library keeps. On both backends (sudo for a non-root supervisor, pam
# for root), each attacked as the target would: its login file and its
# agent try to raise the limits back, a TERM-trapping agent tries to
# outlive its wall clock, a value above the hard limit the run gets must
# not start the run at all; nothing of the target is left after any of them.
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/limits.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: tests/integration/limits.sh needs pkg-config and cc" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=56000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }
consumer_flags
expect "pkg-config finds the staged ruas" test "$RC" = 0
consumer_build startspawn "$abs_top_srcdir/tests/consumer/startspawn.c"
expect "startspawn builds against the installed library" test "$RC" = 0

sandbox_user sup
sandbox_user t1
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
HOME1=$(getent passwd t1 | cut -d: -f6)
leftovers() { pgrep -u t1 2>/dev/null | tr '\n' ' '; }
# Bounded: what a run's end leaves is reaped within the grace.
no_leftovers() {
	for _ in $(seq 100); do
		[ -z "$(leftovers)" ] && return 0
		sleep 0.1
	done
	return 1
}

# What the agent sees, and whether it (or a login file before it) can raise
# it: a soft limit one above 64 fails only when the hard one is 64 too.
report='echo "nofile=$(ulimit -n) hnofile=$(ulimit -Hn) fsize=$(ulimit -f) hfsize=$(ulimit -Hf) core=$(ulimit -c) hcore=$(ulimit -Hc)"; if ulimit -Sn 65 2>/dev/null || ulimit -Hn 100000 2>/dev/null; then echo raised; else echo held; fi; cat "$HOME/login-saw" 2>/dev/null'
mkdir -p "$SB/conf"
chmod 755 "$SB/conf"
# Whether this host's cgroup v2 has a memory controller for runs (the CI host's has not).
host_cgroup_v2_memory=$(awk '{for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break }}' \
	/proc/self/mountinfo | while read -r m; do
	grep -qw memory "$m/cgroup.controllers" 2>/dev/null && echo "$m"; done | head -1)
for backend in sudo pam; do
	cat >"$SB/conf/$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
audit_log = $(cfgstr "$SB/audit-$backend/log.jsonl");
open_files_max = 64;
projects = (
  { name = "lim"; run_as_user = "t1"; work_dir = "/tmp"; file_size_max = "1M";
    command = ["bash", "-c", $(cfgstr "$report")]; },
  { name = "plain"; run_as_user = "t1"; work_dir = "/tmp"; open_files_max = 1024; core_dumps = true;
    command = ["bash", "-c", $(cfgstr "$report")]; },
  { name = "big"; run_as_user = "t1"; work_dir = "/tmp"; file_size_max = "1M";
    command = ["bash", "-c", "head -c 2M /dev/zero > \"\$HOME/big\"; echo rc=\$?; stat -c size=%s \"\$HOME/big\""]; },
  { name = "above"; run_as_user = "t1"; work_dir = "/tmp"; open_files_max = 4096;
    command = ["sh", "-c", "echo agent-ran > \"\$HOME/agent-ran\""]; },
  { name = "slow"; run_as_user = "t1"; work_dir = "/tmp"; wall_time_max = 2; terminate_grace = 1;
    command = ["sleep", "30"]; },
  { name = "stubborn"; run_as_user = "t1"; work_dir = "/tmp"; wall_time_max = 2; terminate_grace = 1;
    command = ["bash", "-c", "trap '' TERM; sleep 30 & wait; sleep 30"]; },
  { name = "quick"; run_as_user = "t1"; work_dir = "/tmp"; wall_time_max = 60;
    command = ["true"]; }
);
EOC
	chmod 644 "$SB/conf/$backend.conf"
	# The supervisor's own, as audit_log must be.
	mkdir -m 0700 "$SB/audit-$backend"
	[ "$backend" = sudo ] && chown sup: "$SB/audit-$backend"
done
# The target's login file tries to raise what it can before the agent runs.
cat >"$HOME1/.bash_profile" <<'EOP'
ulimit -Sn 65 2>/dev/null; ulimit -Hn 100000 2>/dev/null; ulimit -Hc unlimited 2>/dev/null
echo "login saw nofile=$(ulimit -n) hnofile=$(ulimit -Hn)" > "$HOME/login-saw"
EOP
chown t1: "$HOME1/.bash_profile"
# The last end record of a project in an audit_log, as "limit=... exit=... signal=...".
end_of() {
	python3 -c '
import json, sys
last = None
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("event") == "end" and r.get("project") == sys.argv[2]:
        last = r
print("limit=%s exit=%s signal=%s" % (last.get("limit"), last.get("exit"), last.get("signal")) if last else "none")
' "$1" "$2"
}
now_ms() { date +%s%3N; }

for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	conf=$SB/conf/$backend.conf

	# ------------------------------------------------------------- rlimits
	rm -f "$HOME1/login-saw"
	run_as "$who" run --quiet -c "$conf" lim
	expect "$backend: a run with open_files_max 64 (global), file_size_max 1M: exit 0" test "$RC" = 0
	expect "$backend: ... the agent has RLIMIT_NOFILE 64, soft and hard" has "$OUT" "nofile=64 hnofile=64 "
	expect "$backend: ... RLIMIT_FSIZE 1M (1024 blocks), soft and hard" has "$OUT" "fsize=1024 hfsize=1024 "
	expect "$backend: ... no core dumps (core_dumps false by default): RLIMIT_CORE 0, hard too" \
		has "$OUT" "core=0 hcore=0"
	expect "$backend: ... the agent cannot raise them" has "$OUT" "held"
	expect "$backend: ... nor could its login file, which ran after they were set" \
		has "$OUT" "login saw nofile=64 hnofile=64"
	expect "$backend: ... nothing of t1 is left" no_leftovers

	# What the run gets without ruas's own: sudo's (which sets RLIMIT_CORE 0
	# for itself) or, as root, this shell's.
	if [ "$backend" = sudo ]; then
		as_user sup sudo -n -u t1 -- sh -c 'ulimit -Hc' >"$SB/hcore" 2>&1 </dev/null
	else
		sh -c 'ulimit -Hc' >"$SB/hcore"
	fi
	hcore=$(cat "$SB/hcore")
	run_as "$who" run --quiet -c "$conf" plain
	# (Its soft limit is the login file's 65: below the hard one, that is allowed.)
	expect "$backend: a project's open_files_max wins over the global one" has "$OUT" " hnofile=1024 "
	expect "$backend: ... core_dumps true leaves RLIMIT_CORE's hard limit as the run gets it ($hcore)" \
		has "$OUT" "hcore=$hcore"
	expect "$backend: ... and no file_size_max leaves RLIMIT_FSIZE as it comes" \
		has "$OUT" "fsize=unlimited hfsize=unlimited "

	rm -f "$HOME1/big"
	run_as "$who" run --quiet -c "$conf" big
	expect "$backend: file_size_max 1M holds: a 2M write stops at 1M (SIGXFSZ)" \
		has "$OUT" "size=1048576"
	expect "$backend: ... and the writer was stopped (not a clean exit)" hasnt "$OUT" "rc=0"

	# A value above the hard limit the run gets: ruas check says so, and
	# the run does not start; a spawn without the check (an embedder that
	# skipped it) is refused by the helper, nothing of the target run. On
	# the pam backend the check runs before the PAM session (pam_limits):
	# a warning there, and the helper's refusal at the start.
	rm -f "$HOME1/agent-ran"
	as_user "$who" prlimit --nofile=1024:2048 -- "$RUAS" check -c "$conf" \
		>"$SB/out" 2>"$SB/err" </dev/null
	RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
	sev=ERROR rc=1
	[ "$backend" = pam ] && sev=WARNING rc=0
	expect "$backend: ruas check: open_files_max 4096 above a hard limit of 2048: $sev (exit $rc)" \
		test "$RC" = "$rc"
	expect "$backend: ... naming the key, both values, the user" has "$ERR" \
		"$sev"': project "above": open_files_max 4096 is above the hard RLIMIT_NOFILE (2048) that runs as user "t1" get from sudo or PAM'
	expect "$backend: ... and the fix" has "$ERR" \
		'Lower open_files_max to 2048 or less, or raise the hard limit of "t1" (pam_limits, for example in /etc/security/limits.conf: t1 hard nofile 4096).'
	expect "$backend: ... the other projects, within it, have no such finding" hasnt "$ERR" 'project "lim": open_files_max'
	# ruas run keeps a passing check (verdict.h): the runs above passed it
	# at the supervisor's usual limits; at a lower hard limit it is judged anew.
	as_user "$who" prlimit --nofile=1024:2048 -- "$RUAS" run --quiet -c "$conf" above \
		>"$SB/out" 2>"$SB/err" </dev/null
	RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
	if [ "$backend" = sudo ]; then
		expect "$backend: ... ruas run refuses it (exit 1), a check kept at other limits not reused" \
			test "$RC" = 1
		expect "$backend: ... saying why" has "$ERR" \
			'open_files_max 4096 is above the hard RLIMIT_NOFILE (2048)'
	else
		expect "$backend: ... ruas run: the run fails as it starts (125)" test "$RC" = 125
		expect "$backend: ... saying why, at the helper's stage" has "$ERR" \
			"open_files_max 4096 is above the hard limit 2048 that this run got from sudo or PAM"
	fi
	expect "$backend: ... and nothing of the target ran" test ! -e "$HOME1/agent-ran"
	as_user "$who" prlimit --nofile=1024:2048 -- "$SB/bin/startspawn" "$conf" above - \
		>"$SB/out" 2>"$SB/err" </dev/null
	RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
	expect "$backend: a spawn without the check fails at the helper's stage (RUAS_STAGE_HELPER)" \
		has "$OUT" "error code=-8 stage=5 "
	expect "$backend: ... naming the key, its value and the hard limit" has "$OUT" \
		"open_files_max 4096 is above the hard limit 2048 that this run got from sudo or PAM"
	expect "$backend: ... and nothing of the target ran" test ! -e "$HOME1/agent-ran"
	expect "$backend: ... nothing of t1 is left" no_leftovers

	# ------------------------------------------------------------- wall_time_max
	t0=$(now_ms)
	run_as "$who" run --quiet -c "$conf" slow
	t1=$(now_ms)
	OUT="$OUT; took $((t1 - t0)) ms"
	expect "$backend: wall_time_max 2 ends a sleep 30 with exit 124" test "$RC" = 124
	expect "$backend: ... no sooner than its deadline, and long before the sleep would end" \
		test $((t1 - t0)) -ge 2000 -a $((t1 - t0)) -lt 25000
	expect "$backend: ... one line naming the limit and its value" has "$ERR" \
		'ruas: project "slow": wall_time_max (2 s) reached: the run was terminated (exit status 124)'
	OUT=$(end_of "$SB/audit-$backend/log.jsonl" slow)
	expect "$backend: ... the end record says limit time" has "$OUT" "limit=time"
	expect "$backend: ... nothing of t1 is left" no_leftovers

	t0=$(now_ms)
	run_as "$who" run --quiet -c "$conf" stubborn
	t1=$(now_ms)
	OUT="$OUT; took $((t1 - t0)) ms"
	expect "$backend: an agent that ignores SIGTERM is killed after the grace: exit 124" test "$RC" = 124
	expect "$backend: ... long before its sleeps would end" test $((t1 - t0)) -lt 25000
	OUT=$(end_of "$SB/audit-$backend/log.jsonl" stubborn)
	expect "$backend: ... killed (SIGKILL), limit time" has "$OUT" "limit=time exit=None signal=SIGKILL"
	expect "$backend: ... nothing of t1 is left" no_leftovers

	run_as "$who" run --quiet -c "$conf" quick
	expect "$backend: a run that ends within its wall_time_max exits as it did" test "$RC" = 0
	OUT=$(end_of "$SB/audit-$backend/log.jsonl" quick)
	expect "$backend: ... limit none" has "$OUT" "limit=none exit=0"

	# ------------------------------------------- the cgroup limits, on this host
	# Where no cgroup v2 can hold them (this CI host: memory and pids are
	# cgroup v1's), a project with them is a fatal check and never starts.
	# Where one could, tests/integration/limits_vm.sh holds them; making
	# runs' cgroups in this host's own tree is not this sandbox's to do.
	if [ -z "$host_cgroup_v2_memory" ]; then
		cat >"$SB/conf/cg-$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
projects = (
  { name = "cg"; run_as_user = "t1"; work_dir = "/tmp"; memory_max = "64M"; tasks_max = 100;
    command = ["sh", "-c", "echo agent-ran > \"\$HOME/agent-ran\""]; }
);
EOC
		chmod 644 "$SB/conf/cg-$backend.conf"
		rm -f "$HOME1/agent-ran"
		run_as "$who" check -c "$SB/conf/cg-$backend.conf"
		expect "$backend: memory_max and tasks_max without a cgroup v2 for them: ruas check fails (1)" \
			test "$RC" = 1
		expect "$backend: ... a fatal limits finding naming the keys and what is missing" has "$ERR" \
			'ERROR: project "cg": memory_max, tasks_max need a cgroup of each run'"'"'s own, and none can be made: '
		expect "$backend: ... and the fix" has "$ERR" 'cgroup v2'
		run_as "$who" run --quiet -c "$SB/conf/cg-$backend.conf" cg
		expect "$backend: ... ruas run refuses it (1)" test "$RC" = 1
		as_user "$who" "$SB/bin/startspawn" "$SB/conf/cg-$backend.conf" cg - >"$SB/out" 2>"$SB/err" </dev/null
		RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
		expect "$backend: ... a spawn without the check is refused (RUAS_ERR_CONFIG), in the same words" \
			has "$OUT" 'error code=-1 stage=0 errno=0 file=
message=project "cg": refusing to start user "t1": memory_max, tasks_max need a cgroup of each run'"'"'s own, and none can be made: '
		expect "$backend: ... and nothing of the target ran" test ! -e "$HOME1/agent-ran"
		expect "$backend: ... nothing of t1 is left" no_leftovers
	else
		echo "# SKIP: this host has a cgroup v2 memory controller ($host_cgroup_v2_memory): the cgroup limits are held in tests/integration/limits_vm.sh" >&2
		expect "$backend: (cgroup limits on this host: the VM suite's, this host has cgroup v2)" true
	fi
done

tap_finish
