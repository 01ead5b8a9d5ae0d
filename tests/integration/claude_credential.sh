#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration test for issue 29 with a real client: Claude Code, installed
# from the npm registry (@anthropic-ai/claude-code), run by ruas as a
# person's target with the settings ruas generates for that person
# (deny_settings_args), whose apiKeyHelper is "ruas-credential anthropic"
# (claude_api_key). ANTHROPIC_BASE_URL points it at a fake Anthropic API of
# this test (fake_anthropic.py, on 127.0.0.1): the server must receive the
# supervisor's credential as the request's API key, while the agent's
# environment holds no key; the request is a granted audit record. Real
# sudo, real PAM, real users, inside the sandbox (sandbox.sh); needs root,
# and the npm registry for the first run (the install is kept in
# $RUAS_CLAUDE_NPM_DIR, /var/cache/ruas-test-npm by default, and reused
# while it holds CLAUDE_VERSION). It installs node and npm with apt-get when
# they are missing, and fails (never skips) when it cannot.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/claude_credential.sh"

# The version this test was written against.
CLAUDE_VERSION=2.1.197
NPM_DIR=${RUAS_CLAUDE_NPM_DIR:-/var/cache/ruas-test-npm}
CLAUDE="$NPM_DIR/node_modules/.bin/claude"
CLAUDE_PKG="$NPM_DIR/node_modules/@anthropic-ai/claude-code"

claude_works() { # the installed claude answers --version with CLAUDE_VERSION
	local v
	v=$(timeout 60 "$CLAUDE" --version 2>/dev/null) && [[ "$v" == "$CLAUDE_VERSION "* ]]
}
# Installs Claude Code into NPM_DIR unless it is there already (outside the
# namespace: apt-get and npm write the host's /usr and /var/cache).
claude_install() {
	claude_works && return 0
	if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
		echo "# installing nodejs and npm with apt-get"
		DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm >"$NPM_DIR.apt.log" 2>&1 ||
			{ DEBIAN_FRONTEND=noninteractive apt-get update >>"$NPM_DIR.apt.log" 2>&1 &&
				DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm \
					>>"$NPM_DIR.apt.log" 2>&1; } ||
			{ cat "$NPM_DIR.apt.log" >&2; echo "ERROR: cannot install nodejs and npm" >&2; return 1; }
	fi
	echo "# installing @anthropic-ai/claude-code@$CLAUDE_VERSION into $NPM_DIR"
	local new="$NPM_DIR.new.$$"
	rm -rf "$new" && mkdir -p "$new" || return 1
	if ! timeout 600 npm install --prefix "$new" --no-audit --no-fund --loglevel=error \
		"@anthropic-ai/claude-code@$CLAUDE_VERSION" >"$new.log" 2>&1; then
		cat "$new.log" >&2
		rm -rf "$new" "$new.log"
		echo "ERROR: npm install @anthropic-ai/claude-code@$CLAUDE_VERSION failed" >&2
		return 1
	fi
	rm -f "$new.log"
	rm -rf "$NPM_DIR" && mv "$new" "$NPM_DIR" || return 1
	# An npm that did not run its postinstall leaves the launcher to set up.
	claude_works || (cd "$CLAUDE_PKG" && timeout 300 node install.cjs) >/dev/null 2>&1
	chmod -R a+rX "$NPM_DIR"
	claude_works || { echo "ERROR: $CLAUDE --version does not say $CLAUDE_VERSION" >&2; return 1; }
}
if [ "${RUAS_IN_SANDBOX:-}" != 1 ]; then
	mkdir -p "$(dirname "$NPM_DIR")" && claude_install || exit 99
fi

sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=57800
sandbox_setup
sandbox_guard
sandbox_proc_hidepid
sandbox_devlog
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"

LOG=/var/log/ruas-audit/audit.jsonl
API_LOG="$SB/api/requests.jsonl"
sandbox_user sup
sandbox_user cc
sandbox_sudoers ruas-sup 'sup ALL=(cc) NOPASSWD: ALL' 'Defaults:cc listpw=never'
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
chmod 755 /var/log
mkdir -p /var/log/ruas-audit && chown sup /var/log/ruas-audit && chmod 700 /var/log/ruas-audit
touch "$LOG" && chown sup "$LOG" && chmod 600 "$LOG"

