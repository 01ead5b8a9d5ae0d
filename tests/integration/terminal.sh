#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for ruas run on a terminal (issue 14), both backends
# (sudo for a non-root supervisor, pam for root), with sudoers' use_pty
# and with !use_pty: the agent's own pty, job control, Ctrl-C, resize, the
# operator's terminal restored on every way out, no injection into it, a
# large paste, and pipes unchanged. The same for a plain ruas_spawn() on a
# terminal (tests/consumer/ptyspawn.c: the default options, the library's
# relay). Driven by ptydrive.py, in the sandbox.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/terminal.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=37000
sandbox_setup
sandbox_guard
set -u
EXTRA_ENV=()
. "$abs_top_srcdir/tests/integration/tap.sh"
DRIVE="$abs_top_srcdir/tests/integration/ptydrive.py"
if [ ! -x "$SESSION" ] || ! command -v python3 >/dev/null; then
	echo "Bail out! ruas-session or python3 missing" >&2
	exit 99
fi

sandbox_user sup
sandbox_user t1
sandbox_sudoers ruas-sup 'sup ALL=(t1) NOPASSWD: ALL'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
# What the pam backend's session tells PAM modules of the terminal (PAM_TTY).
cat >"$SB/pamtty" <<EOP
#!/bin/sh
printf '%s\n' "type=\$PAM_TYPE tty=[\$PAM_TTY]" >>$SB/pamtty.log
EOP
chmod 755 "$SB/pamtty"
printf 'session optional pam_exec.so quiet %s\n' "$SB/pamtty" >>/etc/pam.d/ruas
mkdir -p "$SB/w" "$SB/conf" "$SB/s"
chown t1 "$SB/w"
chmod 755 "$SB/s"

WINCH='trap "echo size=\$(stty size)" WINCH; echo ready; while :; do sleep 0.1; done'
# Pushes "echo INJ$((6*7))" into each terminal it holds, and says which it holds.
INJECT='import fcntl, os, termios
held = set()
for fd in os.listdir("/proc/self/fd"):
    try:
        t = os.readlink("/proc/self/fd/" + fd)
    except OSError:
        continue
    if t.startswith("/dev/pts/") or t.startswith("/dev/tty"):
        held.add(t)
print("held " + " ".join(sorted(held)) + " tty " + os.ttyname(0), flush=True)
for c in "echo INJ$((6*7))\n":
    fcntl.ioctl(0, termios.TIOCSTI, c.encode())
