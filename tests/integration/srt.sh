#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration test for `ruas deny --format claude-settings` against a real
# enforcer: Anthropic's sandbox runtime (npm @anthropic-ai/sandbox-runtime,
# CLI srt, bubblewrap on Linux). The deny list ruas computes for a person is
# translated into srt's settings, and srt must then refuse exactly those
# paths. Needs no users and no private-namespace sandbox; skips (77) when
# node, npm, the srt install, bubblewrap, socat or ripgrep are missing.
: "${abs_top_srcdir:?run this through make check}" "${abs_top_builddir:?run this through make check}"
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"
RUAS="$abs_top_builddir/ruas"

# The version this test was written against; the cache directory is outside
# the tree and reused across runs (reinstalled when it holds another version).
SRT_VERSION=0.0.83
SRT_DIR=${RUAS_SRT_DIR:-/var/tmp/ruas-srt}
SRT="$SRT_DIR/node_modules/.bin/srt"
SRT_PKG="$SRT_DIR/node_modules/@anthropic-ai/sandbox-runtime/package.json"

skip() {
	for line in "$@"; do echo "SKIP: $line"; done
	exit 77
}

# ------------------------------------------------------------------ prerequisites
missing=()
command -v node >/dev/null || missing+=("node is not installed (srt is a Node.js program)")
command -v npm >/dev/null || missing+=("npm is not installed (srt is installed with npm)")
# srt on Linux: bwrap for the sandbox, socat to bridge its proxies into the
# sandbox, rg (ripgrep) to scan for the paths it always denies. It refuses to
# start without any of them.
command -v bwrap >/dev/null || missing+=("bwrap is not installed (Debian package bubblewrap)")
command -v socat >/dev/null || missing+=("socat is not installed (Debian package socat; srt needs it)")
command -v rg >/dev/null || missing+=("rg is not installed (Debian package ripgrep; srt needs it)")
[ "${#missing[@]}" = 0 ] || skip "${missing[@]}" "tests/integration/srt.sh checks deny lists under srt"

have=$(perl -MJSON::PP -0777 -ne 'print decode_json($_)->{version}' "$SRT_PKG" 2>/dev/null)
if [ ! -x "$SRT" ] || [ "$have" != "$SRT_VERSION" ]; then
	mkdir -p "$SRT_DIR" || skip "cannot create $SRT_DIR (set RUAS_SRT_DIR)"
	echo "# installing @anthropic-ai/sandbox-runtime@$SRT_VERSION into $SRT_DIR"
	if ! npm install --prefix "$SRT_DIR" --no-audit --no-fund \
		"@anthropic-ai/sandbox-runtime@$SRT_VERSION" >"$SRT_DIR/install.log" 2>&1 || [ ! -x "$SRT" ]; then
		sed 's/^/# /' "$SRT_DIR/install.log" | tail -20
		skip "npm install @anthropic-ai/sandbox-runtime@$SRT_VERSION into $SRT_DIR failed" \
			"(the npm registry must be reachable; log in $SRT_DIR/install.log)"
	fi
fi
echo "# srt $("$SRT" --version 2>/dev/null) from $SRT_DIR, node $(node --version), $(bwrap --version)"

T=$(mktemp -d) || exit 99
T=$(cd "$T" && pwd -P)
trap 'rm -rf "$T"' EXIT
# Readable by everyone: srt may run as nobody (below), and what it must deny
# has to be readable without it, so that only srt can be what denies it.
chmod 755 "$T"

# srt's settings as it requires them (0.0.83): network.allowedDomains,
# network.deniedDomains, filesystem.allowWrite and filesystem.denyWrite are
# all mandatory, at the top level; allowRead is optional.
printf '%s\n' '{"filesystem":{"denyRead":[],"allowRead":[],"allowWrite":[],"denyWrite":[]},' \
	'"network":{"allowedDomains":[],"deniedDomains":[]}}' >"$T/probe.json"
chmod 644 "$T/probe.json"

