#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the audit trail (issue 16), in the sandbox, as root:
# a real syslog receiver on /dev/log (syslog_listener.py, on a /dev of the
# namespace's own) gets the records of `ruas run`, of a failed check, of
# signal-ended agents, of an embedded spawn and of a supervisor killed with
# SIGKILL mid-run (whose end the helper records); audit_records.py parses
# each strictly, and every field is checked, with hostile arguments. The
# JSON lines file gets the same records, parsed with a JSON parser.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/audit.sh"
if ! command -v python3 >/dev/null; then
	echo "SKIP: tests/integration/audit.sh needs python3 (its syslog receiver)" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=46000
sandbox_setup
sandbox_guard
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"

# ------------------------------------------------------------ a /dev/log
# The host has no /dev/log: one of the namespace's own (sandbox.sh).
sandbox_devlog
expect "the receiver listens on /dev/log" test -S /dev/log
cleanup() { kill "$LISTENER" 2>/dev/null; }
trap cleanup EXIT

RECS="$abs_top_srcdir/tests/integration/audit_records.py"
# recs_ok NAME EXPR: the records received so far satisfy EXPR (audit_records.py).
recs_ok() {
	local name=$1
	sleep 0.2 # datagrams are delivered at once; the receiver's write may lag a little
	ERR=$(python3 "$RECS" "$CAP" "$2" 2>&1)
	RC=$?
	OUT=""
	expect "$name" test "$RC" = 0
}
# wait_recs EXPR: up to 10 s for the records to satisfy EXPR.
wait_recs() {
	for _ in $(seq 100); do
		python3 "$RECS" "$CAP" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# ------------------------------------------------------------------ users
sandbox_user sup
sandbox_user a1
sandbox_user a2
sandbox_sudoers ruas-sup 'sup ALL=(a1) NOPASSWD: ALL' 'Defaults:a1 listpw=never' \
	'sup ALL=(a2) NOPASSWD: ALL' 'Defaults:a2 listpw=never'
# a2 can get root through a rule of its own: its check is fatal.
sandbox_sudoers a2-escalates 'a2 ALL=(ALL) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
A1_UID=$(id -u a1)
SUP_UID=$(id -u sup)
W=$SB/w
mkdir -p "$W" "$SB/conf" /var/log/ruas
chown a1:a1 "$W"
chmod 755 "$W" "$SB/conf"
chown sup /var/log/ruas
chmod 700 /var/log/ruas
LOG=/var/log/ruas/audit.jsonl
SECRET='s3cr3t-VALUE-9f8e7d'
# The agent: writes its run id and its arguments (NUL-separated) into W.
AGENT='printf %s "$RUAS_RUN_ID" > "$0/runid"; printf "%s\0" "$@" > "$0/args"; exit 0'
conf() { # NAME EXTRA: a configuration of the test's projects
	local f="$SB/conf/$1.conf"
	{
		printf 'helper = %s;\nsession_helper = %s;\nterminate_grace = 1;\n' \
			"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")"
		printf 'env_allowlist = ["LANG", "SECRET_TOKEN"];\n%s\nprojects = (\n' "$2"
		printf '  { name = "echo"; run_as_user = "a1"; work_dir = %s;\n' "$(cfgstr "$W")"
		printf '    command = ["/bin/sh", "-c", %s, %s]; },\n' "$(cfgstr "$AGENT")" "$(cfgstr "$W")"
		printf '  { name = "selfkill"; run_as_user = "a1"; work_dir = %s;\n' "$(cfgstr "$W")"
		printf '    command = ["/bin/sh", "-c", "kill -KILL $$"]; },\n'
		printf '  { name = "bg"; run_as_user = "a1"; work_dir = %s;\n' "$(cfgstr "$W")"
		printf '    command = ["/bin/sh", "-c", "sleep 300 & sleep 300 & exit 4"]; },\n'
		printf '  { name = "bgsub"; run_as_user = "a1"; work_dir = %s; lifetime = "subreaper";\n' \
			"$(cfgstr "$W")"
		printf '    command = ["/bin/sh", "-c", "sleep 300 & exit 0"]; },\n'
		printf '  { name = "sleeper"; run_as_user = "a1"; work_dir = %s;\n' "$(cfgstr "$W")"
		printf '    command = ["/bin/sleep", "300"]; },\n'
		# Stops its own helper (the same uid, under the subreaper), for longer than
		# ruas_child_free() waits, then lets it go on.
		printf '  { name = "stopper"; run_as_user = "a1"; work_dir = %s; lifetime = "subreaper";\n' \
			"$(cfgstr "$W")"
		printf '    command = ["/bin/sh", "-c", "kill -STOP $PPID; sleep 5; kill -CONT $PPID; sleep 300"]; }\n);\n'
	} >"$f"
	chmod 644 "$f"
	CONF=$f
}
conf main "audit_log = \"$LOG\";"
MAIN=$CONF
EXTRA_ENV=(SECRET_TOKEN="$SECRET")