# ruas-credential where an installed one is found through the target's
# login PATH: /usr/local/bin of this namespace is a tmpfs holding links to
# the host's entries and the staged ruas-credential.
mkdir -p "$SB/hostlocalbin"
mount --bind /usr/local/bin "$SB/hostlocalbin"
mount -t tmpfs -o mode=0755 tmpfs /usr/local/bin
for f in "$SB/hostlocalbin"/*; do
	[ -e "$f" ] && ln -s "$f" "/usr/local/bin/${f##*/}"
done
rm -f /usr/local/bin/ruas-credential
install -m 755 "$SB/dest$RUAS_BINDIR/ruas-credential" /usr/local/bin/ruas-credential

# The person's tree, as people.sh makes it.
slug() { printf '%s' "$1" | sed 's/[^A-Za-z0-9]/-/g'; }
WT="$SB/wt"
mkdir -p "$WT/alice/repo" "$SB/cred" "$SB/cp/$(slug "$WT/alice/repo")" "$SB/ev" "$SB/api"
chmod 755 "$WT"
chown -R cc "$WT/alice"
chmod 700 "$WT/alice" "$SB/cred"
chmod -R a+rX "$SB/cp"
chmod 1777 "$SB/ev"

# The fake API, as root on 127.0.0.1 (a free port); ended when the suite ends.
python3 "$abs_top_srcdir/tests/integration/fake_anthropic.py" "$API_LOG" "$SB/api/port" \
	2>"$SB/api/stderr" &
API_PID=$!
trap 'kill "$API_PID" "$LISTENER" 2>/dev/null' EXIT
for _ in $(seq 100); do [ -s "$SB/api/port" ] && break; sleep 0.1; done
PORT=$(cat "$SB/api/port" 2>/dev/null)
expect "the fake API listens" test -n "$PORT"

# The value: in the supervisor's environment only.
V="sk-ant-test-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
SUP_ENV=(ANTHROPIC_API_KEY="$V" ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT"
	DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1)
PASS_ENV='"ANTHROPIC_BASE_URL", "DISABLE_TELEMETRY", "DISABLE_AUTOUPDATER", "DISABLE_ERROR_REPORTING", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"'

# The agent: saves its environment and the settings file it was given
# (deny_settings_args: --settings FILE), then becomes Claude Code, bounded.
cat >"$SB/agent.sh" <<EOF
env >"$SB/ev/agent.env"
[ "\$1" = --settings ] && cat "\$2" >"$SB/ev/settings.json"
exec timeout 180 $(printf '%q' "$CLAUDE") -p "say hi" "\$@"
EOF
chmod 644 "$SB/agent.sh"

