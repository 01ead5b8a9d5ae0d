#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for hostile login files (issue 24): a target's
# /etc/profile, ~/.bash_profile, ~/.profile and ~/.bashrc are the target's
# own code, and ruas must hold against them.
#
#   - Checks (ruas check, check --json, ruas audit) run no login file: the
#     same result with and without hostile ones, for every project, never
#     delayed by them, and nothing of the target left behind.
#   - Spawns run the login shell inside the confinement, after the helper:
#     in the run's PID namespace, inside bwrap for a person with
#     enforce = "bwrap". Login code finds no channel to steal (where it can
#     take one it reads the secret, runs the real helper behind its back
#     and forges its EXIT), forging an EXIT on every socket it holds
#     changes nothing, what it starts ends with the run (no pipe of ruas
#     run left held), its output goes to stderr, never into the agent's
#     stdout; the agent's environment is still the login environment.
#   - A login shell that ends before the agent starts is exit 125, "ended
#     before the agent started", and started=no in the end record.
#   - A supervisor SIGKILLed 0-20 ms after ruas_spawn() returned still gets
#     an end record for every start record (both backends).
#
# Both backends (sudo: supervisor sup; pam: root), a bash target (reads
# ~/.bash_profile first), a dash target (/bin/sh: ~/.profile only), and a
# person's target under bubblewrap. The hostile login code is
# confine_spy.py (what it records: see there) and shell builtins; the audit
# records come through a real receiver on the namespace's own /dev/log
# (syslog_listener.py, audit_records.py, as tests/integration/audit.sh).
# Inside the private-namespace sandbox; needs root. Every run is under a
# timeout (120 s for ruas run, 30 s for a check, 60 s for the one whose
# login file sleeps 200 s): where login files still ran outside (before
# issue 24), those hung until then, and the suite took some 15 minutes;
# now it takes about one.
# CONFINE_PARTS="checks spawns-pam ..." runs only some parts (see part()).
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/confine.sh"
for tool in python3 /usr/bin/python3 bwrap dash pgrep timeout cc pkg-config; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: tests/integration/confine.sh needs $tool" >&2
		exit 77
	fi
done
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=47000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }

# ------------------------------------------------------------ a /dev/log
# As audit.sh: one of the namespace's own (sandbox.sh).
sandbox_devlog
expect "the receiver listens on /dev/log" test -S /dev/log
RECS="$abs_top_srcdir/tests/integration/audit_records.py"
cleanup() {
	kill "$LISTENER" 2>/dev/null
	for t in ${TARGETS:-}; do pkill -KILL -u "$t" 2>/dev/null; done
}
trap cleanup EXIT
# part NAME: whether to run the part NAME (checks, spawns, kill; or
# checks-sudo, spawns-pam, ...): all of them unless CONFINE_PARTS names
# some (for working on one part).
part() { [ -z "${CONFINE_PARTS:-}" ] || [[ " $CONFINE_PARTS " == *" $1 "* ]]; }

# ------------------------------------------------------------------ users
# tb: bash, the hostile one; td: /bin/sh (dash); tp: bash, the user of the
# people alice and bob (bwrap keeps them apart); tc: bash, never hostile;
# te: bash, can get root (its check is fatal: escalation).
TARGETS="tb td tp tc te"
sandbox_user sup
sandbox_user tb
sandbox_user td -s /bin/sh
sandbox_user tp
sandbox_user tc
sandbox_user te
rules=()
for t in $TARGETS; do rules+=("sup ALL=($t) NOPASSWD: ALL" "Defaults:$t listpw=never"); done
sandbox_sudoers ruas-sup "${rules[@]}"
sandbox_sudoers te-escalates 'te ALL=(ALL) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
HOSTNS=$(readlink /proc/self/ns/pid)
# The sandbox's PID namespace as a file any user can stat (nsfs, 0444), so
# that a login shell can tell by a builtin whether it runs in it.
HOSTNS_FILE=$SB/hostns
touch "$HOSTNS_FILE"
mount --bind /proc/self/ns/pid "$HOSTNS_FILE"
SECRET="sk-secret-$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')"
EXTRA_ENV=(ANTHROPIC_API_KEY="$SECRET")
install -m 755 "$abs_top_srcdir/tests/integration/confine_spy.py" "$SB/spy.py"
SPY=$SB/spy.py

# Work directories, and the people's tree: bob's file is what alice's
# deny list hides (bwrap); tp owns both, so only bwrap keeps it from her.
mkdir -p "$SB/w" "$SB/conf"
for t in tb td tc te; do
	mkdir -p "$SB/w/$t"
	chown "$t:$t" "$SB/w/$t"
done
WT=$SB/wt
mkdir -p "$WT/alice/repo" "$WT/bob/repo" "$SB/cred" "$SB/cp"
BOBS="bob-secret-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')"
echo "$BOBS" >"$WT/bob/secret.txt"
chown -R tp:tp "$WT/alice" "$WT/bob"
chmod 755 "$WT" "$SB/w" "$SB/conf"
chmod 700 "$SB/cred"
FORBIDDEN=$WT/bob/secret.txt

