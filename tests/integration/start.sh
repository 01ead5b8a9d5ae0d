#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests of a failed start (issue 26, item 1): on both backends
# (sudo for a non-root supervisor, pam for root), every way a start can
# fail is the spawn's error, RUAS_ERR_START, with its stage, errno and
# reason, for a supervisor that throws the agent's stderr away; and
# nothing of the target runs or is left. ruas run says it in one line and
# keeps env(1)'s 125, 126 and 127. Through a supervisor built as an
# outside program against the installed library (tests/consumer/startspawn.c).
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/start.sh"
if ! command -v pkg-config >/dev/null || ! command -v cc >/dev/null; then
	echo "SKIP: tests/integration/start.sh needs pkg-config and cc" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=53000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }

# The supervisors: C (tests/consumer/startspawn.c), Python, blocking and
# asyncio (startspawn.py), and Go (tests/consumer/go/startspawn), each
# against the staged install.
consumer_flags
expect "pkg-config finds the staged ruas" test "$RC" = 0
consumer_build startspawn "$abs_top_srcdir/tests/consumer/startspawn.c"
expect "startspawn builds against the installed library" test "$RC" = 0
SUPS=(c)
PY=/usr/bin/python3
PYDIR=$SB/dest$RUAS_PYTHONDIR
py_sanitizer_env
PY_ENV=("${PY_SAN_ENV[@]}" PYTHONPATH="$PYDIR" RUAS_LIBRARY="$LIBDIR/libruas.so.0"
	PYTHONDONTWRITEBYTECODE=1)
if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && [ -f "$PYDIR/ruas/__init__.py" ]; then
	install -m 644 "$abs_top_srcdir/tests/consumer/startspawn.py" "$SB/bin/startspawn.py"
	SUPS+=(py pyaio)
else
	echo "# SKIP: the Python supervisor: configured without the Python binding" >&2
fi
if command -v go >/dev/null; then
	mkdir -p "$SB/go/tests/consumer"
	cp -R "$abs_top_srcdir/bindings" "$SB/go/"
	cp -R "$abs_top_srcdir/tests/consumer/go" "$SB/go/tests/consumer/"
	go_setup
	gobuild startspawn-go "$SB/go/tests/consumer/go" build ./startspawn
	expect "the Go supervisor builds against the staged install" test "$RC" = 0
	SUPS+=(go)
else
	echo "# SKIP: the Go supervisor: no go" >&2
fi
chmod -R a+rX "$SB/bin"

# ------------------------------------------------------------------ users and rules
sandbox_user sup
# t1: a usual target; tx: expired; tp: a rule that wants a password; tn: no rule at all.
for u in t1 tx tp tn; do sandbox_user "$u"; done
chage -E 0 tx
sandbox_sudoers ruas-sup 'sup ALL=(t1,tx) NOPASSWD: ALL' 'sup ALL=(tp) ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
# Every target's login files leave a mark: where none may run, there is none.
for u in t1 tx tp tn; do
	home=$(getent passwd "$u" | cut -d: -f6)
	printf 'echo "$$" >> "$HOME/login-ran"\n' >"$home/.profile"
	chown "$u" "$home/.profile"
done
mkdir -p "$SB/w/t1/sub" "$SB/w/closed" "$SB/agents"
chown -R t1 "$SB/w/t1"
# The usual layout: the supervisor cannot look into the target's work_dir.
chmod 0700 "$SB/w/t1"
chmod 0700 "$SB/w/closed"
printf '#!/bin/sh\necho never\n' >"$SB/agents/noexec.sh"
chmod 0644 "$SB/agents/noexec.sh"
chmod a+rx "$SB/agents"
MARK='echo agent-ran; echo "$$" > "$HOME/agent-ran"'
# Traps TERM and INT, says so, and goes on.
TRAP='$| = 1; $SIG{TERM} = sub { print "got TERM\n" }; $SIG{INT} = sub { print "got INT\n" };
print "ready\n"; sleep 1 while 1;'
mkdir -p "$SB/conf"
for backend in sudo pam; do
	cat >"$SB/conf/$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