# conf NAME PROJECT-KEYS [GLOBAL LINES]
conf() {
	CONF="$SB/conf/$1.conf"
	mkdir -p "$SB/conf"
	cat >"$CONF" <<EOF
helper = $(cfgstr "$HELPER");
session_helper = $(cfgstr "$SESSION");
audit_log = $(cfgstr "$LOG");
credentials = ( { name = "anthropic"; from_env = "ANTHROPIC_API_KEY"; } );
${3:-}
people = { worktrees = $(cfgstr "$WT"); credentials = $(cfgstr "$SB/cred"); claude_projects = $(cfgstr "$SB/cp");
  members = ( { id = "alice"; run_as_user = "cc"; } ); };
projects = ( { name = "claude"; person = "alice"; work_dir = $(cfgstr "$WT/alice/repo");
  command = ["/bin/sh", $(cfgstr "$SB/agent.sh")]; deny_settings_args = ["--settings", "{file}"];
  env_allowlist = [$PASS_ENV]; wall_time_max = 240; $2 } );
EOF
	chmod 644 "$CONF"
}
run_claude() {
	rm -f "$SB/ev/"*
	: >"$LOG"
	: >"$API_LOG"
	EXTRA_ENV=("${SUP_ENV[@]}")
	run_sup run -c "$CONF" claude
	EXTRA_ENV=()
	AGENT_ENV=$(cat "$SB/ev/"*.env 2>/dev/null)
	SETTINGS=$(cat "$SB/ev/settings.json" 2>/dev/null)
}
# helper_is VALUE: the settings the agent was given are a person's (a deny
# list) and their apiKeyHelper is VALUE ("": they have none).
helper_is() {
	perl -MJSON::PP -0777 -e 'my $s = decode_json(<STDIN>);
		exit(ref $s->{permissions}{deny} eq "ARRAY" && ($s->{apiKeyHelper} // "") eq $ARGV[0] ? 0 : 1)' \
		"$1" <<<"$SETTINGS"
}
# api_keys: each request to /v1/messages as "x-api-key|authorization", one a line.
api_keys() {
	perl -MJSON::PP -ne 'my $r = decode_json($_); next unless $r->{path} =~ m{^/v1/messages(\?|$)};
		print(($r->{headers}{"x-api-key"} // "-") . "|" . ($r->{headers}{authorization} // "-") . "\n")' \
		"$API_LOG"
}

# ------------------------------------------------------------------ claude_api_key in the project
conf key 'claude_api_key = "anthropic";'
run_claude
expect "Claude Code run by ruas as the target: exits 0" test "$RC" = 0
expect "... and prints the fake API's answer" has "$OUT" "hi"
expect "the generated settings name ruas-credential as apiKeyHelper" helper_is "ruas-credential anthropic"
KEYS=$(api_keys)
expect "the fake API got a Messages request" test -n "$KEYS"
expect "... each with the credential as x-api-key" \
	test -z "$(grep -v "^$V|" <<<"$KEYS")"
expect "... and as Authorization: Bearer" test -z "$(grep -v "|Bearer $V\$" <<<"$KEYS")"
expect "the agent's environment names the credentials socket" \
	grep -q '^RUAS_CREDENTIALS=@ruas-credentials-[0-9a-f]\{32\}$' <<<"$AGENT_ENV"
expect "... points Claude Code at the fake API" has "$AGENT_ENV" "ANTHROPIC_BASE_URL=http://127.0.0.1:$PORT"
expect "... and holds no key: not the value" hasnt "$AGENT_ENV" "$V"
expect "... nor ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN at all" \
	test -z "$(grep -e '^ANTHROPIC_API_KEY=' -e '^ANTHROPIC_AUTH_TOKEN=' <<<"$AGENT_ENV")"
expect "the settings file holds no value either" hasnt "$SETTINGS" "$V"
R=$(grep '"event":"credential"' "$LOG" || true)
expect "the audit log has a granted credential record for anthropic, run by the target" perl -MJSON::PP -e '
	my @r = map { decode_json($_) } grep { /\S/ } <STDIN>;
	exit((@r >= 1 && !grep { $_->{result} ne "granted" || $_->{name} ne "anthropic" ||
	     $_->{project} ne "claude" || $_->{target} ne "cc" } @r) ? 0 : 1)' <<<"$R"
expect "... and the audit log holds no value" test -z "$(grep -e "$V" "$LOG")"

# ------------------------------------------------------------------ the top level's, for every project
conf global '' 'claude_api_key = "anthropic";'
run_claude
expect "claude_api_key at the top level: the run exits 0" test "$RC" = 0
expect "... its settings have the apiKeyHelper" helper_is "ruas-credential anthropic"
KEYS=$(api_keys)
expect "... and the fake API got the credential" test -n "$KEYS" -a -z "$(grep -v "^$V|" <<<"$KEYS")"

# ------------------------------------------------------------------ without claude_api_key
conf nokey ''
run_claude
expect "without claude_api_key: the settings have no apiKeyHelper" helper_is ""
expect "... Claude Code has no key: it fails" test "$RC" != 0
expect "... and no request carried the value" test -z "$(grep -e "$V" "$API_LOG")"
expect "... nor was any credential asked for" test -z "$(grep '"event":"credential"' "$LOG")"

# ------------------------------------------------------------------ refusals
conf missing 'claude_api_key = "antropic";'
run_sup check -c "$CONF"
expect "claude_api_key naming no credential: a configuration error (exit 2)" test "$RC" = 2
expect "... naming it" has "$ERR" 'claude_api_key "antropic" names no credential of project "claude"'
conf badname 'claude_api_key = "Anthropic Key";'
run_sup check -c "$CONF"
expect "claude_api_key that is no credential name: refused" has "$ERR" 'claude_api_key "Anthropic Key" is not a credential name'

tap_finish