# The agent: records its PID namespace, its environment and its run id in
# its HOME, prints exact bytes (no final newline) on stdout and a line on
# stderr, and exits 3.
AGENT='readlink /proc/self/ns/pid > "$HOME/agent.ns"; env -0 > "$HOME/agent.env"; printf %s "$RUAS_RUN_ID" > "$HOME/agent.runid"; printf "agent-stdout %s\n\001\377 end" "$1"; echo agent-stderr >&2; exit 3'
printf 'agent-stdout x\n\001\377 end' >"$SB/want-stdout"
agent() { printf '["/bin/sh", "-c", %s, "agent"]' "$(cfgstr "$AGENT")"; }
# write_conf FILE BACKEND EXTRA-PROJECTS: the projects of every test.
write_conf() {
	{
		printf 'helper = %s;\nsession_helper = %s;\nbackend = "%s";\nterminate_grace = 1;\n' \
			"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$2"
		printf 'env_allowlist = ["ANTHROPIC_API_KEY"];\n'
		printf 'people = { worktrees = %s; credentials = %s; claude_projects = %s; enforce = "bwrap";\n' \
			"$(cfgstr "$WT")" "$(cfgstr "$SB/cred")" "$(cfgstr "$SB/cp")"
		printf '  members = ( { id = "alice"; run_as_user = "tp"; }, { id = "bob"; run_as_user = "tp"; } ); };\n'
		printf 'projects = (\n'
		printf '  { name = "bash"; run_as_user = "tb"; work_dir = %s; command = %s; },\n' \
			"$(cfgstr "$SB/w/tb")" "$(agent)"
		printf '  { name = "dash"; run_as_user = "td"; work_dir = %s; command = %s; },\n' \
			"$(cfgstr "$SB/w/td")" "$(agent)"
		printf '  { name = "alice"; person = "alice"; work_dir = %s; command = %s; },\n' \
			"$(cfgstr "$WT/alice/repo")" "$(agent)"
		printf '  { name = "sleeper"; run_as_user = "tb"; work_dir = %s; command = ["/bin/sleep", "60"]; },\n' \
			"$(cfgstr "$SB/w/tb")"
		printf '%s' "$3"
		printf '  { name = "clean"; run_as_user = "tc"; work_dir = %s; command = %s; }\n);\n' \
			"$(cfgstr "$SB/w/tc")" "$(agent)"
	} >"$1"
	chmod 644 "$1"
}
ESC=$(printf '  { name = "esc"; run_as_user = "te"; work_dir = %s; command = ["true"]; },\n' \
	"$(cfgstr "$SB/w/te")")
for b in sudo pam; do
	write_conf "$SB/conf/$b.conf" "$b" ""
	write_conf "$SB/conf/$b-checks.conf" "$b" "$ESC"
done
who_of() { if [ "$1" = pam ]; then echo root; else echo sup; fi; }
user_of() { case $1 in bash) echo tb ;; dash) echo td ;; alice) echo tp ;; clean) echo tc ;; esac; }