terminate_grace = 5;
projects = (
  { name = "ok"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["sh", "-c", $(cfgstr "$MARK")]; },
  { name = "expired"; run_as_user = "tx"; work_dir = "/tmp"; command = ["sh", "-c", $(cfgstr "$MARK")]; },
  { name = "password"; run_as_user = "tp"; work_dir = "/tmp"; command = ["sh", "-c", $(cfgstr "$MARK")]; },
  { name = "norule"; run_as_user = "tn"; work_dir = "/tmp"; command = ["sh", "-c", $(cfgstr "$MARK")]; },
  { name = "closed"; run_as_user = "t1"; work_dir = "$SB/w/closed"; command = ["sh", "-c", $(cfgstr "$MARK")]; },
  { name = "nocmd"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["ruas-no-such-command"]; },
  { name = "noexec"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = [$(cfgstr "$SB/agents/noexec.sh")]; },
  { name = "dir"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["/tmp"]; },
  { name = "quiet"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["true"]; },
  { name = "slow"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["sh", "-c", $(cfgstr "$MARK; sleep 8")]; },
  { name = "trap"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["perl", "-e", $(cfgstr "$TRAP")]; }
);
EOC
	chmod 644 "$SB/conf/$backend.conf"
	# For ruas run, whose check covers every project: only those whose start fails at exec.
	cat >"$SB/conf/run-$backend.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$backend";
projects = (
  { name = "nocmd"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["ruas-no-such-command"]; },
  { name = "noexec"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = [$(cfgstr "$SB/agents/noexec.sh")]; },
  { name = "dir"; run_as_user = "t1"; work_dir = "$SB/w/t1"; command = ["/tmp"]; }
);
EOC
	chmod 644 "$SB/conf/run-$backend.conf"
done

# start WHO BACKEND PROJECT WORK_DIR [ARG...]: the supervisor $SUP; sets RC, OUT, ERR.
START_ENV=() # more of start()'s environment (STARTSPAWN_PTY=1: the agent on a pty)
start() {
	local who=$1 backend=$2 prog
	shift 2
	clean_marks
	case $SUP in
	c) prog=("$SB/bin/startspawn") ;;
	py) prog=("$PY" "$SB/bin/startspawn.py") ;;
	pyaio) prog=("$PY" "$SB/bin/startspawn.py" --asyncio) ;;
	go) prog=("$SB/bin/startspawn-go") ;;
	esac
	EXTRA_ENV=("${PY_ENV[@]}" "${START_ENV[@]}")
	as_user "$who" "${prog[@]}" "$SB/conf/$backend.conf" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	EXTRA_ENV=()
	OUT=$(cat "$SB/out")
	ERR=$(head -c 4000 "$SB/err")
	SAID=$OUT
}
# said NAME NEEDLE: what the last start printed has NEEDLE.
said() {
	OUT=$SAID
	expect "$1" has "$SAID" "$2"
}
clean_marks() {
	for u in t1 tx tp tn; do
		rm -f "$(getent passwd "$u" | cut -d: -f6)"/{login-ran,agent-ran}
	done
}
marks() {
	for u in t1 tx tp tn; do
		ls "$(getent passwd "$u" | cut -d: -f6)"/{login-ran,agent-ran} 2>/dev/null
	done
}
leftovers() { pgrep -u t1,tx,tp,tn 2>/dev/null | tr '\n' ' '; }
# failed NAME STAGE ERRNO [NEEDLE]: the last start failed with RUAS_ERR_START (-8) at STAGE.
failed() {
	local name=$1 stage=$2 errno=$3 needle=${4:-}
	expect "$name: RUAS_ERR_START, stage $stage, errno $errno" \
		has "$OUT" "error code=-8 stage=$stage errno=$errno "
	[ -n "$needle" ] && expect "$name: ... the message says why: $needle" has "$OUT" "$needle"
	expect "$name: ... and names the project and the stage" has "$OUT" "(${STAGES[$stage]})"
	case $SUP in
	py | pyaio)
		expect "$name: ... ruas.StartError, a ruas.Error, an OSError, a SubprocessError" \
			has "$OUT" "py: StartError=True Error=True OSError=True SubprocessError=True"
		expect "$name: ... its stage" has "$OUT" " stage=${STAGES[$stage]} " ;;
	go)
		expect "$name: ... errors.Is(err, ruas.ErrStart), Stage \"${STAGES[$stage]}\"" \
			has "$OUT" "go: ErrStart=true ErrTooLong=false " ;;
	esac
	expect "$name: ... nothing of the agent ran" test ! -e "$(getent passwd t1 | cut -d: -f6)/agent-ran"
	OUT="left: $(leftovers)"
	expect "$name: ... and nothing of the target is left" test -z "$(leftovers)"
}
STAGES=("" sudo work_dir exec login helper)
# toolong NAME NEEDLE: the last spawn was refused before anything started (RUAS_ERR_TOOLONG, -6).
toolong() {
	expect "$1: RUAS_ERR_TOOLONG (E2BIG) before anything starts" has "$OUT" "error code=-6 stage=0 errno=7 "
	expect "$1: ... naming what: $2" has "$OUT" "$2"
	case $SUP in
	py | pyaio) expect "$1: ... ruas.TooLongError" has "$OUT" "py: StartError=False Error=True" ;;
	go) expect "$1: ... errors.Is(err, ruas.ErrTooLong)" has "$OUT" "go: ErrStart=false ErrTooLong=true" ;;
	esac
	OUT="marks: $(marks)"
	expect "$1: ... nothing of the target ran" test -z "$(marks)"
}
# no_login NAME: nothing the target wrote ran, not even its login files.
no_login() {
	OUT="marks: $(marks)"
	expect "$1: ... not even the target's login files ran" test -z "$(marks)"
}

