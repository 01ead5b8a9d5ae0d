#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests from the hostile review of issue 24 ("Confinement
# first"): each test here failed on the change's head when it was written,
# and names the finding it reproduces.
#
#   bwrap-cwd   A person's agent under enforce = "bwrap" runs in the work_dir
#               that the outer helper opened outside bubblewrap's mount
#               namespace: relative paths from its cwd (and the work_dir
#               descriptor in the AGENT message, which login code can take)
#               walk the outer mount tree, where no deny mask is.
#   people-tmp  (Older than issue 24.) A person's private TMPDIR,
#               /tmp/ruas-UID/PERSON, is private from other users only:
#               with people sharing a run_as_user, no deny mask covers the
#               other person's, so alice's agent reads what bob's left there.
#   pty-monitor (Older than issue 24; left as documented.) On a pty the
#               agent's session leader is ruas-exec's monitor, inside the
#               agent's PID namespace and of its uid: the agent's `kill -9
#               -1` kills it. docs/backends.md said that this "ends only what
#               the agent started"; it now says that on a pty it ends the run
#               (the monitor's death is the run's), and this holds it to
#               that: the run ends at once as killed by SIGKILL, nothing of
#               the target left, and no hang.
#   cwd-mntns   The same without bubblewrap on the sudo backend: the
#               work_dir descriptor predates the run's mount namespace, so
#               the agent's cwd lies in the host's, where /proc is the
#               host's: every pid of the host, not the run's alone.
#   iolog       sudo's log_input interposes a pipe on the helper's stdin;
#               the helper refuses it, but the library has sent the payload
#               already, and sudo writes it into its I/O log.
#   survivors   On the pam backend, the end record's survivors_killed misses
#               every left-over process that the target's uid may not
#               ptrace (ssh-agent makes itself so).
#   helper-window  A helper that the target can read (any mode but 0711:
#               a packaging, a build tree named in `helper`) is dumpable from
#               its exec until its PR_SET_DUMPABLE: a process of the target's
#               own stops it there and takes the channel (pidfd_getfd), and
#               with it the payload's secrets; ruas check says nothing.
#   stop-cont   A process of the target's uid outside the run (what the
#               agent's own PID namespace keeps it from being) stops the
#               helper for a moment (SIGSTOP, then SIGCONT at once, as a
#               debugger's attach does): sudo suspends itself when its
#               command stops and stays stopped; the run ends, the helper
#               with it, but ruas_child_wait() never returns.
#
# REVIEW24_PARTS="bwrap-cwd iolog ..." runs only some parts (people-tmp runs
# within bwrap-cwd, whose people it uses).
# Inside the private-namespace sandbox; needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/review24.sh"
for tool in python3 bwrap ssh-agent timeout cc pkg-config script; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: tests/integration/review24.sh needs $tool" >&2
		exit 77
	fi
done
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=48000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
[ -x "$SESSION" ] || { echo "Bail out! ruas-session was not installed at $SESSION" >&2; exit 99; }
part() { [ -z "${REVIEW24_PARTS:-}" ] || [[ " $REVIEW24_PARTS " == *" $1 "* ]]; }

TARGETS="t1 tp"
sandbox_user sup
sandbox_user t1
sandbox_user tp
rules=()
for t in $TARGETS; do rules+=("sup ALL=($t) NOPASSWD: ALL" "Defaults:$t listpw=never"); done
sandbox_sudoers ruas-sup "${rules[@]}"
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
cleanup() { for t in $TARGETS; do pkill -KILL -u "$t" 2>/dev/null; done; }
trap cleanup EXIT
mkdir -p "$SB/w1" "$SB/conf"
chown t1:t1 "$SB/w1"
chmod 755 "$SB" "$SB/conf"
who_of() { if [ "$1" = pam ]; then echo root; else echo sup; fi; }

consumer_flags
consumer_build review24spawn "$abs_top_srcdir/tests/consumer/review24spawn.c"
[ -x "$SB/bin/review24spawn" ] || { echo "Bail out! review24spawn did not build: $ERR"; exit 99; }