# ------------------------------------------------ ruas run, hostile arguments
BIG=$(head -c 10240 /dev/zero | tr '\0' A)
run_sup run -c "$MAIN" -q echo -- $'line\nbreak end run=forged exit=0' 'q"x project="evil' \
	'k=v' '$HOME' '' $'tab\there' "$BIG" 'caf'$'\xc3\xa9'
expect "ruas run exits as the agent did" test "$RC" = 0
RUN=$(cat "$W/runid")
expect "the agent sees RUAS_RUN_ID, 32 hex digits" test "${#RUN}" = 32 -a -z "${RUN//[0-9a-f]/}"
R="[r for r in recs if r['f'].get('run') == '$RUN']"
recs_ok "exactly one start and one end record for the run, and nothing else of it" \
	"[r['kind'] for r in $R] == ['start', 'end']"
S="[r for r in $R if r['kind'] == 'start'][0]['f']"
recs_ok "start: its fields, in order" \
	"list($S) == ['run','project','person','supervisor','target','backend','lifetime','work_dir','env','deny','checks','pid','argc','argv','argv_len']"
recs_ok "start: project, person, supervisor, target, backend, work_dir, checks" \
	"($S)['project'] == 'echo' and ($S)['person'] == '-' and ($S)['supervisor'] == 'sup' and ($S)['target'] == 'a1' and ($S)['backend'] == 'sudo' and ($S)['lifetime'] == 'auto' and ($S)['work_dir'] == '$W' and ($S)['checks'] == 'ok' and ($S)['deny'] == '-'"
recs_ok "start: every hostile argument exactly, one record, none forged" \
	"($S)['argv'][:2] == ['/bin/sh', '-c'] and ($S)['argv'][3:] == ['$W', 'line\\nbreak end run=forged exit=0', 'q\"x project=\"evil', 'k=v', '\$HOME', '', 'tab\\there', 'A' * 256, 'caf\\xc3\\xa9'] and len([r for r in recs if r['kind'] == 'end' and r['f'].get('run') == 'forged']) == 0"
recs_ok "start: the 10 KiB argument is cut to 256 bytes, with its length" \
	"($S)['argv_len'] == ['10:10240'] and ($S)['argc'] == '12'"
recs_ok "start: the variables by name, never a value" \
	"($S)['env'] == ['LANG', 'SECRET_TOKEN'] and not any('$SECRET' in r['raw'] for r in recs)"
recs_ok "start: the pid is the sudo that ruas started, the tag's pid is ruas's" \
	"int(($S)['pid']) > 0 and [r for r in $R][0]['pid'] != int(($S)['pid'])"
recs_ok "records go to authpriv.info by default" "all(r['pri'] == (10 << 3 | 6) for r in $R)"
E="[r for r in $R if r['kind'] == 'end'][0]['f']"
recs_ok "end: run, project, exit, signal, duration_ms, survivors_killed, started, lifetime, agent_pid, limit, memory_peak, cpu_usec (- without a cgroup of the run's)" \
	"list($E) == ['run','project','exit','signal','duration_ms','survivors_killed','started','lifetime','agent_pid','limit','memory_peak','cpu_usec'] and ($E)['memory_peak'] == '-' and ($E)['cpu_usec'] == '-' and ($E)['limit'] == 'none' and ($E)['exit'] == '0' and ($E)['signal'] == '-' and int(($E)['duration_ms']) >= 0 and ($E)['survivors_killed'] == '0' and ($E)['started'] == 'yes'"
recs_ok "end: the lifetime the run had (not 'auto'), and the agent's own pid, not sudo's" \
	"($E)['lifetime'] in ('pidns', 'subreaper') and int(($E)['agent_pid']) > 0 and int(($E)['agent_pid']) != int(($S)['pid'])"
recs_ok "a check record from ruas run's preflight" \
	"any(r['kind'] == 'check' and r['f']['result'] == 'ok' and r['f']['supervisor'] == 'sup' for r in recs)"