ENOENT=2 EACCES=13 ETIMEDOUT=110

# ------------------------------------------------------------------ hostile login files
# The target's login files run before the inner helper, as the target, and
# hold descriptor 3, the channel on which the inner helper says START and
# hands over its exec pipe. Whatever they send or put there, the spawn
# never says a start that did not happen, says one that did, ends at once
# (one case only takes the 60 s the login files get) and leaves nothing of
# the target running. The forged messages come from a process of the login
# file's (tests/integration/forge_start.py).
install -m 755 "$abs_top_srcdir/tests/integration/forge_start.py" "$SB/bin/forge_start.py"
FORGE="/usr/bin/python3 $(printf '%q' "$SB/bin/forge_start.py")"
T1_HOME=$(getent passwd t1 | cut -d: -f6)
# hostile BACKEND NAME PROFILE PROJECT EXPECT [SECONDS]: t1's ~/.profile is
# PROFILE for one start of PROJECT; EXPECT is "ran" (the agent ran, exit 0)
# or "STAGE ERRNO" (RUAS_ERR_START); ruas_spawn() returns within SECONDS
# (default 5: before the agent of the project "slow" has ended, 8 s).
hostile() {
	local backend=$1 name=$2 profile=$3 project=$4 want=$5 within=${6:-5} who=sup t0 ms
	[ "$backend" = pam ] && who=root
	printf '%s\n' "$profile" >"$T1_HOME/.profile"
	t0=$(date +%s%N)
	start "$who" "$backend" "$project" -
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	name="$SUP/$backend: a login file that $name"
	if [ "$want" = ran ]; then
		expect "$name: the start is said, the agent ran" has "$OUT" "agent-ran"$'\n'"exit=0"
		ms=$(printf '%s' "$ERR" | sed -n 's/^startspawn: spawned in \([0-9]*\) ms$/\1/p')
	else
		set -- $want
		failed "$name" "$1" "$2"
	fi
	OUT="$ms ms"
	expect "$name: ... ruas_spawn() returned within $within s ($ms ms)" \
		test -n "$ms" -a "${ms:-0}" -lt "$((within * 1000))"
	# The run is over when the spawn fails or the wait returns: nothing may be
	# left, not even a zombie of the target's (the host's others are not ours).
	OUT="left: $(leftovers) zombies: $(ps -eo stat=,user= | awk '$1 ~ /^Z/ && $2 == "t1"')"
	expect "$name: ... nothing of the target left, no zombie" \
		test -z "$(leftovers)" -a -z "$(ps -eo stat=,user= | awk '$1 ~ /^Z/ && $2 == "t1"')"
}
SUP=c
for backend in sudo pam; do
	# 1: bytes, or a START, on descriptor 3, then no inner helper.
	hostile "$backend" "writes bytes on descriptor 3 and exits" \
		'printf "\0\0\0\5\13\1\0\0\0\0garbage" >&3; exit 0' ok "4 0"
	hostile "$backend" "forges START_EXEC with no pipe and exits" "$FORGE nofd; exit 0" ok "4 0"
	hostile "$backend" "forges START_FAILED and exits" "$FORGE failed; exit 0" ok "4 0"
	hostile "$backend" "forges START_FAILED, then the real start" "$FORGE failed" slow ran
	# 2: a descriptor of its own as the exec pipe.
	hostile "$backend" "passes off a pipe at its end at once and exits" \
		"$FORGE closed; exit 0" ok "4 0"
	hostile "$backend" "passes off a pipe at its end at once, then an exec that fails" \
		"$FORGE closed" nocmd "3 $ENOENT"
	hostile "$backend" "passes off a pipe a background process holds, then the real start" \
		"$FORGE held" slow ran
	hostile "$backend" "passes off a pipe a background process holds and exits" \
		"$FORGE held; exit 0" ok "4 0"
	hostile "$backend" "passes off /dev/zero, then the real start" "$FORGE zero" slow ran
	hostile "$backend" "sends a record of no bytes, then the real start" "$FORGE empty" slow ran
	# ... or puts one on descriptor 3 itself, for the real inner helper.
	hostile "$backend" "puts /dev/zero on descriptor 3" 'exec 3</dev/zero' ok "4 0"
	hostile "$backend" "puts on descriptor 3 a pipe a background process holds" \
		'exec 3< <(exec sleep 1000)' ok "4 0"
	hostile "$backend" "puts on descriptor 3 a pipe at its end at once" 'exec 3< <(:)' ok "4 0"
	# 3: descriptor 3 held in the background, and the real start.
	hostile "$backend" "holds descriptor 3 in a background sleep" 'sleep 1000 &' slow ran
	hostile "$backend" "holds descriptor 3 in a background sleep, then exits" \
		'sleep 1000 & exit 0' ok "4 0"
