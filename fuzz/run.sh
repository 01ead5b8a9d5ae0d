#!/bin/bash
# fuzz/run.sh SECONDS: build every libFuzzer target with clang
# (-fsanitize=fuzzer,address,undefined) and run each for SECONDS on its
# committed seed corpus. Exits non-zero on any crash, leak or property
# failure. A crash input is kept in fuzz/crashes/; once fixed, commit it to
# fuzz/corpus/TARGET/, which every run replays first: a regression test.
set -euo pipefail
secs=${1:-30}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
out=${FUZZ_OUT:-$(mktemp -d /var/tmp/ruas-fuzz.XXXXXX)}
mkdir -p "$out" "$here/crashes"
CC=${CC_FUZZ:-clang}
if ! command -v "$CC" >/dev/null; then
	echo "fuzz/run.sh: $CC not found (apt-get install clang)" >&2
	exit 2
fi
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE
	-I"$top/include" -I"$top/src/common" -I"$top/src/common/proto" -I"$top/src/lib")
lib=(lib/config/config.c lib/config/file.c lib/config/people.c lib/config/accessors.c
	lib/config/audit_keys.c
	lib/config/new.c lib/config/project.c lib/config/source.c
	lib/account.c lib/check/group_risk.c common/buf.c lib/error.c common/names.c
	common/env_rules.c common/path.c common/quote.c common/strv.c lib/config/sudo_allowed.c)
src() { for f in "$@"; do printf '%s\n' "$top/src/$f"; done; }
build() { # NAME SOURCES... -- LIBS...
	local name=$1
	shift
	echo "== building $name"
	"$CC" "${flags[@]}" "$@" -o "$out/$name"
}
# shellcheck disable=SC2046
build fuzz_config "$here/fuzz_config.c" $(src "${lib[@]}" lib/provision/sudoers.c lib/people/deny.c) \
	$(pkg-config --cflags --libs libconfig json-c)
# shellcheck disable=SC2046
build fuzz_payload "$here/fuzz_payload.c" $(src common/buf.c common/proto/payload.c)
# shellcheck disable=SC2046
build fuzz_sudoers "$here/fuzz_sudoers.c" $(src lib/provision/sudoers.c lib/account.c \
	lib/check/group_risk.c common/buf.c lib/error.c common/names.c common/env_rules.c common/quote.c)
# shellcheck disable=SC2046
build fuzz_contain "$here/fuzz_contain.c" $(src common/contain.c)
# shellcheck disable=SC2046
build fuzz_sudo_list "$here/fuzz_sudo_list.c" $(src lib/check/sudo_list.c \
	lib/check/escalation.c lib/check/report.c lib/check/messages.c \
	lib/check/messages_escalation.c lib/check/messages_groups.c lib/check/messages_people.c \
	lib/check/messages_work_dir.c common/buf.c common/quote.c lib/error.c common/strv.c)
build fuzz_wire "$here/fuzz_wire.c" $(src common/proto/wire_parse.c common/proto/wire.c \
	common/proto/payload.c common/buf.c)

samples="$out/sudoers-samples"
mkdir -p "$samples"
rc=0
for t in fuzz_config fuzz_payload fuzz_sudoers fuzz_contain fuzz_sudo_list fuzz_wire; do
	corpus="$out/corpus-$t"
	mkdir -p "$corpus" "$here/corpus/${t#fuzz_}"
	echo "== running $t for ${secs}s"
	if ! LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" \
		FUZZ_SUDOERS_SAMPLES="$samples" "$out/$t" -max_total_time="$secs" -max_len=4096 \
		-artifact_prefix="$here/crashes/$t-" -print_final_stats=1 \
		"$corpus" "$here/corpus/${t#fuzz_}" >"$out/$t.log" 2>&1; then
		echo "fuzz/run.sh: $t FAILED; see $out/$t.log and fuzz/crashes/" >&2
		tail -30 "$out/$t.log" >&2
		rc=1
	else
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$out/$t.log" | sed "s/^/  $t /"
	fi
done
# A sample of accepted fragments through the real visudo.
if command -v visudo >/dev/null; then
	n=0 bad=0
	for f in "$samples"/*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		visudo -cqf "$f" || { bad=$((bad + 1)); echo "visudo rejects $f" >&2; }
	done
	echo "== visudo on $n sampled fragments: $bad rejected"
	[ "$bad" = 0 ] || rc=1
fi
[ -n "${FUZZ_OUT:-}" ] || rm -rf "$out"
exit $rc
