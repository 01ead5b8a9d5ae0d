#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for issue 29, credentials on demand (docs/credentials.md):
# the supervisor keeps the values, an agent asks for one with
# ruas-credential while its run lives, and only a process of that run gets
# it; each request is an audit record, without the value. Real sudo, real
# PAM, real users, inside the sandbox (sandbox.sh); needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/credentials.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=57600
sandbox_setup
sandbox_guard
sandbox_proc_hidepid
sandbox_devlog
GITSRV=""
cleanup() { kill "$LISTENER" ${GITSRV:+"$GITSRV"} 2>/dev/null; }
trap cleanup EXIT
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"

CRED="$SB/dest$RUAS_BINDIR/ruas-credential"
LOG=/var/log/ruas-audit/audit.jsonl
sandbox_user sup
sandbox_user other
for u in c1 c2; do sandbox_user "$u"; done
sandbox_sudoers ruas-sup 'sup ALL=(c1) NOPASSWD: ALL' 'Defaults:c1 listpw=never' \
	'sup ALL=(c2) NOPASSWD: ALL' 'Defaults:c2 listpw=never'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
chmod 755 /var/log
mkdir -p /var/log/ruas-audit && chown sup /var/log/ruas-audit && chmod 700 /var/log/ruas-audit
touch "$LOG" && chown sup "$LOG" && chmod 600 "$LOG"
mkdir -p "$SB/w" "$SB/ev" "$SB/sup"
chmod 755 "$SB/w"
chmod 1777 "$SB/ev"
chown sup "$SB/sup" && chmod 700 "$SB/sup"