done
# The one that takes the whole 60 s: a pipe at its end at once, then a login
# shell that runs something else for ever: never a start.
hostile sudo "passes off a pipe at its end at once, then runs something else" \
	"$FORGE closed; exec sleep 1000" ok "4 $ETIMEDOUT" 75
# On a pty the login shell's pid is not known (the monitor forks it), so
# the first START of any process of the run counts (launch.c): a login
# file can only harm its own run, a start said before it happens or one
# never said. Whatever it forges, the spawn returns within its bound,
# says a start or an error, and nothing of the target is left, a real
# agent that started after a forged failure included.
hostile_pty() { # BACKEND NAME PROFILE PROJECT
	local backend=$1 name="pty/$1: a login file that $2" who=sup t0 ms
	[ "$backend" = pam ] && who=root
	printf '%s\n' "$3" >"$T1_HOME/.profile"
	START_ENV=(STARTSPAWN_PTY=1)
	t0=$(date +%s%N)
	start "$who" "$backend" "$4" -
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	START_ENV=()
	expect "$name: the spawn says a start or an error" \
		eval '[[ "$OUT" == *exit=* || "$OUT" == *"error code=-8 "* ]]'
	OUT="$ms ms"
	expect "$name: ... within its bound ($ms ms)" test "$ms" -lt 70000
	OUT="left: $(leftovers) zombies: $(ps -eo stat=,user= | awk '$1 ~ /^Z/ && $2 == "t1"')"
	expect "$name: ... nothing of the target left, no zombie" \
		test -z "$(leftovers)" -a -z "$(ps -eo stat=,user= | awk '$1 ~ /^Z/ && $2 == "t1"')"
}
for backend in sudo pam; do
	hostile_pty "$backend" "writes bytes on descriptor 3 and exits" \
		'printf "\0\0\0\5\13\1\0\0\0\0garbage" >&3; exit 0' ok
	hostile_pty "$backend" "forges START_EXEC with no pipe and exits" "$FORGE nofd; exit 0" ok
	hostile_pty "$backend" "forges START_FAILED, then the real start" "$FORGE failed" slow
	hostile_pty "$backend" "passes off a pipe at its end at once and exits" \
		"$FORGE closed; exit 0" ok
	hostile_pty "$backend" "passes off a pipe a background process holds, then the real start" \
		"$FORGE held" slow