# ------------------------------------------------------------- login files
# login_reset: every target back to Debian's skeleton, nothing in
# /etc/profile.d of ours, no evidence, nothing of the targets running.
login_reset() {
	local t h
	rm -f /etc/profile.d/zz-chatter.sh
	for t in $TARGETS; do
		pkill -KILL -u "$t" 2>/dev/null
		h=/home/$t
		rm -rf "${h:?}/.bash_profile" "$h/.bash_login" "$h/.profile" "$h/.bashrc" "$h/mybin" "${h:?}/bin" \
			"$h/ev.jsonl" "$h/spy.err" "$h/agent.ns" "$h/agent.env" "$h/agent.runid"
		cp /etc/skel/.profile /etc/skel/.bashrc "$h/"
		chown "$t:$t" "$h/.profile" "$h/.bashrc"
		: >"$h/ev.jsonl"
		chown "$t:$t" "$h/ev.jsonl"
	done
	for t in $TARGETS; do
		for _ in $(seq 50); do pgrep -u "$t" >/dev/null || break; sleep 0.1; done
	done
}
# put T FILE: FILE (relative to T's home) gets stdin, as T's own.
put() {
	cat >"/home/$1/$2"
	chown "$1:$1" "/home/$1/$2"
}
# primary T: the login file T's shell reads (bash: ~/.bash_profile before ~/.profile).
primary() { if [ "$1" = td ]; then echo .profile; else echo .bash_profile; fi; }
# hostile_code T FILE: daemons (which leave the session, ignore SIGTERM,
# or hold the shell's descriptors), the spy (confine_spy.py: evidence, and
# a man in the middle of any channel it can take), and a forged EXIT into
# every socket descriptor of the shell's own (by builtins).
hostile_code() {
	cat <<EOF
# hostile login code of $1 (tests/integration/confine.sh)
# Is this shell itself in the sandbox's PID namespace? (test is a builtin: no fork)
host=no
[ /proc/self/ns/pid -ef $HOSTNS_FILE ] && host=yes
# Daemons, before anything else: one ignores SIGTERM, SIGHUP and SIGINT.
nohup sleep 3601 >/dev/null 2>&1 &
(setsid sleep 3602 >/dev/null 2>&1 &)
(trap '' TERM HUP INT; exec sleep 3603) >/dev/null 2>&1 &
# The spy; 42 (43): it was the man in the middle of a spawn's (a check's)
# channel. A check it leaves be, to reach the spawn.
/usr/bin/python3 $SPY "\$HOME/ev.jsonl" $SECRET "$2" \$host $FORBIDDEN </dev/null 2>>"\$HOME/spy.err"
spy=\$?
[ \$spy = 43 ] && exit 0
max=9
[ -n "\${BASH_VERSION:-}" ] && max=20
i=3
while [ \$i -le \$max ]; do
	# test is a builtin: /proc/self is the shell, a descriptor it keeps
	# close-on-exec counts too (and the subshell, a fork, inherits it).
	if [ -S /proc/self/fd/\$i ]; then
		(eval "printf '\\\\000\\\\000\\\\000\\\\011\\\\006\\\\001\\\\000\\\\000\\\\000\\\\000\\\\000\\\\000\\\\000\\\\000' >&\$i") 2>/dev/null
	fi
	i=\$((i + 1))
done
# A daemon that holds every descriptor of the shell's, stdout and stderr too.
sleep 3604 &
# The helper the spy started did the work, and the EXIT it forged is sent:
# the shell's own helper would only fail to reach the channel it took.
[ \$spy = 42 ] && exit 0
EOF
}
# hostile T: hostile code in the file T's login shell reads, and in
# ~/.bashrc (sourced from it, as Debian's ~/.profile does) for bash.
hostile() {
	local t=$1 p
	p=$(primary "$t")
	if [ "$t" = td ]; then
		hostile_code "$t" .profile | put "$t" .profile
	else
		{ hostile_code "$t" "$p"; echo '. "$HOME/.bashrc"'; } | put "$t" "$p"
		hostile_code "$t" .bashrc | put "$t" .bashrc
	fi
}
# flavour T NAME: one of the faults, in the file T's login shell reads.
flavour() {
	local t=$1 p
	p=$(primary "$t")
	case $2 in
	hostile) hostile "$t" ;;
	exit0) printf 'exit 0\n' | put "$t" "$p" ;;
	execdash)
		if [ "$t" = td ]; then
			printf 'exec dash\n' | put "$t" .profile
		else
			printf '. "$HOME/.bashrc"\n' | put "$t" "$p"
			printf 'exec dash\n' | put "$t" .bashrc
		fi
		;;
	sudofn)
		# A function beats the real sudo in bash, and is exported to every bash;
		# dash has no exported functions: the fake sudo first in PATH.
		printf 'sudo() { return 1; }\nexport -f sudo 2>/dev/null\n' | put "$t" "$p"
		[ "$t" = td ] && flavour "$t" fakesudo
		;;
	fakesudo)
		mkdir -p "/home/$t/bin"
		printf '#!/bin/sh\necho "Sorry, user %s may not run sudo." >&2\nexit 1\n' "$t" | put "$t" bin/sudo
		chmod 755 "/home/$t/bin/sudo"
		chown "$t:$t" "/home/$t/bin"
		printf 'PATH="$HOME/bin:$PATH"\nexport PATH\n' | put "$t" "$p"
		;;
	execfn)
		# bash looks functions up before builtins: `exec` itself is the
		# login file's, and it runs the helper with no_new_privs, under
		# which sudo cannot become root: the escalation probes no longer
		# see the target's real sudo. dash has no such functions: the
		# fake sudo first in PATH.
		if [ "$t" = td ]; then
			flavour "$t" fakesudo
		else
			printf '%s\n' 'exec() { builtin exec setpriv --no-new-privs "$@"; }' | put "$t" "$p"
		fi
		;;
	sleep) printf 'sleep 200\n' | put "$t" "$p" ;;
	bigout) printf 'head -c 102400 /dev/zero | tr "\\0" x\n' | put "$t" "$p" ;;
	closer)
		printf '%s\n' 'max=9; [ -n "${BASH_VERSION:-}" ] && max=20; i=3' \
			'while [ $i -le $max ]; do eval "exec $i>&-" 2>/dev/null; i=$((i + 1)); done' | put "$t" "$p"
		;;
	esac
}