printf '%s\0' $'line\nbreak end run=forged exit=0' 'q"x project="evil' 'k=v' '$HOME' '' \
	$'tab\there' "$BIG" 'caf'$'\xc3\xa9' >"$SB/want-args"
expect "the agent got its arguments whole (only the record is cut)" cmp -s "$W/args" "$SB/want-args"

# --------------------------------------------------------- ended by signals
run_sup run -c "$MAIN" -q selfkill
expect "an agent killed by SIGKILL: ruas exits 137" test "$RC" = 137
recs_ok "... its end says signal=SIGKILL, exit=-" \
	"any(r['kind'] == 'end' and r['f']['project'] == 'selfkill' and r['f']['signal'] == 'SIGKILL' and r['f']['exit'] == '-' for r in recs)"
run_sup run -c "$MAIN" -q bg
expect "an agent that leaves two processes behind exits 4" test "$RC" = 4
recs_ok "... its end says survivors_killed=2 (PID namespace)" \
	"any(r['kind'] == 'end' and r['f']['project'] == 'bg' and r['f']['exit'] == '4' and r['f']['survivors_killed'] == '2' for r in recs)"
run_sup run -c "$MAIN" -q bgsub
recs_ok "... and survivors_killed=1 for one left under the subreaper" \
	"any(r['kind'] == 'end' and r['f']['project'] == 'bgsub' and r['f']['survivors_killed'] == '1' for r in recs)"
expect "nothing of the target is left" bash -c "! pgrep -u a1 >/dev/null"

# ------------------------------------------------------------- failed check
conf fatal "audit_log = \"$LOG\";"
sed -i 's/run_as_user = "a1"/run_as_user = "a2"/' "$CONF"
FATAL=$CONF
run_sup check -c "$FATAL"
expect "ruas check of a target that can get root exits 1" test "$RC" = 1
recs_ok "a check record: the fatal counts, the fatal check ids, result=fatal" \
	"any(r['kind'] == 'check' and r['f']['config'] == '$FATAL' and r['f']['projects'] == '6' and int(r['f']['fatal']) >= 6 and 'escalation' in r['f']['fatal_checks'] and r['f']['result'] == 'fatal' for r in recs)"
# A person's project: the start names the person, and the deny list's sha256.
mkdir -p "$SB/wt/alice/repo" "$SB/cred" "$SB/cp"
chown a1:a1 "$SB/wt/alice" "$SB/wt/alice/repo"
chmod 700 "$SB/cred"
PCONF=$SB/conf/people.conf
cat >"$PCONF" <<EOC
helper = $(cfgstr "$HELPER");
audit_log = "$LOG";
people = { worktrees = "$SB/wt"; credentials = "$SB/cred"; claude_projects = "$SB/cp";
  members = ( { id = "alice"; run_as_user = "a1"; } ); };
projects = ( { name = "pecho"; person = "alice"; work_dir = "$SB/wt/alice/repo";
  command = ["/bin/sh", "-c", "sha256sum < \"\$RUAS_DENY_LIST\" | cut -d' ' -f1 > denyhash"]; } );
EOC
chmod 644 "$PCONF"
run_sup run -c "$PCONF" -q pecho
expect "a person's project runs" test "$RC" = 0
DENY=$(cat "$SB/wt/alice/repo/denyhash")
recs_ok "its start names the person, and deny=sha256: of the list the agent got" \
	"any(r['kind'] == 'start' and r['f']['project'] == 'pecho' and r['f']['person'] == 'alice' and r['f']['deny'] == 'sha256:$DENY' for r in recs)"
run_sup audit -c "$PCONF"
recs_ok "ruas audit leaves an audit record, with its counts" \
	"any(r['kind'] == 'audit' and r['f']['config'] == '$PCONF' and r['f']['people'] == '1' and r['f']['result'] in ('ok', 'fatal') for r in recs)"

# ---------------------------------------------- facility, argv none and full
conf local3 'audit_facility = "local3"; audit_argv = "none";'
run_sup run -c "$CONF" -q echo -- "$SECRET-as-an-argument"
RUN3=$(cat "$W/runid")
recs_ok "audit_facility = local3: local3.info" \
	"all(r['pri'] == (19 << 3 | 6) for r in recs if r['f'].get('run') == '$RUN3')"
recs_ok "audit_argv = none: argv=- and no argument anywhere, argc still counted" \
	"[r['f']['argv'] for r in recs if r['kind'] == 'start' and r['f']['run'] == '$RUN3'] == ['-'] and not any('as-an-argument' in r['raw'] for r in recs) and [r['f']['argc'] for r in recs if r['kind'] == 'start' and r['f']['run'] == '$RUN3'] == ['5']"