done

# The same forgeries against the bindings' supervisors (Python, asyncio,
# Go), which take the library's error through their own types: each kind
# of forgery that must fail the start (a forged START_EXEC, a forged
# START_FAILED, a pipe passed off at its end, one a background process
# holds), on both backends.
for SUP in "${SUPS[@]}"; do
	[ "$SUP" = c ] && continue
	for backend in sudo pam; do
		hostile "$backend" "forges START_EXEC with no pipe and exits" "$FORGE nofd; exit 0" ok "4 0"
		hostile "$backend" "forges START_FAILED and exits" "$FORGE failed; exit 0" ok "4 0"
		hostile "$backend" "passes off a pipe at its end at once, then an exec that fails" \
			"$FORGE closed" nocmd "3 $ENOENT"
		hostile "$backend" "passes off a pipe a background process holds and exits" \
			"$FORGE held; exit 0" ok "4 0"
	done
done
SUP=c
printf '%s\n' 'echo "$$" >> "$HOME/login-ran"' >"$T1_HOME/.profile"
for SUP in "${SUPS[@]}"; do
for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	b="$SUP/$backend"

	start "$who" "$backend" ok -
	expect "$b: the control starts, runs and exits 0" has "$OUT" "agent-ran"$'\n'"exit=0"

	if [ "$backend" = sudo ]; then
		start "$who" "$backend" password -
		failed "$b: a rule that wants a password" 1 0 "sudo: a password is required"
		no_login "$b: a rule that wants a password"
		start "$who" "$backend" norule -
		failed "$b: no rule" 1 0 "sudo: a password is required"
		no_login "$b: no rule"
		said "$b: ... the fix is named" "Fix: "
	else
		# sudo checks the supervisor's account, not the target's; PAM the target's.
		start "$who" "$backend" expired -
		failed "$b: an expired account" 1 0
		no_login "$b: an expired account"
		said "$b: ... PAM's verdict is quoted" "ruas-session: "
	fi

	start "$who" "$backend" closed -
	failed "$b: a work_dir the target cannot enter" 2 "$EACCES" "Permission denied"
	said "$b: ... the file is the work_dir" "file=$SB/w/closed"$'\n'
	no_login "$b: a work_dir the target cannot enter"

	start "$who" "$backend" ok nosuch
	failed "$b: a per-spawn work_dir that does not exist" 2 "$ENOENT" "nosuch"
	said "$b: ... the file is that work_dir" "nosuch"$'\n'"message="

	start "$who" "$backend" nocmd -
	failed "$b: a command not found" 3 "$ENOENT" \
		'cannot run "ruas-no-such-command": No such file or directory'
	said "$b: ... the file is the command" "file=ruas-no-such-command"$'\n'
	case $SUP in
	py | pyaio) said "$b: ... a FileNotFoundError, filename the command" \
		"FileNotFoundError=True PermissionError=False stage=exec filename=ruas-no-such-command" ;;
	go) said "$b: ... errors.Is(err, fs.ErrNotExist)" "ErrNotExist=true ErrPermission=false stage=exec" ;;
	esac

	start "$who" "$backend" noexec -
	failed "$b: a command that may not be run" 3 "$EACCES" "Permission denied"
	case $SUP in
	py | pyaio) said "$b: ... a PermissionError" "FileNotFoundError=False PermissionError=True stage=exec" ;;
	go) said "$b: ... errors.Is(err, fs.ErrPermission)" "ErrNotExist=false ErrPermission=true stage=exec" ;;
	esac

	start "$who" "$backend" dir -
	failed "$b: a directory as the command" 3 "$EACCES" 'cannot run "/tmp"'

	# The limits are the kernel's, checked before anything starts (RUAS_ERR_TOOLONG).
	start "$who" "$backend" quiet - "@big:131071"
	expect "$b: an argument of MAX_ARG_STRLEN - 1 bytes runs" has "$OUT" "exit=0"
	start "$who" "$backend" quiet - "@big:200000"
	toolong "$b: one 200 kB argument" "argument 1 of the command is 200000 bytes"
	set -- $(for _ in $(seq 20); do echo "@big:90000"; done)
	start "$who" "$backend" quiet - "$@"
	expect "$b: 20 arguments of 90 kB (1.8 MB) run" has "$OUT" "exit=0"
	set -- $(for _ in $(seq 25); do echo "@big:90000"; done)
	start "$who" "$backend" quiet - "$@"
	toolong "$b: 25 arguments of 90 kB (2.25 MB)" "an exec takes beside the target's login environment"

	[ "$SUP" = c ] || continue
	# ruas run: one line naming the project and the stage, and env(1)'s codes.
	for c in "nocmd 127" "noexec 126" "dir 126"; do
		set -- $c
		run_as "$who" run -c "$SB/conf/run-$backend.conf" "$1"
		expect "$b: ruas run $1: exit $2" test "$RC" = "$2"
		expect "$b: ... one line naming the project and the stage" \
			has "$ERR" "ruas: project \"$1\": the agent did not start as user \"t1\" (exec): "
	done