# As root, bubblewrap maps uid 0 into its user namespace, which needs
# CAP_SETFCAP in the bounding set; where that is missing (or srt will not
# start as root for another reason), run srt as nobody instead, for which none
# of that applies. SRT_AS is the prefix for the commands with and without srt.
SRT_AS=()
# srt_run ARGS...: runs srt from $T with ARGS; sets RC, OUT, ERR.
srt_run() {
	(cd "$T" && timeout 120 "${SRT_AS[@]}" "$SRT" "$@") >"$T/out" 2>"$T/err" </dev/null
	RC=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/err")
}
# plain ARGS...: the same, without srt.
plain() {
	(cd "$T" && "${SRT_AS[@]}" "$@") >"$T/out" 2>"$T/err" </dev/null
	RC=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/err")
}
srt_run -s "$T/probe.json" true
if [ "$RC" != 0 ] && [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	echo "# srt does not run as root here; trying as nobody:"
	printf '%s\n' "$ERR" | sed 's/^/#   /'
	SRT_AS=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	srt_run -s "$T/probe.json" true
fi
if [ "$RC" != 0 ]; then
	printf '%s\n' "$ERR" | sed 's/^/# /'
	skip "srt $SRT_VERSION cannot run 'true' with an empty policy on this host (rc=$RC);" \
		"bubblewrap probably cannot create its namespaces here"
fi
[ "${#SRT_AS[@]}" = 0 ] || echo "# running srt as nobody (uid 65534)"

# ------------------------------------------------------------------ the tree
mkdir -p "$T/wt/alice" "$T/wt/bob" "$T/cred" "$T/cp"
echo "alice-mine-$$" >"$T/wt/alice/mine.txt"
echo "bob-secret-$$" >"$T/wt/bob/secret.txt"
echo "cred-token-$$" >"$T/cred/token"
chmod -R a+rX "$T/wt" "$T/cred" "$T/cp"
cat >"$T/ruas.conf" <<EOF
people = { worktrees = "$T/wt"; credentials = "$T/cred"; claude_projects = "$T/cp";
  members = ( { id = "alice"; run_as_user = "ruas-alice"; }, { id = "bob"; run_as_user = "ruas-bob"; } ); };
projects = ( { name = "a"; person = "alice"; work_dir = "$T/wt/alice"; command = ["true"]; } );
EOF
chmod 644 "$T/ruas.conf"

# ------------------------------------------------------------------ ruas deny
"$RUAS" deny -c "$T/ruas.conf" alice >"$T/lines" 2>"$T/err" </dev/null
RC=$? OUT=$(cat "$T/lines") ERR=$(cat "$T/err")
expect "ruas deny alice (lines) succeeds" test "$RC" = 0
expect "alice's deny list is exactly cred and bob's worktree" \
	test "$OUT" = "$(printf '%s\n' "$T/cred" "$T/wt/bob" | sort)"
mapfile -t paths <"$T/lines"

"$RUAS" deny -c "$T/ruas.conf" alice --format claude-settings >"$T/claude.json" 2>"$T/err" </dev/null
RC=$? OUT=$(cat "$T/claude.json") ERR=$(cat "$T/err")
expect "ruas deny alice --format claude-settings succeeds" test "$RC" = 0

# claude_missing P: prints what the Claude settings lack for the deny path P.
claude_missing() {
	perl -MJSON::PP -0777 -e '
		my ($file, $p) = @ARGV;
		open my $fh, "<", $file or die "$file: $!";
		my $j = decode_json(scalar <$fh>);
		my %deny = map { $_ => 1 } @{ $j->{permissions}{deny} || [] };
		my %read = map { $_ => 1 } @{ $j->{sandbox}{filesystem}{denyRead} || [] };
		for my $rule ("Read(/$p/**)", "Edit(/$p/**)") {
			print "permissions.deny lacks $rule\n" unless $deny{$rule};
		}
		print "sandbox.filesystem.denyRead lacks $p\n" unless $read{$p};
	' "$T/claude.json" "$1" 2>&1
}
for p in "${paths[@]}"; do
	OUT=$(claude_missing "$p")
	expect "claude-settings: Read(/$p/**), Edit(/$p/**) and denyRead $p" test -z "$OUT"
done
OUT=$(perl -MJSON::PP -0777 -ne 'print join("\n", sort @{ decode_json($_)->{sandbox}{filesystem}{denyRead} }), "\n"' \
	"$T/claude.json" 2>&1)
expect "claude-settings: denyRead holds nothing but the deny list" test "$OUT" = "$(cat "$T/lines")"

# ------------------------------------------------------------------ translate
# Claude Code reads sandbox.filesystem.denyRead; srt reads filesystem.denyRead
# at the top level and requires the rest of the probe's keys.
perl -MJSON::PP -0777 -ne '
	my $c = decode_json($_);
	my $deny = $c->{sandbox}{filesystem}{denyRead} or die "no sandbox.filesystem.denyRead\n";
	print JSON::PP->new->canonical->encode({
		filesystem => { denyRead => $deny, allowRead => [], allowWrite => [], denyWrite => [] },
		network => { allowedDomains => [], deniedDomains => [] },
	}), "\n";
' "$T/claude.json" >"$T/srt.json" 2>"$T/err"
RC=$? OUT=$(cat "$T/srt.json") ERR=$(cat "$T/err")
chmod 644 "$T/srt.json"
expect "translated to srt settings" test "$RC" = 0
echo "# srt settings: $(cat "$T/srt.json")"

# ------------------------------------------------------------------ enforcement
for f in wt/bob/secret.txt cred/token wt/alice/mine.txt; do
	plain cat "$T/$f"
	expect "without srt, $f is readable" test "$RC" = 0 -a "$OUT" = "$(cat "$T/$f")"
done

srt_run -s "$T/srt.json" cat "$T/wt/bob/secret.txt"
expect "under srt, bob's secret.txt cannot be read" test "$RC" != 0
expect "under srt, nothing of bob's secret comes out" hasnt "$OUT$ERR" "bob-secret-$$"

srt_run -s "$T/srt.json" cat "$T/cred/token"
expect "under srt, the credentials token cannot be read" test "$RC" != 0
expect "under srt, nothing of the token comes out" hasnt "$OUT$ERR" "cred-token-$$"

srt_run -s "$T/srt.json" cat "$T/wt/alice/mine.txt"
expect "under srt, alice's own mine.txt is readable" test "$RC" = 0 -a "$OUT" = "alice-mine-$$"

tap_finish