# The values: distinct, long, never to be found where they must not be.
V_ENV="sk-env-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
V_FILE="file-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
V_CMD="cmd-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
printf '%s\n' "$V_FILE" >"$SB/sup/deploy"
chown sup "$SB/sup/deploy" && chmod 600 "$SB/sup/deploy"
# from_command: prints V_CMD and a count of its runs, so that ttl shows;
# and one that fails, with a line on stderr.
cat >"$SB/sup/token" <<EOF
#!/bin/sh
n=\$(cat "$SB/sup/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$SB/sup/count"
echo "$V_CMD-\$n"
EOF
printf '#!/bin/sh\necho "boom: the vault is sealed" >&2\nexit 3\n' >"$SB/sup/broken"
chown sup "$SB/sup/token" "$SB/sup/broken" && chmod 700 "$SB/sup/token" "$SB/sup/broken"
EXTRA_ENV=()
# The supervisor's environment holds ANTHROPIC_API_KEY; nobody else's does.
sup_env() { EXTRA_ENV=(ANTHROPIC_API_KEY="$V_ENV"); "$@"; EXTRA_ENV=(); }

# conf NAME [PROJECT KEYS] [GLOBAL LINES] [RUN_AS_USER]: a project "p" whose command is the agent script $SB/agent.
conf() {
	CONF="$SB/conf/$1.conf"
	mkdir -p "$SB/conf"
	cat >"$CONF" <<EOF
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
audit_log = $(cfgstr "$LOG");
credentials = (
  { name = "anthropic"; from_env = "ANTHROPIC_API_KEY"; },
  { name = "github"; from_command = [$(cfgstr "$SB/sup/token")]; ttl = 300; },
  { name = "deploy"; from_file = $(cfgstr "$SB/sup/deploy"); }
);
${3:-}
projects = ( { name = "p"; run_as_user = "${4:-c1}"; work_dir = $(cfgstr "$SB/w"); command = ["/bin/sh", $(cfgstr "$SB/agent")]; ${2:-} } );
EOF
	chmod 644 "$CONF"
}
# agent SCRIPT: what the agent runs (sh), readable by the targets.
agent() {
	printf '%s\n' "$1" >"$SB/agent"
	chmod 644 "$SB/agent"
}
# wait_for FILE: until it exists (an event the agent makes), 60 s at most.
wait_for() {
	for _ in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.1; done
	return 1
}
records() { # the credential records of the audit log, one JSON object a line
	grep '"event":"credential"' "$LOG" || true
}

# ------------------------------------------------------------------ each kind, sudo backend
conf basic
agent "C=$(cfgstr "$CRED")"'
for n in anthropic github deploy github; do "$C" "$n" || echo "FAILED $n"; done
env'
: >"$LOG"
sup_env run_sup run -c "$CONF" p
expect "sudo backend: the run exits 0" test "$RC" = 0
expect "... from_env: the agent gets the supervisor's variable" has "$OUT" "$V_ENV"
expect "... from_command: its stdout" has "$OUT" "$V_CMD-1"
expect "... from_file: the file's line" has "$OUT" "$V_FILE"
expect "... ttl = 300: the second request gets the kept value, the command ran once" \
	test "$(grep -c "^$V_CMD-1\$" <<<"$OUT")" = 2 -a "$(cat "$SB/sup/count")" = 1
expect "... no request failed" hasnt "$OUT" "FAILED"
expect "... the agent's environment names the socket" grep -q '^RUAS_CREDENTIALS=@ruas-credentials-[0-9a-f]\{32\}$' <<<"$OUT"
ENVDUMP=$(grep -v -e "^$V_ENV\$" -e "^$V_FILE\$" -e "^$V_CMD-" <<<"$OUT")
expect "... and holds no value (not ANTHROPIC_API_KEY, not any other)" \
	hasnt "$ENVDUMP" "$V_ENV"
expect "... nor the others" test -z "$(grep -e "$V_FILE" -e "$V_CMD" <<<"$ENVDUMP")"
expect "... ANTHROPIC_API_KEY is not in its environment at all" hasnt "$ENVDUMP" "ANTHROPIC_API_KEY"
R=$(records)
expect "... four credential records, each granted" test "$(grep -c '"result":"granted"' <<<"$R")" = 4
expect "... naming the run, project, target and name" perl -MJSON::PP -e '
	my @r = map { decode_json($_) } grep { /\S/ } <STDIN>;
	exit((@r == 4 && !grep { $_->{run} !~ /^[0-9a-f]{32}$/ || $_->{project} ne "p" || $_->{target} ne "c1" || $_->{pid} !~ /^\d+$/ } @r) &&
	     join(",", map { $_->{name} } @r) eq "anthropic,github,deploy,github" ? 0 : 1)' <<<"$R"
expect "... the records hold no value" test -z "$(grep -e "$V_ENV" -e "$V_FILE" -e "$V_CMD" "$LOG")"

# ttl = 0: the command runs at each request.
rm -f "$SB/sup/count"
conf nottl '' '' c1
sed -i 's/ttl = 300;/ttl = 0;/' "$CONF"
agent "C=$(cfgstr "$CRED"); \"\$C\" github; \"\$C\" github"
sup_env run_sup run -c "$CONF" p
expect "ttl = 0: each request runs the command again" test "$(printf '%s\n' "$OUT" | tr '\n' ' ')" = "$V_CMD-1 $V_CMD-2 "
# ttl = 1: a value older than that is fetched anew (the agent asks until it changes).
rm -f "$SB/sup/count"
sed -i 's/ttl = 0;/ttl = 1;/' "$CONF"
agent "C=$(cfgstr "$CRED"); a=\$(\"\$C\" github); echo \"\$a\"; i=0
while [ \$i -lt 600 ]; do b=\$(\"\$C\" github); [ \"\$b\" != \"\$a\" ] && break; i=\$((i + 1)); sleep 0.05; done; echo \"\$b\""
sup_env run_sup run -c "$CONF" p
expect "ttl = 1: the kept value expires and the command runs again" test "$(printf '%s\n' "$OUT" | tr '\n' ' ')" = "$V_CMD-1 $V_CMD-2 "

# ------------------------------------------------------------------ refusals, told and recorded
conf basic
sed -i "s|ttl = 300; }|ttl = 300; },\n  { name = \"broken\"; from_command = [$(cfgstr "$SB/sup/broken")]; },\n  { name = \"loose\"; from_file = $(cfgstr "$SB/sup/loose"); }|" "$CONF"
printf 'loose\n' >"$SB/sup/loose"
chown sup "$SB/sup/loose" && chmod 640 "$SB/sup/loose"
agent "C=$(cfgstr "$CRED")"'
"$C" nosuch; echo "rc=$?"; "$C" broken; echo "rc=$?"; "$C" loose; echo "rc=$?"; "$C" "Bad Name"; echo "rc=$?"'
: >"$LOG"
sup_env run_sup run -c "$CONF" p
expect "an unknown name: exit 1, said to the requester" has "$ERR" 'ruas-credential: nosuch: unknown credential "nosuch": project "p" has none by that name'
expect "a source that fails: exit 1, said without its detail" has "$ERR" 'ruas-credential: broken: credential "broken" could not be had: its source failed (the supervisor'"'"'s audit record says why)'
expect "... the command's stderr does not reach the agent" hasnt "$ERR" "vault is sealed"
expect "a from_file that others may read is refused" has "$ERR" 'ruas-credential: loose: credential "loose" could not be had'
expect "a name that is no name: exit 2 before asking" has "$ERR" '"Bad Name" is not a credential name'
expect "... exit statuses 1, 1, 1, 2" test "$(grep -c '^rc=1$' <<<"$OUT"),$(grep -c '^rc=2$' <<<"$OUT")" = "3,1"
R=$(records)
expect "the records: unknown, failed (exit status and stderr's first line), loose file" perl -MJSON::PP -e '
	my @r = map { decode_json($_) } grep { /\S/ } <STDIN>;
	my %by = map { ($_->{name} // "-") => $_ } @r;
	exit((@r == 3 && $by{nosuch}{result} eq "refused" && $by{nosuch}{reason} eq "no credential by that name" &&
	      $by{broken}{reason} =~ /from_command exited with status 3; its stderr: "boom: the vault is sealed"/ &&
	      $by{loose}{reason} =~ /may be read or written by others than its owner \(mode 0640\); fix: chmod 600/) ? 0 : 1)' <<<"$R"
for a in "$R"; do echo "# $a" | head -c 2000; echo; done

# ------------------------------------------------------------------ outside the run
# The agent names its socket and waits; meanwhile the same target outside
# the run, another run of the same target, and another user try it.
conf basic
agent "C=$(cfgstr "$CRED")"'
printf "%s\n" "$RUAS_CREDENTIALS" >'"$SB/ev"'/addr.tmp; mv '"$SB/ev"'/addr.tmp '"$SB/ev"'/addr
i=0; while [ ! -e '"$SB/ev"'/done ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
v=$("$C" anthropic) && echo "AFTER:$v" || echo "AFTER:FAILED"'
rm -f "$SB/ev/addr" "$SB/ev/done"
: >"$LOG"
sup_env as_user_bg sup "$RUAS" run -c "$CONF" p >"$SB/bg.out" 2>"$SB/bg.err" </dev/null
RUN1=$BGPID
wait_for "$SB/ev/addr"
ADDR=$(cat "$SB/ev/addr")
echo "# the run's socket: $ADDR"
as_user c1 env RUAS_CREDENTIALS="$ADDR" "$CRED" anthropic >"$SB/o1" 2>"$SB/e1"
RC=$?
expect "a process of the target outside the run: refused (exit 1)" test "$RC" = 1
expect "... told so" has "$(cat "$SB/e1")" "refused: this process is not one of the run's (it is outside the run's PID namespace)"
expect "... and given nothing" test ! -s "$SB/o1"
as_user other env RUAS_CREDENTIALS="$ADDR" "$CRED" anthropic >"$SB/o2" 2>"$SB/e2"
RC=$?
expect "another local user: refused (exit 1)" test "$RC" = 1 -a ! -s "$SB/o2"
# Another run of the same target, with this run's address.
cat >"$SB/agent2" <<EOF
RUAS_CREDENTIALS="$ADDR" $(cfgstr "$CRED") anthropic; echo "rc=\$?"
EOF
chmod 644 "$SB/agent2"
sed "s|$(cfgstr "$SB/agent")|$(cfgstr "$SB/agent2")|" "$CONF" >"$SB/conf/second.conf"
chmod 644 "$SB/conf/second.conf"
sup_env run_sup run -c "$SB/conf/second.conf" p
expect "another run of the same target, with the first one's socket: refused" has "$OUT" "rc=1"
expect "... told so" has "$ERR" "refused: this process is not one of the run's"
expect "... given nothing" hasnt "$OUT" "$V_ENV"
# What every other process could see while the run lived: as root (who
# sees what any user could and more), no value in any command line or
# environment but the supervisor's own, nor in /tmp, the target's home, the logs.
LEAK=""
for p in /proc/[0-9]*; do
	pid=${p#/proc/}
	[ "$(stat -c %U "$p" 2>/dev/null)" = sup ] && continue
	if tr '\0' '\n' <"$p/cmdline" 2>/dev/null | grep -q -e "$V_ENV" -e "$V_FILE" -e "$V_CMD"; then LEAK="$LEAK cmdline:$pid"; fi
	if tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -q -e "$V_ENV" -e "$V_FILE" -e "$V_CMD"; then LEAK="$LEAK environ:$pid"; fi
done
expect "while the run lives: no process but the supervisor's holds a value in its argv or environment" test -z "$LEAK"
# Another user floods the socket (400 connections that say nothing) and
# then tries to take its name: the init refuses each at once, itself,
# keeps its listener, and the run's own request still gets its answer.
# (A copy the other user can read: the checkout may be in a 0700 directory.)
install -m 644 "$abs_top_srcdir/tests/integration/cred_flood.py" "$SB/cred_flood.py"
as_user other timeout -k 5 120 python3 "$SB/cred_flood.py" "$ADDR" >"$SB/flood.out" 2>&1
sed 's/^/# flood: /' "$SB/flood.out"
expect "another user's 400 silent connections are each refused at once" grep -qx REFUSED "$SB/flood.out"
expect "... and it cannot take the socket's name while the run lives" grep -qx "BIND EADDRINUSE" "$SB/flood.out"
touch "$SB/ev/done"
returns_within 60 "$RUN1"
expect "the run ends" test "$RC" = 0
expect "... and after the flood, the run's own request was still answered" grep -qx "AFTER:$V_ENV" "$SB/bg.out"
as_user c1 env RUAS_CREDENTIALS="$ADDR" "$CRED" anthropic >"$SB/o3" 2>"$SB/e3"
RC=$?
expect "after the run: its socket is gone (exit 1, cannot reach)" test "$RC" = 1
expect "... said so" has "$(cat "$SB/e3")" "cannot reach the run's credentials"
expect "... and /proc/net/unix has no such name" test -z "$(grep -F "${ADDR#@}" /proc/net/unix)"
expect "nothing under /tmp, /var/tmp or the targets' homes holds a value" \
	test -z "$(grep -rl -e "$V_ENV" -e "$V_FILE" -e "$V_CMD" /tmp /home 2>/dev/null)"
expect "... nor the audit log" test -z "$(grep -e "$V_ENV" -e "$V_FILE" -e "$V_CMD" "$LOG")"
expect "... nor syslog" test -z "$(grep -e "$V_ENV" -e "$V_FILE" -e "$V_CMD" "$CAP")"
R=$(records)
expect "the outsider, the other user and the other run are recorded as refused" \
	test "$(grep -c '"result":"refused"' <<<"$R")" -ge 3
expect "... the outsider's with why" has "$R" '"reason":"the requester is outside the run (not in its PID namespace)"'
expect "... the other user's with why" has "$R" "is not the run's user c1"
expect "... the flood is not a record per connection: a few, then one that counts the rest" \
	test "$(grep -c '"result":"refused"' <<<"$R")" -le 40
expect "... the count" grep -q 'more requests from outside the run were refused and not recorded one by one' <<<"$R"
expect "credential records go to syslog too" grep -q 'credential run=[0-9a-f]\{32\} project=p person=- target=c1 name=anthropic result=granted' "$CAP"

# ------------------------------------------------------------------ the pam backend
# A root supervisor's audit log is in a directory of root's.
mkdir -p /var/log/ruas-root && chmod 700 /var/log/ruas-root
LOG=/var/log/ruas-root/audit.jsonl
install -m 600 /dev/null "$LOG"
conf pam 'backend = "pam";'
agent "C=$(cfgstr "$CRED")"'
"$C" anthropic; "$C" deploy; "$C" github
printf "%s\n" "$RUAS_CREDENTIALS" >'"$SB/ev"'/addr.tmp; mv '"$SB/ev"'/addr.tmp '"$SB/ev"'/addr
i=0; while [ ! -e '"$SB/ev"'/done ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done'
chown root "$SB/sup/deploy"
rm -f "$SB/ev/addr" "$SB/ev/done"
: >"$LOG"
( exec env -i PATH=/usr/bin:/bin ANTHROPIC_API_KEY="$V_ENV" LD_LIBRARY_PATH="$LIBDIR" "$RUAS" run -c "$CONF" p >"$SB/bg.out" 2>"$SB/bg.err" </dev/null ) &
RUN2=$!
wait_for "$SB/ev/addr"
ADDR=$(cat "$SB/ev/addr")
as_user c1 env RUAS_CREDENTIALS="$ADDR" "$CRED" anthropic >"$SB/o1" 2>"$SB/e1"
RC=$?
expect "pam backend (root supervisor): a process of the target outside the run is refused" test "$RC" = 1 -a ! -s "$SB/o1"
printf 'RUAS_CREDENTIALS=%s %s anthropic; echo "rc=$?"\n' "$ADDR" "$(cfgstr "$CRED")" >"$SB/agent2"
sed "s|$(cfgstr "$SB/agent")|$(cfgstr "$SB/agent2")|" "$CONF" >"$SB/conf/second.conf"
chmod 644 "$SB/conf/second.conf"
env -i PATH=/usr/bin:/bin ANTHROPIC_API_KEY="$V_ENV" LD_LIBRARY_PATH="$LIBDIR" "$RUAS" run -c "$SB/conf/second.conf" p >"$SB/o2" 2>"$SB/e2" </dev/null
expect "... another run of the same target, with the first one's socket: refused" grep -qx "rc=1" "$SB/o2"
expect "... told so, given nothing" test -n "$(grep "refused: this process is not one of the run's" "$SB/e2")" -a -z "$(grep -e "$V_ENV" "$SB/o2")"
touch "$SB/ev/done"
returns_within 60 "$RUN2"
sed 's/^/# run: /' "$SB/bg.err"
expect "... the run exits 0" test "$RC" = 0
expect "... and its agent got from_env's value" has "$(cat "$SB/bg.out")" "$V_ENV"
expect "... and from_file's (owned by root, the supervisor)" has "$(cat "$SB/bg.out")" "$V_FILE"
expect "... and from_command's" has "$(cat "$SB/bg.out")" "$V_CMD-"
expect "... after the run its socket is gone" test -z "$(grep -F "${ADDR#@}" /proc/net/unix)"
R=$(records)
expect "... the records: three granted, the outsider and the other run refused" test "$(grep -c '"result":"granted"' <<<"$R"),$(grep -c '"result":"refused"' <<<"$R")" = "3,2"
LOG=/var/log/ruas-audit/audit.jsonl

# ------------------------------------------------------------------ no PID namespace, no credentials
conf sub 'lifetime = "subreaper";'
agent 'echo ran'
sup_env run_sup run -c "$CONF" p
expect "lifetime = \"subreaper\" with credentials: the agent does not start" hasnt "$OUT" "ran"
expect "... a failed start (exit 125), saying why" test "$RC" = 125
expect "... naming what credentials need" has "$ERR" "they need the run's PID namespace (lifetime = \"pidns\")"

# ------------------------------------------------------------------ configuration
badconf() { # GLOBAL-CREDENTIALS-LINE: ruas check's verdict
	cat >"$SB/conf/bad.conf" <<EOF
helper = $(cfgstr "$HELPER");
$1
projects = ( { name = "p"; run_as_user = "c1"; work_dir = $(cfgstr "$SB/w"); command = ["true"]; } );
EOF
	chmod 644 "$SB/conf/bad.conf"
	run_sup check -c "$SB/conf/bad.conf"
}
badconf 'credentials = ( { name = "x"; from_env = "A"; from_file = "/f"; } );'
expect "two sources: a configuration error (exit 2)" test "$RC" = 2
expect "... saying so" has "$ERR" 'credentials: "x" needs exactly one of from_env, from_command and from_file'
badconf 'credentials = ( { name = "x"; } );'
expect "no source: refused" has "$ERR" 'needs exactly one of'
badconf 'credentials = ( { name = "x"; from_env = "A"; ttl = 5; } );'
expect "ttl without a command: refused" has "$ERR" 'ttl is only for a from_command credential'
badconf 'credentials = ( { name = "x"; from_command = ["t"]; ttl = -1; } );'
expect "a negative ttl: refused" has "$ERR" 'ttl must be 0 to 86400 seconds'
badconf 'credentials = ( { name = "A b"; from_env = "A"; } );'
expect "a name that is no name: refused, quoted" has "$ERR" 'credentials: name "A b" is invalid'
badconf 'credentials = ( { name = "x"; from_env = "A"; }, { name = "x"; from_env = "B"; } );'
expect "a name given twice: refused" has "$ERR" '"x" is given twice'
badconf 'credentials = ( { name = "x"; from_file = "rel/path"; } );'
expect "a relative from_file: refused" has "$ERR" 'from_file "rel/path" must be an absolute path'
badconf 'credentials = ( { name = "x"; from_env = "A=B"; } );'
expect "a from_env that is no variable name: refused" has "$ERR" 'from_env "A=B" is not a variable name'
badconf 'credentials = ( { name = "x"; from_command = []; } );'
expect "an empty from_command: refused" has "$ERR" 'from_command must not be empty'
badconf 'credentials = ( { name = "x"; from_env = "A"; secret = "v"; } );'
expect "an unknown key: refused" has "$ERR" 'unknown key "secret" in a credential'
badconf 'credentials = ( { name = "x"; from_env = "A"; } );'
expect "a good one: no error" test "$RC" != 2
cat >"$SB/conf/bad.conf" <<EOF
projects = ( { name = "p"; work_dir = $(cfgstr "$SB/w"); command = ["true"];
  credentials = ( { name = "x"; from_env = "A"; } ); } );
EOF
run_sup check -c "$SB/conf/bad.conf"
expect "a project's own credentials without run_as_user: refused" has "$ERR" 'credentials need run_as_user'

# ------------------------------------------------------------------ git, through git-credential-ruas
# A repository behind basic authentication (git http-backend); git_hosts
# maps the server to the credential "gitpw" and the user "agent". The
# target's own ~/.gitconfig names a store helper with a stale password: the
# run's git asks ruas's helper for that host, not the store.
# git runs "git credential-ruas" through the target's PATH: the staged
# helper is put on it (in this namespace only).
mount -t tmpfs -o mode=755 tmpfs /usr/local/bin
ln -s "$SB/dest$RUAS_BINDIR/git-credential-ruas" /usr/local/bin/git-credential-ruas
V_GIT="gitpw-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
install -d -m 700 "$SB/git" "$SB/git/root"
printf '%s\n' "$V_GIT" >"$SB/git/password"
chmod 600 "$SB/git/password"
git init -q --bare "$SB/git/root/repo.git"
git -C "$SB/git" init -q work
printf 'hello from the server\n' >"$SB/git/work/README"
git -C "$SB/git/work" add README
git -C "$SB/git/work" -c user.name=t -c user.email=t@example.invalid commit -qm one
git -C "$SB/git/work" push -q "$SB/git/root/repo.git" HEAD:refs/heads/main
git -C "$SB/git/root/repo.git" symbolic-ref HEAD refs/heads/main
: >"$SB/git/log"
python3 "$abs_top_srcdir/tests/integration/git_http_server.py" "$SB/git/root" agent "$SB/git/password" "$SB/git/port" "$SB/git/log" 2>"$SB/git/server.err" &
GITSRV=$!
wait_for "$SB/git/port"
PORT=$(cat "$SB/git/port")
echo "# git server on 127.0.0.1:$PORT"
install -o sup -m 600 /dev/null "$SB/sup/gitpw"
printf '%s\n' "$V_GIT" >"$SB/sup/gitpw"
C1HOME=$(getent passwd c1 | cut -d: -f6)
printf '[credential]\n\thelper = store\n' >"$C1HOME/.gitconfig"
printf 'http://agent:stale@127.0.0.1:%s\n' "$PORT" >"$C1HOME/.git-credentials"
chown c1 "$C1HOME/.gitconfig" "$C1HOME/.git-credentials"
chmod 600 "$C1HOME/.git-credentials"
rm -rf "$SB/ev/clone"
LOG=/var/log/ruas-audit/audit.jsonl
conf git '' "git_hosts = ( { host = \"127.0.0.1:$PORT\"; credential = \"gitpw\"; username = \"agent\"; protocol = \"http\"; } );"
sed -i "s|ttl = 300; }|ttl = 300; },\n  { name = \"gitpw\"; from_file = $(cfgstr "$SB/sup/gitpw"); }|" "$CONF"
agent "export GIT_TERMINAL_PROMPT=0
git clone -q http://127.0.0.1:$PORT/repo.git $(cfgstr "$SB/ev/clone") && cat $(cfgstr "$SB/ev/clone/README")
env | grep '^GIT_CONFIG' | sort"
: >"$LOG"
sup_env run_sup run -c "$CONF" p
echo "# git server's log:"; sed 's/^/#   /' "$SB/git/log"
expect "git clone over HTTP with basic authentication: the run exits 0" test "$RC" = 0
expect "... the repository came" has "$OUT" "hello from the server"
expect "... the server saw the user and password that git-credential-ruas gave" grep -q '^200 agent$' "$SB/git/log"
expect "... and never the target's own stored password" hasnt "$(cat "$SB/git/log")" "403"
expect "... git was pointed at the helper by the run's variables" has "$OUT" "GIT_CONFIG_VALUE_1=ruas --username=agent gitpw"
expect "... after an empty helper that drops the target's own" has "$OUT" "GIT_CONFIG_VALUE_0="
expect "... for that host only" has "$OUT" "GIT_CONFIG_KEY_1=credential.http://127.0.0.1:$PORT.helper"
expect "... and no variable holds the password" hasnt "$OUT" "$V_GIT"
expect "... the audit record names the credential" has "$(records)" '"name":"gitpw","result":"granted"'
expect "... the password is nowhere in the targets' homes, /tmp or the logs" \
	test -z "$(grep -rl -e "$V_GIT" /tmp /home /var/log 2>/dev/null)"
expect "... the target's stored credentials are as they were" test "$(cat "$C1HOME/.git-credentials")" = "http://agent:stale@127.0.0.1:$PORT"
# The same host with no git_hosts entry: git gets no helper of ruas's, and
# the target's stale one fails.
rm -rf "$SB/ev/clone"
conf nogit
agent "export GIT_TERMINAL_PROMPT=0
git clone -q http://127.0.0.1:$PORT/repo.git $(cfgstr "$SB/ev/clone") 2>&1; echo \"rc=\$?\"; env | grep -c '^GIT_CONFIG'"
: >"$SB/git/log"
sup_env run_sup run -c "$CONF" p
expect "without git_hosts: no GIT_CONFIG variables, and the clone fails on the stale password" has "$OUT" "rc=128"
expect "... the server refused it" grep -q '^403 agent$' "$SB/git/log"
kill "$GITSRV"
badconf 'git_hosts = ( { host = "a b"; credential = "x"; } );'
expect "git_hosts: a host that is no host name: refused" has "$ERR" 'git_hosts: host "a b" is not a host name'
badconf 'git_hosts = ( { host = "h"; credential = "x"; username = "u;id"; } );'
expect "git_hosts: a user name with shell syntax: refused" has "$ERR" 'git_hosts: username "u;id" is invalid'
badconf 'git_hosts = ( { host = "h"; credential = "x"; protocol = "ftp"; } );'
expect "git_hosts: a protocol other than http(s): refused" has "$ERR" 'must be "https" (the default) or "http"'
badconf 'git_hosts = ( { host = "h"; } );'
expect "git_hosts: no credential: refused" has "$ERR" 'git_hosts: each needs host and credential'

tap_finish