done
done

# ------------------------------------------------------------------ signals (item 3)
# A kill is SIGKILL of the whole tree at once: the agent's TERM trap never
# runs, and the status is signal 9. A signal sent to child.pid (sudo's,
# ruas-session's), Popen's habit, reaches the agent as that signal: its INT
# trap runs and the run goes on. agent_pid is the agent's own.
if [[ " ${SUPS[*]} " == *" py "* ]]; then
	install -m 644 "$abs_top_srcdir/tests/consumer/signalspawn.py" "$SB/bin/signalspawn.py"
	for backend in sudo pam; do
		who=sup
		[ "$backend" = pam ] && who=root
		EXTRA_ENV=("${PY_ENV[@]}")
		OUT=$(as_user "$who" "$PY" "$SB/bin/signalspawn.py" "$SB/conf/$backend.conf" trap kill 2>&1)
		RC=$?
		expect "$backend: kill() of an agent that traps TERM: signal 9" has "$OUT" "rc=-9 "
		expect "$backend: ... its TERM trap never ran" hasnt "$OUT" "got TERM"
		secs=$(printf '%s' "$OUT" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
		expect "$backend: ... within 1 s ($secs s)" test -n "$secs" -a "${secs%%.*}" -lt 1
		OUT2="left: $(leftovers)"
		expect "$backend: ... nothing of it is left" test -z "$(leftovers)"
		OUT=$(as_user "$who" "$PY" "$SB/bin/signalspawn.py" "$SB/conf/$backend.conf" trap pidint 2>&1)
		RC=$?
		EXTRA_ENV=()
		expect "$backend: os.kill(child.pid, SIGINT) runs the agent's INT trap, and the run goes on" \
			has "$OUT" "said=got INT running=True"
		expect "$backend: ... agent_pid is the agent's own (its /proc cmdline)" \
			has "$OUT" "cmdline=perl -e "
		apid=$(printf '%s' "$OUT" | sed -n 's/^agent_pid=\([0-9]*\) pid=\([0-9]*\).*/\1 \2/p')
		expect "$backend: ... and not sudo's or ruas-session's ($apid)" test -n "$apid" -a "${apid% *}" != "${apid#* }"
		expect "$backend: ... kill() then ends it: -9" has "$OUT" "rc=-9"
	done
else
	echo "# SKIP: the signal tests need the Python binding" >&2
fi

OUT="left: $(leftovers)"
expect "nothing of any target is left" test -z "$(leftovers)"
tap_finish