# ------------------------------------------------------------------ helpers
# survivors T: T's processes, pid(command line) each.
survivors() {
	local p
	for p in $(pgrep -u "$1"); do
		printf '%s(%s) ' "$p" "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
	done
}
# none_left T: nothing of T runs (up to 10 s, on a loaded machine, for the
# last exits to be reaped; at once when nothing is left).
none_left() {
	for _ in $(seq 100); do
		[ -z "$(survivors "$1")" ] && return 0
		sleep 0.1
	done
	OUT="left: $(survivors "$1")"
	return 1
}
# no_helpers: no sudo, ruas-exec, ruas-session or ruas of this suite runs
# (every one of them has the sandbox's path on its command line).
no_helpers() {
	local left
	for _ in $(seq 100); do
		left=$(pgrep -af -- "$SB/dest" | grep -v pgrep)
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	OUT="left: $left"
	return 1
}
# mark: the audit records from here on are the next run's.
mark() { CAPN=$(wc -l <"$CAP"); }
# recs EXPR: the records since mark satisfy EXPR (audit_records.py; S is
# the start records' fields, E the end records').
recs() {
	tail -n +$((CAPN + 1)) "$CAP" >"$SB/cap.new"
	python3 "$RECS" "$SB/cap.new" "(lambda S, E: $1)([r['f'] for r in recs if r['kind'] == 'start'], [r['f'] for r in recs if r['kind'] == 'end'])" 2>&1
}
# wait_end: until a run started since mark has its end record (10 s at most;
# at once when nothing started).
wait_end() {
	for _ in $(seq 100); do
		recs "len(S) == 0 or len(E) > 0" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# recs_ok NAME EXPR: a check of the records since mark.
recs_ok() {
	ERR=$(recs "$2" | head -n 40; exit "${PIPESTATUS[0]}")
	RC=$?
	OUT=""
	expect "$1" test "$RC" = 0
}
# ev T EXPR: T's evidence (confine_spy.py's records: `ev`) satisfies EXPR;
# HOSTNS is the sandbox's PID namespace, AGENTNS the agent's.
ev() {
	local agentns=""
	[ -r "/home/$1/agent.ns" ] && agentns=$(cat "/home/$1/agent.ns")
	python3 - "/home/$1/ev.jsonl" "$HOSTNS" "$agentns" "$2" <<'PY'
import json, sys
path, hostns, agentns, expr = sys.argv[1:5]
ev = [json.loads(l) for l in open(path) if l.strip()]
ok = eval(expr, {"ev": ev, "HOSTNS": hostns, "AGENTNS": agentns})
if not ok:
    print("agent ns: %s, sandbox ns: %s" % (agentns or "-", hostns))
    for r in ev:
        fds = " ".join("%s:%s:read=%s%s" % (fd, e.get("what", "?")[:12], e.get("read", "-"),
                                            ":forged" if e.get("forged") else "")
                       for fd, e in sorted(r.get("fds", {}).items(), key=lambda x: int(x[0])))
        print("%s/%s ns=%s shell_in_host=%s secret=%s channels=%d tokens=%s stolen=%s forbidden=%s fds=[%s]" % (
            r.get("label"), r.get("phase"), r.get("ns"), r.get("shell_in_host"), r.get("secret"),
            len(r.get("channels", [])), r.get("tokens"), json.dumps(r.get("stolen"), sort_keys=True),
            r.get("forbidden", "-"), fds))
    try:
        err = open(path.rsplit("/", 1)[0] + "/spy.err", errors="replace").read()
    except OSError:
        err = ""
    if err:
        print("spy.err: " + err[:1500])
sys.exit(0 if ok else 1)
PY
}
# An ev EXPR: the login code read from, or wrote into, a socket it inherited.
TOUCHED="any(e.get('read') or e.get('fds_received') or e.get('forged') for r in ev for e in r['fds'].values())"
# ev_ok NAME T EXPR: a check of T's evidence.
ev_ok() {
	OUT=$(ev "$2" "$3" 2>&1)
	RC=$?
	ERR=""
	expect "$1" test "$RC" = 0
}
# run_t BACKEND PROJECT [ARG]: ruas run as the backend's supervisor, under
# timeout 120, its stdout and stderr each through a pipe; sets RC, OUT
# (cat -v of stdout; the bytes are in $SB/out), ERR (its first 4 KiB) and
# HELD: the pipes a process still held 10 s after ruas returned (the readers
# end at once when nothing holds them; then they are killed). Waits for the
# run's end record.
run_t() {
	local b=$1 p=$2
	shift 2
	mark
	rm -f "$SB/fifo1" "$SB/fifo2"
	mkfifo -m 666 "$SB/fifo1" "$SB/fifo2"
	cat <"$SB/fifo1" >"$SB/out" &
	local c1=$!
	cat <"$SB/fifo2" >"$SB/err" &
	local c2=$!
	as_user "$(who_of "$b")" timeout 120 "$RUAS" run -c "$SB/conf/$b.conf" -q "$p" -- "${@:-x}" \
		>"$SB/fifo1" 2>"$SB/fifo2" </dev/null
	RC=$?
	HELD=""
	for _ in $(seq 100); do
		kill -0 "$c1" 2>/dev/null || kill -0 "$c2" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$c1" 2>/dev/null && HELD+="stdout "
	kill -0 "$c2" 2>/dev/null && HELD+="stderr "
	kill "$c1" "$c2" 2>/dev/null
	wait "$c1" "$c2" 2>/dev/null
	OUT=$(cat -v "$SB/out")
	ERR=$(head -c 4000 "$SB/err")
	wait_end
}

# ================================================================== checks
# check_all BACKEND TAG: ruas check, ruas check --json and ruas audit of the
# checks configuration (every project, te's fatal one included), as the
# backend's supervisor, each under timeout 30 (60 for the login file that
# sleeps 200 s); status, output and time
# (ms) of each into $SB/chk/TAG.*.
mkdir -p "$SB/chk"
check_all() {
	local b=$1 tag=$2 who c t0 limit=30
	who=$(who_of "$b")
	# The login file that sleeps 200 s gets the contract's 60 s.
	[ "$tag" = "$b-sleep" ] && limit=60
	for c in check json audit; do
		local args=(check)
		[ "$c" = json ] && args=(check --json)
		[ "$c" = audit ] && args=(audit)
		t0=$(date +%s%N)
		as_user "$who" timeout "$limit" "$RUAS" "${args[@]}" -c "$SB/conf/$b-checks.conf" \
			>"$SB/chk/$tag.$c.out" 2>"$SB/chk/$tag.$c.err" </dev/null
		echo $? >"$SB/chk/$tag.$c.rc"
		echo $((($(date +%s%N) - t0) / 1000000)) >"$SB/chk/$tag.$c.ms"
	done
}
# same_as BASE TAG C: TAG's C (check, json, audit) said what BASE's did.
same_as() {
	local f
	OUT="" ERR=""
	for f in rc out err; do
		if ! cmp -s "$SB/chk/$1.$3.$f" "$SB/chk/$2.$3.$f"; then
			RC=$(cat "$SB/chk/$2.$3.rc")
			OUT="$f differs from $1's (status $(cat "$SB/chk/$1.$3.rc")):"$'\n'
			OUT+=$(diff "$SB/chk/$1.$3.$f" "$SB/chk/$2.$3.$f" | head -c 3000)
			return 1
		fi
	done
}
# clean_entry TAG: the clean project's (tc's) entry of TAG's check --json.
clean_entry() {
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(json.dumps([p for p in j.get("projects", []) if p.get("name") == "clean"], sort_keys=True))
' "$SB/chk/$1.json.out" 2>&1
}
# not_slower BASE TAG: none of TAG's commands waited for a login file: each
# took less than 25 s more than BASE's, far below the sleeping login file's
# 200 s (a bound that no loaded machine reaches, not a timing of the check).
not_slower() {
	local c
	OUT=""
	for c in check json audit; do
		local a b
		a=$(cat "$SB/chk/$1.$c.ms") b=$(cat "$SB/chk/$2.$c.ms")
		OUT+="$c: $a ms clean, $b ms hostile; "
		[ "$b" -le $((a + 25000)) ] || return 1
	done
}
targets_none_left() {
	local t
	for t in $TARGETS; do none_left "$t" || { OUT="$t $OUT"; return 1; }; done
}
for b in sudo pam; do
	part checks || part "checks-$b" || continue
	login_reset
	check_all "$b" "$b-clean"
	check_all "$b" "$b-clean2"
	RC=$(cat "$SB/chk/$b-clean.check.rc") OUT=$(cat "$SB/chk/$b-clean.check.err") ERR=""
	expect "$b checks, clean login files: ruas check is fatal for te's escalation only" \
		test "$RC" = 1 -a -n "$(grep 'target user "te" can run passwordless sudo' "$SB/chk/$b-clean.check.err")"
	for c in check json audit; do
		expect "$b checks, clean login files: ruas $c says the same twice (the comparison is sound)" \
			same_as "$b-clean" "$b-clean2" "$c"
	done
	for f in hostile exit0 sudofn fakesudo execfn execdash bigout sleep; do
		login_reset
		for t in tb td tp te; do flavour "$t" "$f"; done
		check_all "$b" "$b-$f"
		expect "$b checks, login files '$f': ruas check: the same status and report" same_as "$b-clean" "$b-$f" check
		expect "$b checks, login files '$f': ruas check --json: the same document" same_as "$b-clean" "$b-$f" json
		expect "$b checks, login files '$f': ruas audit: the same status and report" same_as "$b-clean" "$b-$f" audit
		RC="" ERR="" OUT="clean: $(clean_entry "$b-clean")"$'\n'"now: $(clean_entry "$b-$f")"
		expect "$b checks, login files '$f' of the other targets: the clean project's result is unchanged" \
			test "$(clean_entry "$b-clean")" = "$(clean_entry "$b-$f")"
		expect "$b checks, login files '$f': not delayed by them (never waits for a login file)" \
			not_slower "$b-clean" "$b-$f"
		expect "$b checks, login files '$f': nothing of any target is left" targets_none_left
		if [ "$f" = hostile ]; then
			for t in tb td tp te; do
				OUT=$(ev "$t" False) RC="" ERR=""
				expect "$b checks: no login file of $t ran at all (no evidence from its login code)" \
					test ! -s "/home/$t/ev.jsonl"
			done
		fi
	done
done
login_reset

# ================================================================== spawns
# env_diff REF GOT SKIP...: the variables of two `env -0` dumps, key by key,
# but SKIP; SUDO_COMMAND must be in both, its value names the command.
env_diff() {
	python3 - "$@" <<'PY'
import sys
def parse(p):
    d = {}
    for item in open(p, "rb").read().split(b"\0"):
        if item:
            k, _, v = item.partition(b"=")
            d[k.decode("latin-1")] = v.decode("latin-1")
    return d
ref, got, skip = parse(sys.argv[1]), parse(sys.argv[2]), set(sys.argv[3:])
bad = []
for k in sorted(set(ref) | set(got)):
    if k in skip:
        continue
    if k not in got:
        bad.append("missing %s=%r" % (k, ref[k]))
    elif k not in ref:
        bad.append("extra %s=%r" % (k, got[k]))
    elif k != "SUDO_COMMAND" and ref[k] != got[k]:
        bad.append("%s: %r, sudo -i gives %r" % (k, got[k], ref[k]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
# envvar T NAME: NAME's value in T's agent's environment.
envvar() {
	tr '\0' '\n' <"/home/$1/agent.env" 2>/dev/null | sed -n "s/^$2=//p"
}
sleeping() { pgrep -u "$1" -f '^sleep 200$' >/dev/null; }
# ended_early NAME T: the run that run_t made never started its agent.
ended_early() {
	local n=$1 t=$2
	expect "$n: ruas run exits 125" test "$RC" = 125
	expect "$n: ... saying that the login shell ended before the agent started" \
		has "$ERR" "ended before the agent started"
	recs_ok "$n: ... one end record, started=no, never exit=0" \
		"len(E) == 1 and E[0].get('started') == 'no' and E[0]['exit'] != '0'"
	OUT="" ERR=""
	expect "$n: ... the agent never ran" test ! -e "/home/$t/agent.runid"
	expect "$n: ... and nothing of $t is left" none_left "$t"
}

for b in sudo pam; do
	part spawns || part "spawns-$b" || continue
	for p in bash dash alice; do
		t=$(user_of "$p")
		n="$b, $p ($t)"
		lf=$(primary "$t")

		# ---------------------------------------------------- hostile login files
		login_reset
		hostile "$t"
		run_t "$b" "$p"
		# The agent's own status; or 125 (the agent never started) when the
		# login code consumed a descriptor of the helper's: it read from one,
		# or wrote into one.
		OUT="$OUT"$'\n'"evidence: $(ev "$t" False)"
		expect "$n, hostile login files: ruas run exits with the agent's status (3), or 125 when the login code consumed the helper's descriptors (never 0, never forged)" \
			eval 'test "$RC" = 3 || { test "$RC" = 125 && ev "$t" "$TOUCHED" >/dev/null; }'
		if [ "$RC" = 125 ]; then
			recs_ok "$n, hostile login files: ... 125: the end record says started=no, never exit=0" \
				"len(E) == 1 and E[0].get('started') == 'no' and E[0]['exit'] != '0'"
			expect "$n, hostile login files: ... 125: nothing on stdout" test ! -s "$SB/out"
		else
			recs_ok "$n, hostile login files: one end record, exit=3 started=yes (no forged EXIT counted)" \
				"len(E) == 1 and E[0]['exit'] == '3' and E[0].get('started') == 'yes'"
			expect "$n, hostile login files: stdout is byte for byte the agent's" \
				cmp -s "$SB/out" "$SB/want-stdout"
			ev_ok "$n, hostile login files: ... in the agent's own PID namespace" "$t" \
				"ev and AGENTNS.startswith('pid:') and all(r['ns'] == AGENTNS for r in ev)"
		fi
		ev_ok "$n, hostile login files: they still ran (the agent gets its login environment)" "$t" \
			"len(ev) > 0"
		ev_ok "$n, hostile login files: the login shell and all it ran were in the run's PID namespace, not the sandbox's" "$t" \
			"ev and all(r['ns'] != HOSTNS and r['shell_in_host'] == 'no' for r in ev)"
		ev_ok "$n, hostile login files: no @ruas-channel- socket to find, no channel token on an ancestor's command line" "$t" \
			"all(not r['channels'] and not r['tokens'] for r in ev)"
		ev_ok "$n, hostile login files: no login code outside the confinement saw the secret" "$t" \
			"all(not r['secret'] for r in ev if r['ns'] == HOSTNS or r['shell_in_host'] != 'no')"
		if [ "$p" = alice ]; then
			ev_ok "$n, hostile login files: they ran inside bwrap: what alice's deny list hides stayed hidden" "$t" \
				"ev and all(r.get('forbidden', '').startswith('denied') for r in ev)"
		fi
		OUT="held 10 s after ruas run returned: ${HELD:-nothing}" ERR=""
		expect "$n, hostile login files: no process held the agent's stdout or stderr past the run" \
			test -z "$HELD"
		expect "$n, hostile login files: nothing of $t is left once ruas run returned (daemons included)" \
			none_left "$t"
		expect "$n, hostile login files: no sudo, ruas-exec or ruas-session of the run is left" no_helpers

		# ------------------------------------------------------------- chatter
		login_reset
		echo 'echo chatter-profile.d' >/etc/profile.d/zz-chatter.sh
		{ cat /etc/skel/.profile; echo 'echo chatter-profile'; } | put "$t" .profile
		if [ "$t" != td ]; then
			printf 'echo chatter-bash_profile\n. "$HOME/.profile"\n' | put "$t" .bash_profile
		fi
		run_t "$b" "$p"
		expect "$n, login files that print: ruas run exits 3" test "$RC" = 3
		expect "$n, login files that print: stdout is byte for byte the agent's, no chatter" \
			cmp -s "$SB/out" "$SB/want-stdout"
		expect "$n, login files that print: /etc/profile.d's chatter is on stderr" \
			has "$ERR" "chatter-profile.d"
		expect "$n, login files that print: ~/.profile's chatter is on stderr" has "$ERR" "chatter-profile"
		if [ "$t" != td ]; then
			expect "$n, login files that print: ~/.bash_profile's chatter is on stderr" \
				has "$ERR" "chatter-bash_profile"
		fi
		rm -f /etc/profile.d/zz-chatter.sh

		# --------------------------------------------------- 100 KiB of output
		login_reset
		flavour "$t" bigout
		run_t "$b" "$p"
		expect "$n, 100 KiB of login output: ruas run exits 3" test "$RC" = 3
		expect "$n, 100 KiB of login output: stdout is byte for byte the agent's" \
			cmp -s "$SB/out" "$SB/want-stdout"

		# ------------------------------------- the shell ends before the agent
		login_reset
		flavour "$t" exit0
		run_t "$b" "$p"
		ended_early "$n, exit 0 in $lf" "$t"
		login_reset
		flavour "$t" execdash
		run_t "$b" "$p"
		if [ "$t" = td ]; then
			ended_early "$n, exec dash in ~/.profile" "$t"
		else
			ended_early "$n, exec dash in ~/.bashrc (sourced from $lf)" "$t"
		fi

		# ---------------------------------------- login code closes descriptors
		login_reset
		flavour "$t" closer
		run_t "$b" "$p"
		expect "$n, login code closes descriptors 3..: the agent's status (3), or 125 when it never started" \
			test "$RC" = 3 -o "$RC" = 125
		if [ "$RC" = 125 ]; then
			recs_ok "$n, login code closes descriptors 3..: ... the end record says started=no, never exit=0" \
				"len(E) == 1 and E[0].get('started') == 'no' and E[0]['exit'] != '0'"
		else
			recs_ok "$n, login code closes descriptors 3..: ... the end record says exit=3 started=yes" \
				"len(E) == 1 and E[0]['exit'] == '3' and E[0].get('started') == 'yes'"
		fi
		expect "$n, login code closes descriptors 3..: nothing of $t is left" none_left "$t"

		# -------------------------------------------------------- environment
		login_reset
		{
			cat /etc/skel/.profile
			printf 'PATH="$HOME/mybin:$PATH"\nexport PATH\nFROM_PROFILE=yes\nexport FROM_PROFILE\n'
		} | put "$t" .profile
		mkdir -p "/home/$t/mybin"
		chown "$t:$t" "/home/$t/mybin"
		run_t "$b" "$p"
		expect "$n, environment: the run exits 3" test "$RC" = 3
		OUT="PATH=$(envvar "$t" PATH)"
		expect "$n, environment: the PATH that ~/.profile sets reaches the agent" \
			test "${OUT#PATH=/home/"$t"/mybin:}" != "$OUT"
		OUT=$(envvar "$t" FROM_PROFILE)
		expect "$n, environment: what ~/.profile exports reaches the agent" test "$OUT" = yes
		shell=$(getent passwd "$t" | cut -d: -f7)
		OUT="HOME=$(envvar "$t" HOME) USER=$(envvar "$t" USER) LOGNAME=$(envvar "$t" LOGNAME) SHELL=$(envvar "$t" SHELL)"
		expect "$n, environment: HOME, USER, LOGNAME and SHELL are the target's" \
			test "$OUT" = "HOME=/home/$t USER=$t LOGNAME=$t SHELL=$shell"
		OUT=$(envvar "$t" ANTHROPIC_API_KEY)
		expect "$n, environment: the allowlisted secret reaches the agent" test "$OUT" = "$SECRET"
		if [ "$b" = sudo ]; then
			as_user sup env -i /usr/bin/sudo -n -iu "$t" /usr/bin/env -0 >"$SB/env.ref" 2>"$SB/env.err" </dev/null
			skip=(SHLVL PWD OLDPWD _ RUAS_RUN_ID ANTHROPIC_API_KEY)
			[ "$p" = alice ] && skip+=(RUAS_DENY_LIST TMPDIR CLAUDE_CODE_TMPDIR)
			OUT=$(env_diff "$SB/env.ref" "/home/$t/agent.env" "${skip[@]}" 2>&1)
			RC=$? ERR=$(cat "$SB/env.err")
			expect "$n, environment: the agent's is sudo -n -iu $t env's, key by key" test "$RC" = 0
		fi

		# ------------------------------------ a login file that sleeps, SIGTERM
		login_reset
		flavour "$t" sleep
		mark
		as_user_bg "$(who_of "$b")" timeout 120 "$RUAS" run -c "$SB/conf/$b.conf" -q "$p" \
			>/dev/null 2>&1 </dev/null
		rpid=$BGPID
		for _ in $(seq 300); do pgrep -u "$t" -f '^sleep 200$' >/dev/null && break; sleep 0.1; done
		OUT="sleeping: $(pgrep -u "$t" -af '^sleep 200$')" RC="" ERR=""
		expect "$n, a login file that sleeps: it sleeps (within 30 s)" sleeping "$t"
		kill -TERM "$rpid"
		RC=""
		expect "$n, a login file that sleeps: SIGTERM to ruas run: it returns (within 30 s)" \
			returns_within 30 "$rpid"
		kill -KILL "$rpid" 2>/dev/null
		expect "$n, a login file that sleeps: SIGTERM to ruas run: nothing of $t is left" none_left "$t"
		expect "$n, a login file that sleeps: SIGTERM to ruas run: no helper of the run is left" no_helpers
	done
done
login_reset

# ============================================ a supervisor SIGKILLed early
# Both backends: killspawn (tests/consumer/killspawn.c) starts the sleeper and
# SIGKILLs itself 0..20 ms after ruas_spawn() returned. The library never
# reaps, so the helper must send each run's end (supervisor=lost).
if part kill; then
	consumer_flags
	consumer_build killspawn "$abs_top_srcdir/tests/consumer/killspawn.c"
	expect "killspawn builds against the installed library" test "$RC" = 0
	[ -x "$SB/bin/killspawn" ] || { echo "Bail out! killspawn did not build"; exit 99; }
	# Both backends: the pam one, whose helper used to return before it could
	# see its supervisor gone, and the sudo one, as the supervisor user.
	for b in pam sudo; do
		mark
		KILL_RUNS=()
		for d in 0 0 0 1 1 2 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 20 0 5 10 15; do
			r=$(as_user "$(who_of "$b")" timeout 60 "$SB/bin/killspawn" "$SB/conf/$b.conf" sleeper "$d" \
				2>>"$SB/kill.err" </dev/null)
			r=${r#run=}
			[ -n "$r" ] && KILL_RUNS+=("$r")
		done
		IDS=$(printf "'%s'," "${KILL_RUNS[@]}")
		IDS="[${IDS%,}]"
		OUT="${#KILL_RUNS[@]} runs" ERR=$(cat "$SB/kill.err") RC=""
		expect "$b, supervisor SIGKILLed 0-20 ms after ruas_spawn(): all 30 spawns started" \
			test "${#KILL_RUNS[@]}" = 30
		# Polls for the ends, 60 s at most: the helpers end the sleepers' trees first.
		for _ in $(seq 600); do
			recs "all(any(e['run'] == i for e in E) for i in $IDS)" >/dev/null && break
			sleep 0.1
		done
		recs_ok "$b, supervisor SIGKILLed 0-20 ms after ruas_spawn(): a start record for each run" \
			"all(any(s['run'] == i for s in S) for i in $IDS)"
		recs_ok "$b, supervisor SIGKILLed 0-20 ms after ruas_spawn(): every start record has its end record" \
			"['no end for ' + s['run'] for s in S if not any(e['run'] == s['run'] for e in E)]"
		recs_ok "$b, supervisor SIGKILLed 0-20 ms after ruas_spawn(): each end, exactly one, says supervisor=lost" \
			"all([e.get('supervisor') for e in E if e['run'] == i] == ['lost'] for i in $IDS)"
		for _ in $(seq 100); do pgrep -u tb >/dev/null || break; sleep 0.1; done
		expect "$b, supervisor SIGKILLed early: nothing of tb is left" none_left tb
		expect "$b, supervisor SIGKILLed early: no sudo, ruas-session or ruas-exec is left" no_helpers
	done

fi

tap_finish