print("done", flush=True)'
for backend in sudo pam; do
	{
		printf 'helper = %s;\nsession_helper = %s;\n' "$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")"
		printf 'backend = "%s";\nterminate_grace = 1;\nprojects = (\n' "$backend"
		cat <<EOC
  { name = "sh"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["bash", "--norc", "--noprofile", "-i"]; },
  { name = "seven"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", "exit 7"]; },
  { name = "py"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["python3", "-q", "-i"]; },
  { name = "winch"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["bash", "-c", $(cfgstr "$WINCH")]; },
  { name = "inject"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["python3", "-c", $(cfgstr "$INJECT")]; },
  { name = "cat"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", "stty -echo; cat > out.txt"]; },
  { name = "sleeper"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sleep", "300"]; },
  { name = "rawcat"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["cat"]; },
  { name = "stopper"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", "echo before; kill -STOP \$\$; echo after; exit 4"]; },
  { name = "echo"; run_as_user = "t1"; work_dir = "$SB/w"; command = ["sh", "-c", "printf 'a\\\\000b\\\\n'; tty || true; exit 3"]; }
);
EOC
	} >"$SB/conf/$backend.conf"
	chmod 644 "$SB/conf/$backend.conf"
done

consumer_flags
consumer_build ptyspawn "$abs_top_srcdir/tests/consumer/ptyspawn.c"
expect "ptyspawn, a supervisor with the default spawn options, builds" test "$RC" = 0
# The two runners, each called as RUNNER -c CONFIG PROJECT [ARG...].
printf '#!/bin/bash\nexec %q run "$@"\n' "$RUAS" >"$SB/bin/ruas-run"
chmod 755 "$SB/bin/ruas-run"

# drive NAME WHO PROJECT: $RUNNER PROJECT as WHO on a fresh terminal, with
# the steps of $SB/s/NAME; sets RC (ruas's), OUT (the terminal's output)
# and STTY_SAME (the terminal's stty -a before and after).
drive() {
	local name=$1 who=$2 project=$3
	shift 3
	python3 "$DRIVE" --timeout 15 --log "$SB/s/$name.log" --stty "$SB/s/$name.stty" \
		"$SB/s/$name" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/ TERM=xterm \
		LANG=C.UTF-8 LD_LIBRARY_PATH="$LIBDIR" \
		setpriv --reuid="$who" --regid="$who" --init-groups -- \
		"$RUNNER" -c "$CONF" "$project" "$@" >"$SB/s/$name.res" 2>&1
	DRC=$?
	RC=$(sed -n 's/^rc=//p' "$SB/s/$name.res")
	OUT="$(tr -d '\r' <"$SB/s/$name.log") $(cat "$SB/s/$name.res")"
	ERR=""
	STTY_SAME=no
	cmp -s "$SB/s/$name.stty.before" "$SB/s/$name.stty.after" && STTY_SAME=yes
}
steps() { cat >"$SB/s/$1"; }
# operator NAME WHO: the steps of $SB/s/NAME in an interactive bash of WHO
# (prompt "op> ", job control), as an operator's shell; sets OUT, STTY_SAME.
operator() {
	python3 "$DRIVE" --timeout 15 --log "$SB/s/$1.log" --stty "$SB/s/$1.stty" "$SB/s/$1" -- \
		env -i PATH=/usr/bin:/bin HOME=/ LD_LIBRARY_PATH="$LIBDIR" RUN="$RUNNER" \
		CONF="$CONF" PS1='op> ' setpriv --reuid="$2" --regid="$2" --init-groups -- \
		bash --norc --noprofile -i >"$SB/s/$1.res" 2>&1
	RC=$? OUT="$(tr -d '\r' <"$SB/s/$1.log") $(cat "$SB/s/$1.res")" ERR=""
	STTY_SAME=no
	cmp -s "$SB/s/$1.stty.before" "$SB/s/$1.stty.after" && STTY_SAME=yes
}
# A login file that, when asked, ends the login shell before the agent
# starts: the login files run inside the run, after the helper, which then
# says that the agent never started (no check runs a login file).
cat >>/home/t1/.profile <<'EOP'
if [ -e "$HOME/.break" ]; then
	exit 0
fi
EOP

head -c 1048576 /dev/urandom | base64 -w 76 >"$SB/s/paste.txt"
printf 'EOF\n' >>"$SB/s/paste.txt"

# ruas run with both of sudoers' settings; the embedded supervisor with the default.
for run in "ruas use_pty" "ruas !use_pty" "embedded use_pty"; do
	runner=${run% *} pty=${run#* }
	printf 'Defaults %s\n' "$pty" >/etc/sudoers.d/zz-pty
	chmod 0440 /etc/sudoers.d/zz-pty
	RUNNER=$SB/bin/ruas-run T0=""
	[ "$runner" = embedded ] && RUNNER=$SB/bin/ptyspawn T0="ruas_spawn(), "
	for backend in sudo pam; do
		who=sup
		[ "$backend" = pam ] && who=root
		CONF="$SB/conf/$backend.conf"
		T="$T0$backend, $pty"

		steps seven <<<'wait'
		drive seven "$who" seven
		expect "$T: exit 7 gives 7" test "$RC" = 7
		expect "$T: ... no summary line on a terminal" hasnt "$OUT" "ruas:"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps job <<'EOS'
expect $ 
send sleep 100 &\n
expect $ 
send jobs\n
expect Running
send fg\n
sleep 0.5
send \x1a
expect Stopped
send fg\n
sleep 0.5
send \x03
expect $ 
send echo alive$((1+1))\n
expect alive2
send tty; exit 5\n
wait
EOS
		drive job "$who" sh
		expect "$T: bash -i: job control (jobs, fg, Ctrl-Z, Ctrl-C), the shell survives" test "$RC" = 5
		expect "$T: ... no 'no job control' message" hasnt "$OUT" "no job control"
		expect "$T: ... nor 'cannot set terminal process group'" hasnt "$OUT" "cannot set terminal"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps py <<'EOS'
expect >>> 
send import time; time.sleep(60)\n
sleep 0.5
send \x03
expect KeyboardInterrupt
expect >>> 
send raise SystemExit(6)\n
wait
EOS
		drive py "$who" py
		expect "$T: python's REPL gets KeyboardInterrupt and goes on" test "$RC" = 6
		expect "$T: ... (it said so)" has "$OUT" "KeyboardInterrupt"

		steps winch <<'EOS'
expect ready
resize 33 101
expect size=33 101
send \x03
wait
EOS
		drive winch "$who" winch
		expect "$T: a resize reaches the agent (SIGWINCH, the new size)" has "$OUT" "size=33 101"
		expect "$T: ... Ctrl-C ends it (130)" test "$RC" = 130

		steps inject <<'EOS'
expect op> 
send tty; "$RUN" -c "$CONF" inject\n
expect done
expect op> 
send echo after; exit 0\n
wait
EOS
		: >"$SB/pamtty.log"
		operator inject "$who"
		outer=$(grep -m1 -o '^/dev/pts/[0-9]*' <<<"$OUT")
		if [ "$backend" = pam ]; then
			expect "$T: PAM_TTY is the operator's terminal ($outer), as su and sudo give it" \
				grep -qxF "type=open_session tty=[$outer]" "$SB/pamtty.log"
		fi
		expect "$T: the agent ran and held a terminal" has "$OUT" "held /dev/pts/"
		expect "$T: ... only its own, not the operator's ($outer)" hasnt "$OUT" "held $outer "
		expect "$T: what it pushed with TIOCSTI never reached the operator's shell" hasnt "$OUT" "INJ42"
		expect "$T: ... the operator's shell went on" has "$OUT" "after"

		steps paste <<EOS
sleep 0.5
sendfile $SB/s/paste.txt
send \x04
wait
EOS
		rm -f "$SB/w/out.txt"
		drive paste "$who" cat
		printf 'EOF\n' >"$SB/s/paste.tail"
		expect "$T: 1 MiB pasted into cat arrives intact" cmp -s "$SB/s/paste.txt" "$SB/w/out.txt"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps killed <<'EOS'
sleep 1
killpat KILL t1 ^sleep 300
wait
EOS
		drive killed "$who" sleeper
		expect "$T: the agent killed from outside: 137" test "$RC" = 137
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps intr <<'EOS'
sleep 1
send \x03
wait
EOS
		drive intr "$who" sleeper
		expect "$T: Ctrl-C kills an agent that is not a shell (sleep): 130" test "$RC" = 130
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps helper <<'EOS'
wait
EOS
		touch /home/t1/.break
		drive helper "$who" seven
		rm -f /home/t1/.break
		# The start fails: ruas run says why in one line and exits 125; an
		# embedder's ruas_spawn() fails with RUAS_ERR_START at the login stage.
		if [ "$runner" = ruas ]; then
			expect "$T: a helper error (a login file ends the shell before the agent): 125" \
				test "$RC" = 125
		else
			expect "$T: a helper error (a login file ends the shell before the agent): RUAS_ERR_START" \
				test "$RC" = 2 -a -n "$(printf '%s' "$OUT" | grep -F 'ptyspawn: error -8: ')"
		fi
		expect "$T: ... saying why, on the terminal, naming the project and the stage" has "$OUT" \
			"project \"seven\": the agent did not start as user \"t1\" (login): the login shell ended before the agent started"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		# Started in the background: it reads nothing of the operator's
		# (the shell does), until fg hands it the terminal.
		steps bg <<'EOS'
expect op> 
send "$RUN" -c "$CONF" rawcat &\n
expect op> 
sleep 1
send echo bg-$((2+3))\n
expect bg-5
send fg\n
sleep 1
send hello7\n
expect hello7
expect hello7
send \x04
expect op> 
send echo "ran=$?"; exit 0\n
wait
EOS
		operator bg "$who"
		expect "$T: started with &, the operator's shell keeps its input" has "$OUT" "bg-5"
		expect "$T: ... fg gives the agent the terminal" has "$OUT" "ran=0"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps hangup <<'EOS'
sleep 1
hangup
wait
EOS
		drive hangup "$who" sleeper
		expect "$T: the terminal hung up: the run ends (129)" test "$RC" = 129
		sleep 0.5
		OUT=$(ps -u t1 -o pid,ppid,stat,args 2>&1)
		expect "$T: ... and nothing of the agent's is left" test -z "$(pgrep -u t1)"

		if [ "$runner" = embedded ]; then
			# The library gives the terminal back while the agent is stopped;
			# ptyspawn continues it (ruas_child_signal(SIGCONT)).
			steps stop <<'EOS'
expect the agent stopped (signal 19)
expect after
wait
EOS
			drive stop "$who" stopper
			expect "$T: the agent stopping is news to the caller" has "$OUT" "the agent stopped (signal 19)"
			expect "$T: ... continued, it goes on and its status passes" test "$RC" = 4
			expect "$T: ... (it went on)" has "$OUT" "after"
			expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes
			continue
		fi
		# Only ruas run suspends itself with the agent, and ends on SIGTERM.
		# cat run directly: in a process group of its own below its monitor,
		# not an orphaned one, so the terminal's Ctrl-Z stops it.
		steps rawcat <<'EOS'
expect op> 
send "$RUN" -c "$CONF" rawcat\n
sleep 1
send hello2\n
expect hello2
expect hello2
send \x1a
expect Stopped
send ps -o stat=,comm= -u t1 | awk '$2 == "cat" { print "cat" "state=" $1 }'\n
expect catstate=
send fg\n
sleep 0.5
send world3\n
expect world3
expect world3
send \x04
expect op> 
send echo "ran=$?"; exit 0\n
wait
EOS
		operator rawcat "$who"
		expect "$T: Ctrl-Z suspends cat run directly, and the run with it" has "$OUT" "Stopped"
		expect "$T: ... cat itself is stopped meanwhile" has "$OUT" "catstate=T"
		expect "$T: ... fg resumes it, typed text still reaches cat" has "$OUT" "world3"
		expect "$T: ... Ctrl-D ends it with 0" has "$OUT" "ran=0"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		# This run's ruas only: its configuration is in this sandbox.
		steps term <<EOS
sleep 1
killpat TERM $who ^[^ ]*/ruas run -c $CONF sleeper
wait
EOS
		drive term "$who" sleeper
		expect "$T: SIGTERM to ruas run ends the agent (143)" test "$RC" = 143
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes

		steps stop <<'EOS'
expect op> 
send "$RUN" -c "$CONF" stopper\n
expect Stopped
send fg\n
expect after
expect op> 
send echo "ran=$?"; exit 0\n
wait
EOS
		operator stop "$who"
		expect "$T: the agent stopping suspends the run" has "$OUT" "Stopped"
		expect "$T: ... fg resumes it, the agent goes on and its status passes" has "$OUT" "ran=4"
		expect "$T: ... the terminal's modes are restored" test "$STTY_SAME" = yes
	done
done
rm -f /etc/sudoers.d/zz-pty

# Without a terminal nothing changes: the agent's bytes, its exit code.
for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	: >"$SB/pamtty.log"
	run_as "$who" run -c "$SB/conf/$backend.conf" echo
	printf 'a\000b\nnot a tty\n' >"$SB/s/want"
	expect "$backend: pipes: exit code" test "$RC" = 3
	expect "$backend: pipes: stdout byte for byte, no pty" cmp -s "$SB/out" "$SB/s/want"
	if [ "$backend" = pam ]; then
		expect "$backend: pipes: no PAM_TTY" grep -qxF "type=open_session tty=[]" "$SB/pamtty.log"
	fi
done

tap_finish
