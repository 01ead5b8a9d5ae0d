#!/bin/bash
# SPDX-License-Identifier: ISC
# fuzz/run.sh SECONDS: build every libFuzzer target with clang
# (-fsanitize=fuzzer,address,undefined) and run each for SECONDS on its
# committed seed corpus, FUZZ_JOBS of them at a time (default: one per CPU).
# Exits non-zero on any crash, leak or property failure. A crash input is
# kept in fuzz/crashes/; once fixed, commit it to fuzz/corpus/TARGET/, which
# every run replays first: a regression test.
#
# The protocol's targets (one per decoder of src/proto: payload, session,
# signal, terminate, kill, exit, stopped, continued, report, agent, start,
# started, channel) also read the seeds that fuzz/mkseeds.c writes with the tree's
# own encoders, so a protocol change never leaves them only stale seeds.
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
	-I"$top/include" -I"$top/src/common" -I"$top/src/proto" -I"$top/src/lib")
lib=(lib/config/config.c lib/config/file.c lib/config/syntax_hint.c lib/config/people.c lib/config/accessors.c
	lib/config/audit_keys.c lib/audit/log_file.c lib/audit/count.c
	lib/config/new.c lib/config/project.c lib/config/limits.c lib/config/source.c
	lib/account.c lib/check/group_risk.c common/buf.c lib/error.c common/proc.c common/names.c
	common/env_rules.c common/path.c common/quote.c common/strv.c lib/config/sudo_allowed.c
	lib/config/require_command.c lib/config/credentials.c lib/config/git_hosts.c)
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
build fuzz_sudoers "$here/fuzz_sudoers.c" $(src lib/provision/sudoers.c lib/account.c \
	lib/check/group_risk.c common/buf.c lib/error.c common/proc.c common/names.c common/env_rules.c common/quote.c)
# shellcheck disable=SC2046
build fuzz_contain "$here/fuzz_contain.c" $(src common/contain.c)
# shellcheck disable=SC2046
build fuzz_sudo_list "$here/fuzz_sudo_list.c" $(src lib/check/sudo_list.c \
	lib/check/escalation.c lib/check/report.c lib/check/messages.c \
	lib/check/messages_escalation.c lib/check/messages_groups.c lib/check/messages_people.c \
	lib/check/messages_work_dir.c common/buf.c common/quote.c lib/error.c common/strv.c \
	common/pam_service.c lib/check/targetpw.c common/proc.c lib/spawn/sudo_call.c lib/account.c \
	lib/check/group_risk.c)

# The protocol (src/proto): one target per decoder, each with the codec.
proto() { src common/buf.c proto/codec.c "$@"; }
# shellcheck disable=SC2046
build fuzz_payload "$here/fuzz_payload.c" $(proto proto/payload.c)
# shellcheck disable=SC2046
build fuzz_session "$here/fuzz_session.c" $(proto proto/session.c proto/payload.c)
controls=(signal terminate kill exit stopped continued)
for m in "${controls[@]}"; do
	# shellcheck disable=SC2046
	build "fuzz_$m" -DCONTROL_"${m^^}" "$here/fuzz_control.c" $(proto proto/control.c)
done
# shellcheck disable=SC2046
build fuzz_report "$here/fuzz_report.c" $(proto proto/helper_report.c \
	proto/helper_report_read.c proto/helper_report_write.c proto/helper_report_cmd.c)
# shellcheck disable=SC2046
build fuzz_agent "$here/fuzz_agent.c" $(proto proto/agent.c)
# shellcheck disable=SC2046
build fuzz_start "$here/fuzz_start.c" $(proto proto/agent.c)
# shellcheck disable=SC2046
build fuzz_started "$here/fuzz_started.c" $(proto proto/started.c)
# shellcheck disable=SC2046
build fuzz_channel "$here/fuzz_channel.c" $(proto proto/channel.c)
# The seeds from the tree's own encoders (fuzz/mkseeds.c), beside the committed ones.
echo "== building mkseeds"
# shellcheck disable=SC2046
"$CC" -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE \
	-I"$top/src/common" -I"$top/src/proto" -o "$out/mkseeds" "$here/mkseeds.c" \
	$(proto proto/payload.c proto/session.c proto/control.c proto/helper_report.c \
		proto/helper_report_write.c proto/agent.c proto/started.c)
rm -rf "$out/seeds" && mkdir -p "$out/seeds"
"$out/mkseeds" "$out/seeds"

samples="$out/sudoers-samples"
mkdir -p "$samples"
targets=(fuzz_config fuzz_sudoers fuzz_contain fuzz_sudo_list fuzz_payload fuzz_session)
for m in "${controls[@]}"; do targets+=("fuzz_$m"); done
targets+=(fuzz_report fuzz_agent fuzz_start fuzz_started fuzz_channel)
# One target: its log in $out/TARGET.log, its exit status in $out/TARGET.rc.
run_one() {
	local t=$1 name=${1#fuzz_} st=0
	local dirs=("$out/corpus-$t" "$here/corpus/$name")
	mkdir -p "${dirs[@]}"
	if [ -d "$out/seeds/$name" ]; then dirs+=("$out/seeds/$name"); fi
	LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" \
		FUZZ_SUDOERS_SAMPLES="$samples" "$out/$t" -max_total_time="$secs" -max_len=4096 \
		-artifact_prefix="$here/crashes/$t-" -print_final_stats=1 \
		"${dirs[@]}" >"$out/$t.log" 2>&1 || st=$?
	echo "$st" >"$out/$t.rc"
}
# FUZZ_JOBS targets at a time (default: one per CPU), each for its SECONDS.
njobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
for t in "${targets[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$njobs" ]; do wait -n || :; done
	echo "== running $t for ${secs}s"
	run_one "$t" &
done
wait
rc=0
for t in "${targets[@]}"; do
	if [ "$(cat "$out/$t.rc" 2>/dev/null)" != 0 ]; then
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