# ------------------------------------------------------------- bwrap-cwd
# alice and bob share tp; only bubblewrap keeps bob's tree from alice's
# agent (tests/integration/confine.sh does the same with absolute paths).
if part bwrap-cwd; then
	WT=$SB/wt
	mkdir -p "$WT/alice/repo" "$WT/bob/repo" "$SB/cred" "$SB/cp"
	BOBS="bob-secret-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')"
	echo "$BOBS" >"$WT/bob/secret.txt"
	chown -R tp:tp "$WT/alice" "$WT/bob"
	chmod 755 "$WT"
	chmod 700 "$SB/cred"
	# The agent: the masked file by its absolute path (bwrap hides it), then
	# the same file relative to its cwd, the work_dir.
	# shellcheck disable=SC2016 # the agent's shell expands them
	AG='cat "$1/bob/secret.txt" 2>/dev/null; echo "-- relative:"; cat ../../bob/secret.txt 2>&1; true'
	for b in sudo pam; do
		cat >"$SB/conf/people-$b.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$b";
people = { worktrees = $(cfgstr "$WT"); credentials = $(cfgstr "$SB/cred"); claude_projects = $(cfgstr "$SB/cp"); enforce = "bwrap";
  members = ( { id = "alice"; run_as_user = "tp"; }, { id = "bob"; run_as_user = "tp"; } ); };
projects = ( { name = "alice"; person = "alice"; work_dir = $(cfgstr "$WT/alice/repo"); command = ["/bin/sh", "-c", $(cfgstr "$AG"), "agent", $(cfgstr "$WT")]; } );
EOC
		chmod 644 "$SB/conf/people-$b.conf"
		run_as "$(who_of "$b")" run -q -c "$SB/conf/people-$b.conf" alice
		expect "bwrap-cwd ($b): alice's agent runs (exit 0)" test "$RC" = 0
		expect "bwrap-cwd ($b): bob's file is masked by its absolute path" hasnt "$OUT" "$BOBS"$'\n'"-- relative:"
		expect "bwrap-cwd ($b): ... and by a path relative to the agent's cwd (its work_dir): the cwd must be inside bwrap's mount namespace" \
			hasnt "$OUT" "$BOBS"
	done

	# Login code inside bwrap takes the AGENT message from descriptor 3 and
	# walks from its work_dir descriptor (the outer mount namespace's).
	cat >"$SB/takefd.py" <<'EOP'
import array, os, socket, sys
s = socket.socket(fileno=3)
msg, anc, flags, addr = s.recvmsg(64, socket.CMSG_SPACE(8 * 4))
fds = array.array('i')
for level, kind, data in anc:
    fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
wd = fds[4]
try:
    fd = os.open("../bob/secret.txt", os.O_RDONLY, dir_fd=os.open("..", os.O_PATH, dir_fd=wd))
    sys.stderr.write("login code read: " + os.read(fd, 100).decode())
except OSError as e:
    sys.stderr.write("login code: %s\n" % e)
EOP
	chmod 644 "$SB/takefd.py"
	printf 'python3 %q\n' "$SB/takefd.py" >/home/tp/.bash_profile
	chown tp:tp /home/tp/.bash_profile
	for b in sudo pam; do
		run_as "$(who_of "$b")" run -q -c "$SB/conf/people-$b.conf" alice
		expect "bwrap-cwd ($b): login code under bwrap cannot reach bob's file through the work_dir descriptor of the AGENT message" \
			hasnt "$ERR" "$BOBS"
	done
	rm -f /home/tp/.bash_profile

	# people-tmp: bob's agent leaves a note in its private TMPDIR.
	if part people-tmp; then
		BOBT="bob-tmp-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')"
		cat >"$SB/conf/people-tmp.conf" <<EOC
helper = $(cfgstr "$HELPER");
backend = "sudo";
people = { worktrees = $(cfgstr "$WT"); credentials = $(cfgstr "$SB/cred"); claude_projects = $(cfgstr "$SB/cp"); enforce = "bwrap";
  members = ( { id = "alice"; run_as_user = "tp"; }, { id = "bob"; run_as_user = "tp"; } ); };
projects = ( { name = "bob"; person = "bob"; work_dir = $(cfgstr "$WT/bob/repo"); command = ["/bin/sh", "-c", "printf %s $BOBT > \"\$TMPDIR/note\""]; },
  { name = "alice"; person = "alice"; work_dir = $(cfgstr "$WT/alice/repo"); command = ["/bin/sh", "-c", "cat /tmp/ruas-$(id -u tp)/bob/note"]; } );
