#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for libruas and ruas: real sudo, real users, real PAM,
# inside a private mount namespace (see sandbox.sh). Needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/run.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=21000
sandbox_setup
sandbox_guard
# Counted findings are the projects' own: /proc hides command lines here, so
# the host's "proc" warning (host_notes.sh) is not among them.
sandbox_proc_hidepid
set -u
EXTRA_ENV=()

. "$abs_top_srcdir/tests/integration/tap.sh"
hex() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'; }
conf() { # NAME: config from stdin, helper preset
	local f="$SB/conf/$1.conf"
	mkdir -p "$SB/conf"
	{ printf 'helper = %s;\n' "$(cfgstr "$HELPER")"; cat; } >"$f"
	chmod 644 "$f"
	CONF=$f
}

# ------------------------------------------------------------------ users
sandbox_guard
sandbox_group supgrp
sandbox_group docker
sandbox_user sup -G supgrp
for u in t1 t2 t3 t5 t6 t7; do sandbox_user "$u"; done
sandbox_user t4 -s /usr/sbin/nologin
usermod -aG docker t6
# t1 as ruas-setup provisions a target: it may list its own rules.
sandbox_sudoers ruas-sup \
	'sup ALL=(t1) NOPASSWD: ALL' 'Defaults:t1 listpw=never' 'sup ALL=(t3) NOPASSWD: ALL' \
	'sup ALL=(t4) NOPASSWD: ALL' 'sup ALL=(t5) NOPASSWD: ALL' \
	'sup ALL=(t6) NOPASSWD: ALL'
# t7: the supervisor may run the helper as t7, and nothing else: ruas never
# runs anything else (no login shell, no agent's command) through sudo.
sandbox_sudoers ruas-sup-t7 "sup ALL=(t7) NOPASSWD: $HELPER" 'Defaults:t7 listpw=never'
sandbox_sudoers t3-escalates 't3 ALL=(ALL) NOPASSWD: ALL'
sandbox_sudoers t5-partial 't5 ALL=(t1) NOPASSWD: /usr/bin/id'
install -m 644 "$abs_top_srcdir/tests/integration/probe.pl" "$SB/probe.pl"
PROBE="$SB/probe.pl"

mkdir -p "$SB/w1"
chown t1:t1 "$SB/w1"
HOSTILE="$SB/w d'q\"\$HOME\`id\`;*"$'\n'"nl"
mkdir -p "$HOSTILE"
chown t1:t1 "$HOSTILE"
mkdir -p "$SB/private/sub"
chmod 700 "$SB/private"