conf full "audit_argv = \"full\"; audit_log = \"$LOG\";"
run_sup run -c "$CONF" -q echo -- "$BIG"
RUNF=$(cat "$W/runid")
recs_ok "audit_argv = full: syslog gets the 10 KiB argument cut to fit one 8 KiB line, with its length" \
	"[(len(r['raw']) <= 8192, r['f']['argv'][-1] == 'A' * 4096, r['f']['argv_len']) for r in recs if r['kind'] == 'start' and r['f']['run'] == '$RUNF'] == [(True, True, ['4:10240'])]"

ERR=$(python3 "$RECS" "$CAP" "[o['argv'][-1] == 'A' * 10240 and 'argv_len' not in o for o in json_lines('$LOG') if o['event'] == 'start' and o['run'] == '$RUNF'] == [True]" 2>&1)
RC=$?
expect "... and the audit_log gets it whole" test "$RC" = 0

# ------------------------------------------------------------ embedded spawns
consumer_flags
consumer_build auditspawn "$abs_top_srcdir/tests/consumer/auditspawn.c"
expect "an embedder's program builds against the installed library" test "$RC" = 0
as_user sup "$SB/bin/auditspawn" "$MAIN" echo syslog one >"$SB/emb.out" 2>"$SB/emb.err"
EMB=$(sed -n 's/^run=//p' "$SB/emb.out")
recs_ok "an embedded spawn (default sink): start and end in syslog, tagged ruas, its own pid" \
	"[r['kind'] for r in recs if r['f'].get('run') == '$EMB'] == ['start', 'end'] and all(r['uid'] == $SUP_UID for r in recs if r['f'].get('run') == '$EMB')"
expect "... and the agent's RUAS_RUN_ID is ruas_child_run_id()" test "$(cat "$W/runid")" = "$EMB"
as_user sup "$SB/bin/auditspawn" "$MAIN" echo callback two >"$SB/cb.out" 2>"$SB/emb.err"
CB=$(sed -n 's/^run=//p' "$SB/cb.out")
recs_ok "a callback sink replaces syslog: nothing of that run there" \
	"not any(r['f'].get('run') == '$CB' for r in recs)"
OUT=$(cat "$SB/cb.out")
expect "... the callback got the check, the start and the end, with the run id" \
	test "$(grep -c '^cb ' "$SB/cb.out")" = 3 -a "$(grep -c "^cb \(start\|end\) $CB " "$SB/cb.out")" = 2
as_user sup "$SB/bin/auditspawn" "$MAIN" echo none three >"$SB/none.out" 2>"$SB/emb.err"
NONE=$(sed -n 's/^run=//p' "$SB/none.out")
recs_ok "RUAS_AUDIT_TO_NONE: nothing in syslog" "not any(r['f'].get('run') == '$NONE' for r in recs)"
expect "... but the operator's audit_log still has the run" grep -q "\"run\":\"$NONE\"" "$LOG"

