# SPDX-License-Identifier: ISC
# tap.sh - counting and reporting for the integration tests.
# Each check prints "ok N - name" or "not ok N - name" with the evidence;
# tap_finish prints "P passed, F failed" and fails when anything failed.
pass=0
fail=0
RC=0
OUT=""
ERR=""
ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $1"; }
not_ok() {
	fail=$((fail + 1))
	echo "not ok $((pass + fail)) - $1"
	shift
	for x in "$@"; do printf '%s\n' "$x" | sed 's/^/#   /'; done
}
# expect NAME COMMAND...: passes when COMMAND succeeds; shows RC, OUT, ERR otherwise.
expect() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name" "rc=$RC" "stdout: $OUT" "stderr: $ERR"; fi
}
has() { [[ "$1" == *"$2"* ]]; }
hasnt() { [[ "$1" != *"$2"* ]]; }
tap_finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