# ------------------------------------------------------------------ check 1
conf good <<EOC
projects = ( { name = "good"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check passes when everything is in place" test "$RC" = 0
expect "check prints no ERROR when it passes" hasnt "$ERR" "ERROR"

# A rule that names the helper alone is enough for every check and spawn.
mkdir -p "$SB/w7"
chown t7:t7 "$SB/w7"
conf helperonly <<EOC
projects = ( { name = "h"; run_as_user = "t7"; work_dir = "$SB/w7"; command = ["sh", "-c"]; } );
EOC
run_sup check -c "$CONF"
expect "a supervisor rule that names only the helper: check passes" test "$RC" = 0
run_sup run -q -c "$CONF" h -- 'id -un; exit 6'
expect "... and run works through it (exit 6)" test "$RC" = 6
expect "... as the target" has "$OUT" "t7"
as_user sup sudo -n -u t7 -- true >"$SB/out" 2>&1
RC=$? OUT=$(cat "$SB/out") ERR=""
expect "... while the supervisor can run nothing else as t7" test "$RC" != 0

conf nosudo <<EOC
projects = ( { name = "claude"; run_as_user = "t2"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
SEED='ERROR: project "claude" requires passwordless sudo to user "t2", but it is not configured.
Add a sudoers rule that allows user "sup" to run commands as "t2" without a password, for example:
  sup ALL=(t2) NOPASSWD: ALL
Then restart ruas.'
expect "check 1: no sudoers rule exits 1" test "$RC" = 1
expect "check 1: no sudoers rule prints the seed text exactly" has "$ERR" "$SEED"
# Under ruas run, what to do ends with a run again, not a restart of a supervisor.
run_sup run -c "$CONF" claude
expect "run: no sudoers rule refuses (exit 1)" test "$RC" = 1
expect "run: ... the fix ends with running it again" has "$ERR" "  sup ALL=(t2) NOPASSWD: ALL
Then run ruas run again."
expect "run: ... and never says to restart ruas" hasnt "$ERR" "restart ruas"

conf nouser <<EOC
projects = ( { name = "p"; run_as_user = "ghost"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check 1: missing user is named" has "$ERR" 'but user "ghost" does not exist.'
expect "check 1: missing user exits 1" test "$RC" = 1

conf nologin <<EOC
projects = ( { name = "p"; run_as_user = "t4"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check 1: nologin shell is diagnosed" has "$ERR" 'its login shell "/usr/sbin/nologin" refuses logins'
expect "check 1: nologin exits 1" test "$RC" = 1

conf nosudobin <<EOC
sudo = "/nonexistent/sudo";
projects = ( { name = "p"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check 1: sudo not installed is diagnosed" has "$ERR" 'but sudo is not installed: "/nonexistent/sudo"'

conf nohelper <<EOC
projects = ( { name = "p"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
sed -i "s|^helper = .*|helper = \"$SB/missing-helper\";|" "$CONF"
run_sup check -c "$CONF"
expect "check 1: a helper the target cannot run is diagnosed" has "$ERR" "could not be run as that user"

# ------------------------------------------------------------------ check 2
conf escalates <<EOC
projects = ( { name = "p"; run_as_user = "t3"; work_dir = "/tmp"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check 2: passwordless sudo of the target is fatal" has "$ERR" 'ERROR: target user "t3" can run passwordless sudo.
The user-spawn sandbox provides no isolation if the spawned agent can escalate non-interactively.
Remove NOPASSWD sudo access for this user before starting ruas with this project.'
expect "check 2: the sudo -n -l listing follows" has "$ERR" "(ALL) NOPASSWD: ALL"
expect "check 2: exits 1" test "$RC" = 1

conf partial <<EOC
projects = ( { name = "p"; run_as_user = "t5"; work_dir = "/tmp"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
# A narrower NOPASSWD rule as another user is a way up too: fatal since issue 11.
expect "check 2: a narrower NOPASSWD rule as another user is fatal" has "$ERR" 'ERROR: target user "t5" can run commands as another user without a password:
  (t1) NOPASSWD: /usr/bin/id'
expect "check 2: ... and exits 1" test "$RC" = 1

conf docker <<EOC
projects = ( { name = "p"; run_as_user = "t6"; work_dir = "/tmp"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
# docker gives root by design: fatal since issue 11 part 3 (it was a warning).
expect "root-equivalent group membership (docker) is fatal" has "$ERR" 'ERROR: project "p": target user "t6" is a member of docker, which give root without a password.'
expect "... saying how to leave it" has "$ERR" '  gpasswd -d t6 docker'
expect "root-equivalent group (docker): exit 1" test "$RC" = 1
# A group that reads other people's logs (adm) keeps the warning and its text.
gpasswd -d t6 docker >/dev/null
usermod -aG adm t6
run_sup check -c "$CONF"
expect "reading group membership (adm) is a warning" has "$ERR" 'WARNING: project "p": target user "t6" is a member of adm, which give root or its equivalent'
expect "reading group (adm) alone is not fatal" test "$RC" = 0
gpasswd -d t6 adm >/dev/null
usermod -aG docker t6

# ------------------------------------------------------------------ check 3
conf private <<EOC
projects = ( { name = "claude"; run_as_user = "t1"; work_dir = "$SB/private"; command = ["true"]; },
             { name = "deep"; run_as_user = "t1"; work_dir = "$SB/private/sub"; command = ["true"]; },
             { name = "absent"; run_as_user = "t1"; work_dir = "$SB/nonexistent"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check 3: unreadable work_dir is fatal" test "$RC" = 1
expect "check 3: message starts as the seed" has "$ERR" "ERROR: project \"claude\" work_dir \"$SB/private\" is not accessible to user \"t1\""
expect "check 3: names read and search on the dir" has "$ERR" "Missing: read and search (rx) permission on \"$SB/private\" (mode 700 owner root)"
expect "check 3: gives a setfacl fix" has "$ERR" "setfacl -m u:t1:rx $SB/private"
expect "check 3: a deeper dir names the ancestor without search" has "$ERR" "Missing: search (x) permission on \"$SB/private\""
expect "check 3: a missing dir is named" has "$ERR" "Missing: \"$SB/nonexistent\" cannot be reached"
run_sup check -c "$CONF" --json
expect "check --json: exit 1" test "$RC" = 1
expect "check --json: every item holds to ruas(1)'s schema" \
	perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out"
expect "check --json: a work_dir error names its project, user, path and fix" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my ($p) = grep { $_->{name} eq "claude" } @{$j->{projects}}; my $e = $p->{errors}[0]; exit(($e->{check} eq "work_dir" && $e->{severity} eq "error" && $e->{project} eq "claude" && $e->{user} eq "t1" && $e->{path} eq $ARGV[0] && $e->{fix} =~ /^Grant it, for example with:\n  setfacl -m u:t1:rx \Q$ARGV[0]\E\n/ && $e->{summary} eq "project \"claude\" work_dir \"$ARGV[0]\" is not accessible to user \"t1\"." && $e->{message} =~ /^ERROR: /) ? 0 : 1)' "$SB/private" <"$SB/out"
expect "check --json: the deeper project's path is its own work_dir" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my ($p) = grep { $_->{name} eq "deep" } @{$j->{projects}}; exit($p->{errors}[0]{path} eq $ARGV[0] ? 0 : 1)' "$SB/private/sub" <"$SB/out"

conf hostile_ok <<EOC
projects = ( { name = "h"; run_as_user = "t1"; work_dir = $(cfgstr "$HOSTILE"); command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "check 3: a work_dir with quotes, \$, backquotes and a newline passes when accessible" test "$RC" = 0
chmod 700 "$HOSTILE"
chown root "$HOSTILE"
run_sup check -c "$CONF"
expect "check 3: the same hostile work_dir is diagnosed exactly when denied" has "$ERR" 'w d'"'"'q\"$HOME`id`;*\nnl" (mode 700 owner root)'
chown t1 "$HOSTILE"

# ------------------------------------------------------------------ scan
S="$SB/scan"
mkdir -p "$S/repo/node_modules/pkg" "$S/repo/.git" "$S/locked" "$S/outside"
for i in $(seq -w 1 60); do echo x >"$S/repo/secret$i.env"; done
chmod 600 "$S"/repo/secret*.env
echo x >"$S/repo/ro.txt"
chmod 644 "$S/repo/ro.txt"
echo x >"$S/repo/node_modules/pkg/hidden"
chmod 600 "$S/repo/node_modules/pkg/hidden"
echo x >"$S/repo/.git/config"
chmod 600 "$S/repo/.git/config"
chmod 700 "$S/locked"
echo x >"$S/outside/x"
chmod 600 "$S/outside/x"
ln -s "$S/outside" "$S/repo/link-to-outside"
chown -R t1:t1 "$S/repo"
chown root:root "$S"/repo/secret*.env "$S/repo/ro.txt" "$S/repo/node_modules/pkg/hidden" "$S/repo/.git/config"
mv "$S/outside" "$SB/outside"
ln -sfn "$SB/outside" "$S/repo/link-to-outside"
conf scan <<EOC
projects = ( { name = "claude"; run_as_user = "t1"; work_dir = "$S"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "scan: warnings only, exit 0" test "$RC" = 0
expect "scan: header line as the seed" has "$ERR" "WARNING: project \"claude\" work_dir \"$S\" contains paths that user \"t1\" may not be able to access cleanly:"
expect "scan: the locked dir is listed with its reasons" has "$ERR" "  $S/locked (not readable, not searchable, mode 700 owner root)"
expect "scan: a read-only file is not writable" has "$ERR" "  $S/repo/ro.txt (not writable, mode 644 owner root)"
expect "scan: an unreadable file has both reasons" has "$ERR" "  $S/repo/secret01.env (not readable, not writable, mode 600 owner root)"
expect "scan: 62 paths capped at 50, then the rest counted" has "$ERR" "  ... and 12 more"
expect "scan: pruned node_modules is not entered" hasnt "$ERR" "node_modules"
expect "scan: pruned .git is not entered" hasnt "$ERR" ".git/config"
expect "scan: symlinks are not followed" hasnt "$ERR" "link-to-outside"
expect "scan: the advice ends the block" has "$ERR" "The agent may fail with EACCES when accessing these paths. Fix ownership/permissions, narrow the project scope, or accept the risk if the inaccessible paths are intentionally out of bounds."
lines=$(printf '%s\n' "$ERR" | grep -c "^  $S/")
expect "scan: exactly 50 path lines" test "$lines" = 50

run_sup check -c "$CONF" --json
expect "check --json prints one JSON document" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); exit(($j->{ok} && @{$j->{projects}[0]{warnings}} == 1) ? 0 : 1)' <"$SB/out"
expect "check --json keeps stderr free of blocks" hasnt "$ERR" "WARNING"
expect "check --json: a warning names its severity, project, user, path and fix" \
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $w = $j->{projects}[0]{warnings}[0]; exit(($w->{check} eq "scan" && $w->{severity} eq "warning" && $w->{project} eq "claude" && $w->{user} eq "t1" && $w->{path} eq $ARGV[0] && $w->{fix} =~ /^Fix ownership\/permissions, narrow the project scope/ && $w->{summary} =~ /^project "claude" work_dir .* may not be able to access cleanly:$/ && !@{$j->{host}{errors}}) ? 0 : 1)' "$S" <"$SB/out"

# ------------------------------------------------------------------ global abort
conf abort <<EOC
projects = ( { name = "good"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["touch", "$SB/w1/spawned"]; },
             { name = "bad"; run_as_user = "t2"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup run -c "$CONF" good
expect "run: a fatal check anywhere exits 1" test "$RC" = 1
expect "run: ... and spawns nothing" test ! -e "$SB/w1/spawned"
expect "run: ... and says why" has "$ERR" 'ERROR: project "bad" requires passwordless sudo'

# ------------------------------------------------------------------ fidelity
# fidelity BACKEND SUPERVISOR: the same table on either backend.
fidelity() {
	local backend=$1 who=$2
	local ARGS=('$HOME' '' 'a b' $'new\nline' '$(id)' '`id`' "'" '"' '\' '*' ';' '$1' '$$' '${HOME}' '-' '--' $'\t' '~' $'\xff\xfe')
	local cmdlist
	cmdlist="$(cfgstr perl), $(cfgstr "$PROBE"), $(cfgstr 'c$HOME'), $(cfgstr '')"
	conf "fidelity-$backend" <<EOC
backend = "$backend";
session_helper = $(cfgstr "$SESSION");
env_allowlist = ["LANG", "TERM", "FOO", "EMPTY", "WEIRD"];
projects = ( { name = "f"; run_as_user = "t1"; work_dir = $(cfgstr "$HOSTILE"); command = [$cmdlist]; } );
EOC
	local WEIRD=$' a b $HOME \'"\\\n$(id)=x '
	exec 7</etc/hostname
	EXTRA_ENV=(FOO=bar SECRET=s3cret EMPTY=)
	run_as "$who" run -c "$CONF" f -- "${ARGS[@]}"
	EXTRA_ENV=()
	exec 7<&-
	local t="fidelity ($backend)"
	expect "$t: run exits 0" test "$RC" = 0
	local got_args want_args
	got_args=$(printf '%s\n' "$OUT" | sed -n 's/^arg //p' | tr '\n' ' ')
	want_args="$(hex 'c$HOME') $(hex '') "
	for a in "${ARGS[@]}"; do want_args+="$(hex "$a") "; done
	expect "$t: argv byte for byte (\$, empty, newline, quotes, globs, 0xff)" test "$got_args" = "$want_args"
	expect "$t: cwd is exactly the hostile work_dir" test "$(printf '%s\n' "$OUT" | sed -n 's/^cwd //p')" = "$(hex "$HOSTILE")"
	expect "$t: runs as the target" has "$OUT" "uid $(id -u t1) $(id -u t1)"
	expect "$t: none of the supervisor's groups" test "$(printf '%s\n' "$OUT" | sed -n 's/^groups //p')" = "$(id -g t1)"
	expect "$t: no descriptor beyond 0 1 2 (3 is the probe's own listing)" has "$OUT" "fds 0 1 2 3"
	expect "$t: allowlisted FOO crosses exactly" has "$OUT" "env FOO $(hex bar)"
	expect "$t: an allowlisted empty value crosses" has "$OUT" "env EMPTY "$'\n'
	expect "$t: SECRET (not allowlisted) does not cross" hasnt "$OUT" "env SECRET"
	expect "$t: HOME is the target's" has "$OUT" "env HOME $(hex /home/t1)"
	expect "$t: USER and LOGNAME are the target's" has "$OUT" "env LOGNAME $(hex t1)"
	expect "$t: SHELL is the target's" has "$OUT" "env SHELL $(hex /bin/bash)"
	expect "$t: PWD is the work_dir" has "$OUT" "env PWD $(hex "$HOSTILE")"
	expect "$t: LD_LIBRARY_PATH of the supervisor does not cross" hasnt "$OUT" "env LD_LIBRARY_PATH"
	EXTRA_ENV=("WEIRD=$WEIRD")
	run_as "$who" run -c "$CONF" f
	EXTRA_ENV=()
	expect "$t: an allowlisted value with newline, quotes and \$ crosses byte for byte" has "$OUT" "env WEIRD $(hex "$WEIRD")"
}
fidelity sudo sup
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
fidelity pam root

# ------------------------------------------------------------------ pam groups
# util-linux su's order: initgroups, then pam_setcred, so that the groups
# pam_group grants survive (a setcred before initgroups lost them).
sandbox_group pamgrant
sandbox_group filegrp
usermod -aG filegrp t1
cp /etc/pam.d/ruas "$SB/pam-ruas.saved"
{ echo 'auth optional pam_group.so'; cat "$SB/pam-ruas.saved"; } >/etc/pam.d/ruas
cp /etc/security/group.conf "$SB/group.conf.saved"
echo 'ruas;*;t1;Al0000-2400;pamgrant' >>/etc/security/group.conf
conf pamgroups <<EOC
backend = "pam";
session_helper = $(cfgstr "$SESSION");
projects = ( { name = "g"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["id", "-Gn"]; } );
EOC
run_as root run -c "$CONF" g
expect "pam backend: a group that pam_group grants in pam_setcred reaches the agent" has " $OUT " " pamgrant "
expect "... and so do its groups from /etc/group" has " $OUT " " filegrp "
expect "... and nothing of root's" hasnt " $OUT " " root "
cp "$SB/pam-ruas.saved" /etc/pam.d/ruas
cp "$SB/group.conf.saved" /etc/security/group.conf
gpasswd -d t1 filegrp >/dev/null

# ------------------------------------------------------------------ the pam service file
# PAM runs /etc/pam.d/other for a service it cannot find, without a word. A
# missing /etc/pam.d/ruas, a pam_service that names no file, and a "ruas"
# that is not ruas's own are refused by ruas check and by the spawn itself
# (ptyspawn: ruas_spawn() without the checks), before PAM runs anything:
# "other" is made to leave a mark when PAM runs it, and must leave none.
consumer_flags
consumer_build ptyspawn "$abs_top_srcdir/tests/consumer/ptyspawn.c"
expect "pam service: ptyspawn (ruas_spawn() alone) builds" test "$RC" = 0
cp /etc/pam.d/other "$SB/pam-other.saved"
for stack in auth account session; do
	printf '%s optional pam_exec.so /usr/bin/touch %s\n' "$stack" "$SB/other-ran"
done >>/etc/pam.d/other
pam_service_case() { # NAME WANT [pam_service]: ruas check and ruas_spawn both refuse, naming WANT
	local name=$1 want=$2 svc=""
	[ -n "${3:-}" ] && svc="pam_service = \"$3\";"
	conf pamsvc <<EOC
backend = "pam";
session_helper = $(cfgstr "$SESSION");
$svc
projects = ( { name = "p"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
	rm -f "$SB/other-ran"
	run_as root check -c "$CONF"
	expect "pam service, $name: ruas check fails (exit 1)" test "$RC" = 1
	expect "pam service, $name: ... naming the file and what PAM would do" has "$OUT$ERR" "$want"
	OUT=$(as_user root env LD_LIBRARY_PATH="$LIBDIR" "$SB/bin/ptyspawn" -c "$CONF" p 2>&1 </dev/null)
	RC=$? ERR=""
	expect "pam service, $name: ruas_spawn() refuses (RUAS_ERR_CONFIG), nothing starts" \
		has "$OUT" "ptyspawn: error -1: project \"p\": refusing to start user \"t1\" through PAM"
	expect "pam service, $name: ... naming the file" has "$OUT" "$want"
	expect "pam service, $name: PAM never ran /etc/pam.d/other" test ! -e "$SB/other-ran"
}
mv /etc/pam.d/ruas "$SB/pam-ruas.moved"
pam_service_case "ruas's file missing" "/etc/pam.d/ruas does not exist, so PAM would run /etc/pam.d/other in its place"
echo '@include other' >/etc/pam.d/ruas
pam_service_case "a ruas that is not ruas's" "/etc/pam.d/ruas is not the PAM service that ruas installed"
mv "$SB/pam-ruas.moved" /etc/pam.d/ruas
pam_service_case "pam_service names no file" "/etc/pam.d/nosuch does not exist, so PAM would run /etc/pam.d/other in its place" nosuch
# The control: ruas's own file back, the same project runs, and "other" stays unused.
conf pamsvc <<EOC
backend = "pam";
session_helper = $(cfgstr "$SESSION");
projects = ( { name = "p"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
rm -f "$SB/other-ran"
run_as root run -c "$CONF" p
expect "pam service: with ruas's own file the project runs (exit 0)" test "$RC" = 0
expect "pam service: ... and PAM did not run /etc/pam.d/other" test ! -e "$SB/other-ran"
cp "$SB/pam-other.saved" /etc/pam.d/other

# ------------------------------------------------------------------ exit statuses
conf status <<EOC
projects = ( { name = "seven"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["sh", "-c", "exit 7"]; },
             { name = "term"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["sh", "-c", "kill -TERM \$\$"]; },
             { name = "kill"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["sh", "-c", "kill -KILL \$\$"]; },
             { name = "missing"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["no-such-command-xyz"]; },
             { name = "sleeper"; run_as_user = "t1"; work_dir = "$SB/w1"; command = ["sleep", "60"]; } );
EOC
run_sup run -c "$CONF" seven
expect "exit status: 7 passes through" test "$RC" = 7
run_sup run -c "$CONF" term
expect "exit status: killed by SIGTERM gives 143" test "$RC" = 143
run_sup run -c "$CONF" kill
expect "exit status: killed by SIGKILL gives 137" test "$RC" = 137
run_sup run -c "$CONF" missing
expect "exit status: command not found gives 127" test "$RC" = 127
expect "command not found names the command" has "$ERR" 'ruas-exec: cannot run "no-such-command-xyz"'

as_user_bg sup "$RUAS" run -c "$CONF" sleeper >/dev/null 2>&1 </dev/null
rpid=$BGPID
for _ in $(seq 50); do pgrep -u t1 -x sleep >/dev/null && break; sleep 0.1; done
kill -TERM "$rpid"
wait "$rpid"
RC=$? OUT="" ERR=""
expect "SIGTERM to ruas run reaches the agent, ruas exits 143" test "$RC" = 143
sleep 0.3
left=$(pgrep -a -u t1)
expect "no process of the target is left" test -z "$left"
[ -z "$left" ] || echo "# left: $left"

# ------------------------------------------------------------------ quiet
# quiet BACKEND SUPERVISOR: with -q, a supervisor that reads ruas run's
# stdout and stderr as the agent's reads exactly the agent's bytes. The
# work_dir holds a file the target cannot read, so the checks warn.
quiet() {
	local backend=$1 who=$2 t="quiet ($1)"
	local agent="printf 'agent out\\n'; printf 'agent err: \$x\\n' >&2"
	mkdir -p "$SB/wq"
	echo x >"$SB/wq/locked"
	chmod 600 "$SB/wq/locked"
	chown t1:t1 "$SB/wq"
	printf 'agent out\n' >"$SB/want-out"
	printf 'agent err: $x\n' >"$SB/want-err"
	conf "quiet-$backend" <<EOC
backend = "$backend";
session_helper = $(cfgstr "$SESSION");
projects = ( { name = "q"; run_as_user = "t1"; work_dir = "$SB/wq"; command = ["sh", "-c", $(cfgstr "$agent")]; } );
EOC
	local summary="ruas: 1 project(s) in $CONF: 0 error(s), 1 warning(s)"
	run_as "$who" run -c "$CONF" q
	expect "$t: without -q, a warning exits 0" test "$RC" = 0
	expect "$t: without -q, the warning is shown" has "$ERR" "WARNING: project \"q\" work_dir \"$SB/wq\""
	expect "$t: without -q, the summary line comes before the agent's stderr" \
		has "$ERR" "$summary"$'\n''agent err: $x'
	expect "$t: without -q, stdout is the agent's, byte for byte" cmp -s "$SB/out" "$SB/want-out"
	for q in -q --quiet; do
		run_as "$who" run "$q" -c "$CONF" q
		expect "$t: run $q exits 0" test "$RC" = 0
		expect "$t: run $q: stderr is the agent's, byte for byte" cmp -s "$SB/err" "$SB/want-err"
		expect "$t: run $q: stdout is the agent's, byte for byte" cmp -s "$SB/out" "$SB/want-out"
	done
	run_as "$who" run -c "$CONF" -q q
	expect "$t: -q after -c works too" cmp -s "$SB/err" "$SB/want-err"
}
quiet sudo sup
quiet pam root

# A fatal finding is printed with -q, and run exits as without it.
conf quiet-fatal <<EOC
projects = ( { name = "q"; run_as_user = "t1"; work_dir = "$SB/wq"; command = ["touch", "$SB/wq/spawned"]; },
             { name = "bad"; run_as_user = "t2"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup run -c "$CONF" q
RC_LOUD=$RC
run_sup run -q -c "$CONF" q
expect "quiet: run -q with a fatal finding exits 1, as without -q" test "$RC" = 1 -a "$RC_LOUD" = 1
expect "quiet: ... spawns nothing" test ! -e "$SB/wq/spawned"
expect "quiet: ... prints the fatal finding" has "$ERR" 'ERROR: project "bad" requires passwordless sudo to user "t2"'
expect "quiet: ... and says it does not start" has "$ERR" 'ruas: not starting "q": fix the errors above first'
expect "quiet: ... but neither the warning" hasnt "$ERR" "WARNING"
expect "quiet: ... nor the summary" hasnt "$ERR" "project(s) in"
expect "quiet: ... and nothing on stdout" test ! -s "$SB/out"

# check -q: nothing on success; on failure the fatal findings.
run_sup check -q -c "$SB/conf/quiet-sudo.conf"
expect "quiet: check -q with only warnings exits 0" test "$RC" = 0
expect "quiet: ... and prints nothing" test ! -s "$SB/err" -a ! -s "$SB/out"
run_sup check --quiet -c "$SB/conf/quiet-fatal.conf"
expect "quiet: check --quiet with a fatal finding exits 1" test "$RC" = 1
expect "quiet: ... prints it" has "$ERR" 'ERROR: project "bad" requires passwordless sudo to user "t2"'
expect "quiet: ... but neither the warning nor the summary" test -z "$(grep -e WARNING -e 'project(s) in' "$SB/err")"
run_sup check -c "$SB/conf/quiet-fatal.conf"
expect "quiet: check without -q still shows the warning and the summary" \
	has "$ERR" "ruas: 2 project(s) in $SB/conf/quiet-fatal.conf: 1 error(s), 1 warning(s)"
run_sup check -q --json -c "$SB/conf/quiet-sudo.conf"
expect "quiet: check -q --json still prints the JSON document, stderr empty" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); exit(($j->{ok} && @{$j->{projects}[0]{warnings}} == 1 && -z $ARGV[0]) ? 0 : 1)' "$SB/err" <"$SB/out"
run_sup audit -q -c "$SB/conf/quiet-sudo.conf"
expect "quiet: audit takes no -q (usage error)" test "$RC" = 2

# ------------------------------------------------------------------ legacy
mkdir -p "$SB/legacy"
chown sup "$SB/legacy"
conf legacy <<EOC
projects = ( { name = "l"; work_dir = "$SB/legacy"; command = ["perl", "$PROBE", "\$HOME", ""]; } );
EOC
EXTRA_ENV=(FOO=bar)
run_sup run -c "$CONF" l -- 'x y'
EXTRA_ENV=()
expect "legacy: exits 0" test "$RC" = 0
expect "legacy: runs as the supervisor" has "$OUT" "uid $(id -u sup) $(id -u sup)"
expect "legacy: with the supervisor's environment" has "$OUT" "env FOO $(hex bar)"
expect "legacy: in work_dir" has "$OUT" "cwd $(hex "$SB/legacy")"
expect "legacy: argv exact" test "$(printf '%s\n' "$OUT" | sed -n 's/^arg //p' | tr '\n' ' ')" = "$(hex '$HOME') $(hex '') $(hex 'x y') "
run_sup check -c "$CONF"
expect "legacy: check runs no sudo and passes" test "$RC" = 0

# ------------------------------------------------------------------ usage and config errors
run_sup check -c "$SB/conf/nonexistent.conf"
expect "config: a missing file exits 2" test "$RC" = 2
conf typo <<EOC
projects = ( { name = "p"; run_as_usr = "t1"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "config: an unknown key exits 2" test "$RC" = 2
expect "config: ... naming file, line and key" has "$ERR" "$CONF:2: project \"p\": unknown key \"run_as_usr\""
conf selfsup <<EOC
projects = ( { name = "p"; run_as_user = "sup"; work_dir = "$SB/w1"; command = ["true"]; } );
EOC
run_sup check -c "$CONF"
expect "config: run_as_user = the supervisor exits 2" test "$RC" = 2
chmod 666 "$SB/conf/good.conf"
run_sup check -c "$SB/conf/good.conf"
expect "config: a world-writable file is refused" test "$RC" = 2
chmod 644 "$SB/conf/good.conf"
run_sup frobnicate
expect "usage: an unknown verb exits 2" test "$RC" = 2
run_sup run -c "$SB/conf/good.conf" good extra
expect "usage: arguments without -- exit 2" test "$RC" = 2
run_sup run -c "$SB/conf/good.conf" nosuchproject
expect "usage: an unknown project exits 2" test "$RC" = 2

# Every configuration of the suite, checked once more as JSON: each item has
# ruas(1)'s keys and every error a fix (those that do not load are skipped).
bad=
for f in "$SB"/conf/*.conf; do
	chmod 644 "$f"
	run_sup check -c "$f" --json
	[ "$RC" -le 1 ] || continue
	perl "$abs_top_srcdir/tests/integration/json_items.pl" <"$SB/out" >"$SB/why" || bad="$bad ${f##*/}: $(cat "$SB/why")"
done
expect "check --json: every finding of the suite's configurations has its keys, and every error a fix" test -z "$bad"
[ -z "$bad" ] || echo "# $bad"

tap_finish