EOC
		chmod 644 "$SB/conf/people-tmp.conf"
		run_sup run -q -c "$SB/conf/people-tmp.conf" bob
		expect "people-tmp: bob's agent wrote its note" test -f "/tmp/ruas-$(id -u tp)/bob/note"
		run_sup run -q -c "$SB/conf/people-tmp.conf" alice
		expect "people-tmp: alice's agent (bwrap) cannot read bob's private TMPDIR" hasnt "$OUT" "$BOBT"
	fi
fi

# -------------------------------------------------------------- cwd-mntns
# /proc as the agent sees it, and as it reaches it from its cwd.
if part cwd-mntns; then
	UP="../../../../../../../../../../../../../../../.."
	# shellcheck disable=SC2016 # the agent's shell expands them
	AG='n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; m=0; for p in '"$UP"'/proc/[0-9]*; do m=$((m+1)); done; echo "own=$n viacwd=$m"'
	for b in sudo pam; do
		cat >"$SB/conf/mntns-$b.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$b";
lifetime = "pidns";
projects = ( { name = "a"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/bin/sh", "-c", $(cfgstr "$AG")]; } );
EOC
		chmod 644 "$SB/conf/mntns-$b.conf"
		run_as "$(who_of "$b")" run -q -c "$SB/conf/mntns-$b.conf" a
		own=$(sed -n 's/^own=\([0-9]*\) .*/\1/p' <<<"$OUT")
		via=$(sed -n 's/.* viacwd=\([0-9]*\)$/\1/p' <<<"$OUT")
		expect "cwd-mntns ($b): the agent runs" test "$RC" = 0 -a -n "$own"
		expect "cwd-mntns ($b): /proc reached from the agent's cwd is the run's own (as many pids as its /proc), not the host's" \
			test "$own" = "$via"
	done
fi

# ------------------------------------------------------------------ iolog
# Defaults log_input: sudo reads the command's stdin (the channel) into a
# pipe and its I/O log. The helper refuses a pipe, and says so; no byte of
# the payload (the allowlisted secret, the agent's arguments) may have
# reached the log by then. ruas_spawn() without a preflight, as an embedder
# may call it (and as a supervisor does after log_input was added while it
# ran).
if part iolog; then
	cat >"$SB/conf/iolog.conf" <<EOC
helper = $(cfgstr "$HELPER");
backend = "sudo";
env_allowlist = ["ANTHROPIC_API_KEY"];
projects = ( { name = "env"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/usr/bin/env"]; } );
EOC
	chmod 644 "$SB/conf/iolog.conf"
	sandbox_sudoers zz-iolog 'Defaults log_input, !compress_io, iolog_dir=/var/log/sudo-io'
	SECRET="sk-iolog-$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')"
	ARGSECRET="prompt-$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')"
	EXTRA_ENV=(ANTHROPIC_API_KEY="$SECRET")
	as_user sup timeout 90 "$SB/bin/review24spawn" "$SB/conf/iolog.conf" env "$ARGSECRET" \
		>"$SB/iolog.out" 2>"$SB/iolog.err" </dev/null
	RC=$? OUT=$(cat "$SB/iolog.out") ERR=$(cat "$SB/iolog.err")
	EXTRA_ENV=()
	expect "iolog: the helper refuses sudo's pipe and says how to exempt it" has "$ERR" "log_input"
	expect "iolog: sudo wrote an I/O log for the call" test -d /var/log/sudo-io
	leaked=$(grep -rl -e "$SECRET" /var/log/sudo-io 2>/dev/null)
	RC=0 OUT=$leaked ERR=""
	expect "iolog: the allowlisted secret is in no sudo I/O log" test -z "$leaked"
	leaked=$(grep -rl -e "$ARGSECRET" /var/log/sudo-io 2>/dev/null)
	OUT=$leaked
	expect "iolog: the agent's arguments are in no sudo I/O log" test -z "$leaked"
	rm -f /etc/sudoers.d/zz-iolog
fi

# -------------------------------------------------------------- survivors
# An agent that leaves ssh-agent (which makes itself not dumpable, as
# OpenSSH's agent does) and a sleep behind: two survivors, killed at the
# end, and the end record must say so on both backends, in both modes.
if part survivors; then
	for b in sudo pam; do
		LOG=$SB/audit-$b.jsonl
		: >"$LOG"
		chown "$(who_of "$b")" "$LOG"
		chmod 600 "$LOG"
		cat >"$SB/conf/surv-$b.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$b";
terminate_grace = 1;
audit_log = $(cfgstr "$LOG");
projects = ( { name = "pidns"; lifetime = "pidns"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/bin/sh", "-c", "ssh-agent >/dev/null; sleep 1000 & exit 0"]; },
  { name = "subreaper"; lifetime = "subreaper"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/bin/sh", "-c", "ssh-agent >/dev/null; sleep 1000 & exit 0"]; } );
EOC
		chmod 644 "$SB/conf/surv-$b.conf"
		for mode in pidns subreaper; do
			run_as "$(who_of "$b")" run -q -c "$SB/conf/surv-$b.conf" "$mode"
			expect "survivors ($b, $mode): the agent exits 0" test "$RC" = 0
			rec=$(grep '"event":"end"' "$LOG" | grep "\"project\":\"$mode\"")
			OUT=$rec
			expect "survivors ($b, $mode): the end record says survivors_killed=2 (ssh-agent and sleep)" \
				has "$rec" '"survivors_killed":2,'
			left=$(pgrep -u t1 -a)
			OUT=$left
			expect "survivors ($b, $mode): nothing of the target is left" test -z "$left"
		done
	done
fi

# ---------------------------------------------------------- helper-window
# The helper as a packaging other than make install may leave it: 0755.
if part helper-window; then
	RH=$SB/rh/ruas-exec
	mkdir -p "$SB/rh" "$SB/bin"
	cp "$HELPER" "$RH"
	chmod 755 "$SB/rh" "$RH"
	cc -O2 -o "$SB/bin/review24_steal" "$abs_top_srcdir/tests/integration/review24_steal.c" ||
		{ echo "Bail out! review24_steal did not build"; exit 99; }
	chmod 755 "$SB/bin/review24_steal"
	cat >"$SB/conf/window.conf" <<EOC
helper = $(cfgstr "$RH");
backend = "sudo";
env_allowlist = ["ANTHROPIC_API_KEY"];
projects = ( { name = "true"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/bin/true"]; } );
EOC
	chmod 644 "$SB/conf/window.conf"
	run_sup check -c "$SB/conf/window.conf"
	expect "helper-window: ruas check fails on a helper that the target can read (mode 0755)" test "$RC" = 1
	expect "helper-window: ... and names the helper" has "$OUT$ERR" "$RH"
	stolen="" refused=""
	for i in 1 2 3 4 5 6 7 8; do
		: >"$SB/stolen"
		chown t1 "$SB/stolen"
		as_user_bg t1 "$SB/bin/review24_steal" 20 "$SB/stolen"
		sp=$BGPID
		# Until the thief watches (it says so in its file).
		for _ in $(seq 400); do grep -q . "$SB/stolen" && break; sleep 0.05; done
		EXTRA_ENV=(ANTHROPIC_API_KEY="sk-window-$i")
		as_user sup timeout 30 "$SB/bin/review24spawn" "$SB/conf/window.conf" true >/dev/null 2>"$SB/window.err" </dev/null
		EXTRA_ENV=()
		# The thief finishes what it started (it blocks SIGTERM while it steals).
		kill -TERM "$sp" 2>/dev/null
		wait "$sp"
		grep -q "refusing to start the ruas helper" "$SB/window.err" && refused="$(cat "$SB/window.err")"
		# A stopped helper may leave sudo stopped too: end what is left of this try.
		pkill -KILL -u t1 2>/dev/null
		pkill -KILL -f "sudo -n -u t1 -- $RH" 2>/dev/null
		if grep -qa "sk-window-$i" "$SB/stolen"; then
			stolen="try $i: $(head -n1 "$SB/stolen")"
			break
		fi
	done
	RC=0 OUT=$stolen ERR=""
	expect "helper-window: no process of the target takes the spawn channel and reads the payload's secret (up to 8 spawns)" \
		test -z "$stolen"
	OUT=$refused
	expect "helper-window: ruas_spawn refuses to start a helper that other users can read, naming it and the fix" \
		has "$refused" "\"$RH\": other users can read it (mode 0755)"
	expect "helper-window: ... chmod 0711" has "$refused" "chmod 0711"
	# The control: at 0711 the same spawn runs.
	chmod 711 "$RH"
	EXTRA_ENV=(ANTHROPIC_API_KEY="sk-window-ok")
	as_user sup timeout 30 "$SB/bin/review24spawn" "$SB/conf/window.conf" true >/dev/null 2>"$SB/window.err" </dev/null
	RC=$? OUT="" ERR=$(cat "$SB/window.err")
	EXTRA_ENV=()
	expect "helper-window: at 0711 the spawn runs (exit 0)" test "$RC" = 0
	# And root's pam backend: ruas-session refuses it too.
	chmod 755 "$RH"
	sed -e 's/backend = "sudo";/backend = "pam";/' "$SB/conf/window.conf" >"$SB/conf/window-pam.conf"
	printf 'session_helper = %s;\n' "$(cfgstr "$SESSION")" >>"$SB/conf/window-pam.conf"
	chmod 644 "$SB/conf/window-pam.conf"
	run_as root run -q -c "$SB/conf/window-pam.conf" true
	expect "helper-window (pam): ruas run refuses a helper that other users can read" test "$RC" != 0
	expect "helper-window (pam): ... naming it" has "$ERR" "$RH"
fi

# ------------------------------------------------------------ pty-monitor
# ruas run on a terminal (script(1) gives it one): the agent gets a pty.
if part pty-monitor; then
	for b in sudo pam; do
		cat >"$SB/conf/ptymon-$b.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$b";
terminate_grace = 1;
projects = ( { name = "k9"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/bin/sh", "-c", "kill -9 -1; sleep 30; echo still-here; exit 3"]; } );
EOC
		chmod 644 "$SB/conf/ptymon-$b.conf"
		as_user "$(who_of "$b")" timeout 60 script -qec "$RUAS run -q -c $SB/conf/ptymon-$b.conf k9; echo rc=\$?" /dev/null \
			>"$SB/ptymon.out" 2>&1 </dev/null
		OUT=$(tr -d '\r' <"$SB/ptymon.out") RC=$(sed -n 's/.*rc=\([0-9]*\).*/\1/p' <<<"$OUT") ERR=""
		expect "pty-monitor ($b): an agent on a pty that runs kill -9 -1 kills its monitor: the run ends as killed by SIGKILL (137), as docs/backends.md says" \
			test "$RC" = 137
		expect "pty-monitor ($b): ... the agent with it" hasnt "$OUT" "still-here"
		left=$(pgrep -u t1 -a)
		OUT=$left
		expect "pty-monitor ($b): ... and nothing of the target is left" test -z "$left"
	done
fi

# -------------------------------------------------------------- stop-cont
if part stop-cont; then
	for b in sudo pam; do
		cat >"$SB/conf/stopcont-$b.conf" <<EOC
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
backend = "$b";
terminate_grace = 1;
projects = ( { name = "sleep"; run_as_user = "t1"; work_dir = $(cfgstr "$SB/w1"); command = ["/bin/sleep", "2"]; } );
EOC
		chmod 644 "$SB/conf/stopcont-$b.conf"
		as_user_bg "$(who_of "$b")" timeout 30 "$SB/bin/review24spawn" "$SB/conf/stopcont-$b.conf" sleep \
			>/dev/null 2>&1 </dev/null
		sp=$BGPID
		h=""
		for _ in $(seq 100); do
			h=$(pgrep -u t1 -f -- "ruas-exec --channel-fd" | head -n1)
			[ -n "$h" ] && pgrep -u t1 -x sleep >/dev/null && break
			sleep 0.05
		done
		as_user t1 kill -STOP "$h"
		sleep 0.2
		as_user t1 kill -CONT "$h"
		sleep 3
		# shellcheck disable=SC2009 # the states of sudo and the helpers, whatever their uid
		state=$(ps -o pid,user,stat,args -e | grep -E '[s]udo -n -u t1|[r]uas-(exec|session) ')
		wait "$sp"
		RC=$? OUT="3 s after the agent ended: $state" ERR=""
		expect "stop-cont ($b): after a momentary stop of the helper (STOP, CONT) by a process of the target's, ruas_child_wait() returns once the agent (sleep 2) has ended (rc 124: still waiting after 30 s)" \
			test "$RC" = 0
		pkill -KILL -f "sudo -n -u t1 -- $HELPER" 2>/dev/null # this sandbox's only
		pkill -KILL -u t1 2>/dev/null
	done
fi

tap_finish
