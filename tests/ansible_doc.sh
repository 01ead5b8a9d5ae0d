#!/bin/bash
# SPDX-License-Identifier: ISC
# Every module of the Ansible role (contrib/ansible/roles/ruas/library) has a
# DOCUMENTATION, EXAMPLES and RETURN that ansible-doc renders, with no error
# and no warning: `ansible-doc -M library MODULE` for each, and its --json
# form holding all three. Needs ansible-doc (ansible-core), not root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
if ! command -v ansible-doc >/dev/null; then
	echo "SKIP: tests/ansible_doc.sh needs ansible-doc (ansible-core: scripts/install-deps installs it)" >&2
	exit 77
fi
LIB="$abs_top_srcdir/contrib/ansible/roles/ruas/library"
home=$(mktemp -d /var/tmp/ruas-ansible-doc.XXXXXX) || exit 99
trap 'rm -rf "$home"' EXIT
printf "[defaults]\n" >"$home/ansible.cfg"
adoc() {
	env -u MAKEFLAGS HOME="$home" ANSIBLE_HOME="$home" ANSIBLE_CONFIG="$home/ansible.cfg" ANSIBLE_NOCOLOR=1 \
		LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 ansible-doc -M "$LIB" "$@" >"$home/out" 2>"$home/err" </dev/null
	RC=$?
	OUT=$(cat "$home/out")
	ERR=$(cat "$home/err")
}
n=0
for f in "$LIB"/*.py; do
	m=$(basename "$f" .py)
	n=$((n + 1))
	adoc "$m"
	expect "ansible-doc $m renders, with no error or warning" \
		test "$RC" = 0 -a -n "$OUT" -a -z "$ERR"
	expect "... and has no ERROR or WARNING in its text" \
		bash -c '! grep -qE "ERROR|\[WARNING\]" <<<"$1"' _ "$OUT"
	adoc --json "$m"
	expect "... its DOCUMENTATION, EXAMPLES and RETURN all parse (ansible-doc --json)" \
		python3 -c 'import json, sys
d = json.load(sys.stdin)[sys.argv[1]]
doc, ex, ret = d.get("doc"), d.get("examples"), d.get("return")
assert doc and doc.get("module") == sys.argv[1] and doc.get("options") is not None, "DOCUMENTATION"
assert doc.get("short_description") and doc.get("description"), "descriptions"
assert isinstance(ex, str) and ex.strip(), "EXAMPLES"
assert isinstance(ret, dict) and ret, "RETURN"
for k, o in doc["options"].items():
    assert o.get("description") and o.get("type"), "option " + k
for k, r in ret.items():
    assert r.get("description") and r.get("returned") and r.get("type"), "return " + k
' "$m" <"$home/out"
done
expect "the modules were found" test "$n" -ge 6
tap_finish