# ------------------------------------------ the supervisor killed mid-run
lost() { # BACKEND WHO: ruas run of sleeper as WHO, SIGKILLed once it has started
	local backend=$1 who=$2
	conf "lost-$backend" "backend = \"$backend\";"
	as_user_bg "$who" "$RUAS" run -c "$CONF" -q sleeper
	local sup_pid=$BGPID
	wait_recs "any(r['kind'] == 'start' and r['f']['project'] == 'sleeper' and r['pid'] == $sup_pid for r in recs)"
	local run
	run=$(python3 -c "
import sys; sys.path.insert(0, '$abs_top_srcdir/tests/integration')
import audit_records as a
print([r['f']['run'] for r in a.records('$CAP') if r['kind'] == 'start' and r['pid'] == $sup_pid][0])")
	kill -KILL "$sup_pid"
	wait "$sup_pid" 2>/dev/null
	wait_recs "any(r['kind'] == 'end' and r['f']['run'] == '$run' for r in recs)"
	recs_ok "$backend: a supervisor SIGKILLed mid-run still gets its end record, marked supervisor=lost" \
		"[(list(f), f['exit'], f['signal'], f['survivors_killed'], f['started'], f['supervisor'], int(f['duration_ms']) > 0) for f in [r['f'] for r in recs if r['kind'] == 'end' and r['f']['run'] == '$run']] == [(['run', 'exit', 'signal', 'duration_ms', 'survivors_killed', 'started', 'supervisor'], '-', 'SIGTERM', '0', 'yes', 'lost', True)]"
	recs_ok "$backend: ... sent by the side that survived, as the target (the receiver's credentials)" \
		"[r['uid'] for r in recs if r['kind'] == 'end' and r['f']['run'] == '$run'] == [$A1_UID]"
	for _ in $(seq 50); do pgrep -u a1 >/dev/null || break; sleep 0.1; done
	expect "$backend: ... and nothing of the target is left" bash -c "! pgrep -u a1 >/dev/null"
}
lost sudo sup
lost pam root

# ----------------------- one end record, even when free outwaits a stopped helper
# ruas_child_free() waits FREE_WAIT_MS for the helper, then kills sudo and
# records the end. The agent had stopped its helper; it lets it go on once the
# embedder has exited: the helper must not then add an end of its own
# (supervisor=lost) to a run whose end the library recorded.
as_user sup /usr/bin/env AUDITSPAWN_FREE_AFTER=1 "$SB/bin/auditspawn" "$MAIN" stopper syslog >"$SB/stop.out" 2>"$SB/stop.err"
STOPRUN=$(sed -n 's/^run=//p' "$SB/stop.out")
sleep 6
for _ in $(seq 50); do pgrep -u a1 >/dev/null || break; sleep 0.1; done
recs_ok "a helper stopped past ruas_child_free(): exactly one end record for the run" \
	"[r['kind'] for r in recs if r['f'].get('run') == '$STOPRUN'] == ['start', 'end']"
expect "... and nothing of the target is left" bash -c "! pgrep -u a1 >/dev/null"

# --------------------------------------------------------- the JSON lines file
ERR=$(python3 "$RECS" "$CAP" "[o for o in json_lines('$LOG')] is not None" 2>&1)
RC=$?
expect "every line of the audit_log parses as JSON" test "$RC" = 0
expect "the audit_log is 0600, sup's" test "$(stat -c '%a %U' "$LOG")" = "600 sup"
recs_ok "each start and end in the audit_log is its syslog record, field for field" \
	"unmatched([o for o in json_lines('$LOG') if o['event'] in ('start', 'end') and o['run'] not in ('$CB', '$NONE', '$RUNF')], recs)"
recs_ok "... and every run of the main configuration is in it" \
	"{o['run'] for o in json_lines('$LOG') if o['event'] == 'start'} >= {'$RUN', '$EMB', '$NONE', '$CB'}"
recs_ok "... with the hostile arguments as JSON strings" \
	"[o['argv'][4:6] for o in json_lines('$LOG') if o['event'] == 'start' and o['run'] == '$RUN'] == [['line\\nbreak end run=forged exit=0', 'q\"x project=\"evil']]"
expect "no allowlisted value in the audit_log" bash -c "! grep -qF '$SECRET' '$LOG'"
recs_ok "the check and audit summaries are in it too" \
	"{o['event'] for o in json_lines('$LOG')} >= {'check', 'audit', 'start', 'end'}"

# ------------------------------------------------- an audit_log a target owns
conf owned "audit_log = \"$W/audit.jsonl\";"
touch "$W/audit.jsonl"
chown a1 "$W/audit.jsonl"
chmod 600 "$W/audit.jsonl"
run_sup run -c "$CONF" -q echo
expect "an audit_log the target owns: ruas run refuses, exit 1" test "$RC" = 1
expect "... naming the check, the path and why" has "$ERR" "cannot write the audit log \"$W/audit.jsonl\""
expect "... and the agent did not run" test "$(cat "$W/runid")" = "$NONE"
ln -sf /var/log/ruas/audit.jsonl "$SB/link.jsonl"
conf linked "audit_log = \"$SB/link.jsonl\";"
run_sup check -c "$CONF"
expect "an audit_log that is a symlink: ruas check exits 1" test "$RC" = 1
expect "... with a fatal audit_log finding" has "$ERR" "it is a symlink"

# --------------------------------- an audit_log where others can take its name
# (issue 25) Another local user creates the log's name first in a directory
# anyone may write, sticky or not: every spawn would then be refused for good.
# Refused at load (exit 2), naming the directory, the name and the fix; the
# squatter's file is left as it was.
as_user a2 sh -c 'umask 077; echo squat > /tmp/ruas-audit.jsonl'
conf squat "audit_log = \"/tmp/ruas-audit.jsonl\";"
run_sup check -c "$CONF"
expect "an audit_log in /tmp (sticky, 1777): ruas check refuses at load, exit 2" test "$RC" = 2
expect "... naming the directory, the name and the fix" has "$ERR" \
	'audit_log "/tmp/ruas-audit.jsonl" is refused: the directory "/tmp" that holds it is writable by its group or by others (sticky or not), who could create "ruas-audit.jsonl" first'
expect "... and the fix" has "$ERR" "such as /var/log/ruas"
run_sup run -c "$CONF" -q echo
expect "... ruas run refuses too, exit 2, and the agent does not run" test "$RC" = 2 -a "$(cat "$W/runid")" = "$NONE"
expect "... the squatter's file is untouched" test "$(cat /tmp/ruas-audit.jsonl)" = squat
mkdir -m 1770 "$SB/grouplogs"
chown sup:a2 "$SB/grouplogs"
conf grouplog "audit_log = \"$SB/grouplogs/audit.jsonl\";"
run_sup check -c "$CONF"
expect "an audit_log in a directory its group may write (1770): refused at load, exit 2" test "$RC" = 2
expect "... naming it" has "$ERR" "the directory \"$SB/grouplogs\" that holds it is writable by its group"
mkdir -m 755 "$SB/grouplogs/own"
chown sup:sup "$SB/grouplogs/own"
conf ownlog "audit_log = \"$SB/grouplogs/own/audit.jsonl\";"
run_sup check -c "$CONF"
expect "... a directory of the supervisor's own beneath it is fine (sticky above): ruas check exits 0" test "$RC" = 0
rm -f /tmp/ruas-audit.jsonl

# ------------------------------------------- a syslogd that stops reading
# (issue 26, item 10) Its datagram queue full, or a stream socket whose
# backlog it never accepts: ruas's own records do not hold the run (each
# gets 250 ms), it ends as the agent does, and ruas says how many records
# syslog did not take. A project without run_as_user: sudo and PAM log
# through syslog(3) themselves, and block on such a daemon as every other
# program's log lines do, which is not ruas's to change. A hang would be
# caught by the timeout.
kill "$LISTENER" 2>/dev/null
wait "$LISTENER" 2>/dev/null
for kind in datagram stream; do
	rm -f /dev/log
	python3 -c '
import os, socket, sys, time
kind = sys.argv[1]
t = socket.SOCK_DGRAM if kind == "datagram" else socket.SOCK_STREAM
s = socket.socket(socket.AF_UNIX, t)
if kind == "datagram":
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
s.bind("/dev/log")
os.chmod("/dev/log", 0o666)
held = []
if kind == "stream":
    s.listen(0)
while True:  # fill its queue or its backlog, then never read or accept
    c = socket.socket(socket.AF_UNIX, t)
    c.setblocking(False)
    try:
        c.connect("/dev/log")
        held.append(c)
        if kind == "datagram":
            while True:
                c.send(b"x" * 256)
    except (BlockingIOError, InterruptedError):
        break
print("READY", flush=True)
time.sleep(3600)
' "$kind" >"$SB/deaf.out" 2>&1 &
	DEAF=$!
	for _ in $(seq 100); do grep -q READY "$SB/deaf.out" 2>/dev/null && break; sleep 0.05; done
	f="$SB/conf/deaf.conf"
	mkdir -p "$SB/w-sup"
	chown sup "$SB/w-sup"
	printf 'projects = ( { name = "selfkill"; work_dir = %s; command = ["/bin/sh", "-c", "kill -KILL $$"]; } );\n' \
		"$(cfgstr "$SB/w-sup")" >"$f"
	chown sup "$f"
	chmod 600 "$f"
	CONF=$f
	start=$SECONDS
	OUT=$(timeout 60 env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$(getent passwd sup | cut -d: -f6)" \
		USER=sup LOGNAME=sup LANG=C.UTF-8 LD_LIBRARY_PATH="$LIBDIR" \
		setpriv --reuid=sup --regid=sup --init-groups -- "$RUAS" run -c "$CONF" selfkill 2>&1 </dev/null)
	RC=$?
	ERR=""
	kill "$DEAF" 2>/dev/null
	wait "$DEAF" 2>/dev/null
	expect "a $kind syslogd that never reads: ruas run is not held, the agent's status passes (137)" \
		test "$RC" = 137
	expect "... and ruas (not asked to be quiet) says how many records syslog did not take" \
		has "$OUT" "audit record(s) could not be delivered to syslog"
	echo "# a $kind syslogd that never reads: the run took $((SECONDS - start)) s"
done

tap_finish
