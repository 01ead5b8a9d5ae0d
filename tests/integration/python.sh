#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the Python binding (issue 15), in the sandbox, as
# root: bindings/python/tests/test_bridge.py, a chat-bridge-like supervisor,
# as the supervisor user on the sudo backend and as root on the pam
# backend, with real sudo, PAM and a target user; and the installed package
# finding the library installed with it, for a prefix of its own, without
# LD_LIBRARY_PATH.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/python.sh"
if [ -z "${PYTHON:-}" ] || [ "$PYTHON" = : ]; then
	echo "SKIP: configured without the Python binding (no python3, or --without-python)" >&2
	exit 77
fi
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=42000
sandbox_setup
sandbox_guard
set -u
. "$abs_top_srcdir/tests/integration/tap.sh"

sandbox_user sup
sandbox_user pt1
sandbox_user pt2
sandbox_sudoers ruas-sup 'sup ALL=(pt1) NOPASSWD: ALL' 'sup ALL=(pt2) NOPASSWD: ALL'
# pt2 can get root through a rule of its own: its project is fatal.
printf 'pt2 ALL=(ALL) NOPASSWD: ALL\n' >/etc/sudoers.d/zz-pt2
chmod 0440 /etc/sudoers.d/zz-pt2
install -m 644 "$SB/dest$RUAS_SYSCONFDIR/pam.d/ruas" /etc/pam.d/ruas
mkdir -p "$SB/w" "$SB/conf" "$SB/py"
chown pt1 "$SB/w"
chmod 755 "$SB/w" "$SB/conf" "$SB/py"
install -m 755 "$abs_top_srcdir/bindings/python/tests/agent.py" "$SB/py/agent.py"
install -m 644 "$abs_top_srcdir/bindings/python/tests/test_bridge.py" "$SB/py/test_bridge.py"
PY=/usr/bin/python3
for backend in sudo pam; do
	{
		printf 'helper = %s;\nsession_helper = %s;\nbackend = "%s";\n' "$(cfgstr "$HELPER")" \
			"$(cfgstr "$SESSION")" "$backend"
		printf 'terminate_grace = 1;\nprojects = (\n'
		sep=""
		for p in agent agent2; do
			printf '%s  { name = "%s"; run_as_user = "pt1"; work_dir = %s; command = [%s, %s]; }' \
				"$sep" "$p" "$(cfgstr "$SB/w")" "$(cfgstr "$PY")" "$(cfgstr "$SB/py/agent.py")"
			sep=$',\n'
		done
		printf '\n);\n'
	} >"$SB/conf/$backend.conf"
	{
		printf 'helper = %s;\nsession_helper = %s;\nbackend = "%s";\nprojects = (\n' \
			"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$backend"
		printf '  { name = "bad"; run_as_user = "pt2"; work_dir = "/"; command = ["true"]; }\n);\n'
	} >"$SB/conf/$backend-fatal.conf"
	chmod 644 "$SB/conf/$backend.conf" "$SB/conf/$backend-fatal.conf"
done

PYDIR=$SB/dest$RUAS_PYTHONDIR
# A sanitizer build's library: its runtime must come first in a program not
# built with it (python3), and Python's own allocations at exit are not ours.
py_sanitizer_env
SAN_ENV=("${PY_SAN_ENV[@]}")
expect "make install put the package in the prefix's site directory" \
	test -f "$PYDIR/ruas/__init__.py" -a -f "$PYDIR/ruas/py.typed"
expect "... with the library's installed path in _paths.py" \
	grep -qxF "LIBRARY = \"$RUAS_LIBDIR/libruas.so.0\"" "$PYDIR/ruas/_paths.py"

for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	EXTRA_ENV=("${SAN_ENV[@]}" PYTHONPATH="$PYDIR" RUAS_LIBRARY="$LIBDIR/libruas.so.0"
		PYTHONDONTWRITEBYTECODE=1 CONF="$SB/conf/$backend.conf" CONF_FATAL="$SB/conf/$backend-fatal.conf" TARGET=pt1
		HELPER="$HELPER" SESSION="$SESSION" BACKEND="$backend" AGENT="$SB/py/agent.py"
		WORK="$SB/w" CRED="$SB/dest$RUAS_BINDIR/ruas-credential")
	for t in three_agents_at_once sigint_interrupts_a_turn cancel_mid_turn ten_mib_reply \
		nonzero_exit spawn_refused_by_preflight project_in_code_from_hostile_strings \
		limits_reach_the_run asyncio_turn credentials_in_code_and_from_a_callable; do
		as_user "$who" "$PY" "$SB/py/test_bridge.py" -v "Bridge.test_$t" \
			>"$SB/py.out" 2>&1 </dev/null
		RC=$? OUT=$(cat "$SB/py.out") ERR=""
		expect "$backend ($who): $t" test "$RC" = 0
	done
done

# examples/python/bridge.py, as its README shows it: prompts in, replies out.
install -m 644 "$abs_top_srcdir/examples/python/bridge.py" "$SB/py/bridge.py"
for backend in sudo pam; do
	who=sup
	[ "$backend" = pam ] && who=root
	EXTRA_ENV=("${SAN_ENV[@]}" PYTHONPATH="$PYDIR" RUAS_LIBRARY="$LIBDIR/libruas.so.0"
		PYTHONDONTWRITEBYTECODE=1)
	OUT=$(printf 'first\nsecond "q"\n' | as_user "$who" "$PY" "$SB/py/bridge.py" \
		-c "$SB/conf/$backend.conf" agent 2>&1)
	RC=$? ERR=""
	expect "$backend: examples/python/bridge.py relays two prompts" test "$RC" = 0
	expect "... the first reply, from pt1" has "$OUT" '"reply": "first", "user": "pt1"'
	expect "... the second, quotes intact" has "$OUT" '"reply": "second \"q\""'
	OUT=$(printf 'x\n' | as_user "$who" "$PY" "$SB/py/bridge.py" \
		-c "$SB/conf/$backend-fatal.conf" bad 2>&1)
	RC=$? ERR=""
	expect "$backend: ... refuses a project whose checks are fatal" test "$RC" = 1
	expect "... saying so" has "$OUT" "bridge: bad refused by its startup checks"
done

# A prefix of its own, without LD_LIBRARY_PATH or RUAS_LIBRARY: the module
# finds the library installed with it. The package and the library as make
# install put them, moved to the prefix, and _paths.py written for its libdir
# by the install step that writes it (no relink of the build's library).
mkdir -p "$SB/pfx/lib" "$SB/pfx/py"
cp -a "$PYDIR/ruas" "$SB/pfx/py/"
cp -a "$LIBDIR"/libruas.so* "$SB/pfx/lib/"
"${MAKE:-make}" -s -C "$abs_top_builddir" install-python-paths DESTDIR= \
	ruaspydir="$SB/pfx/py/ruas" libdir="$SB/pfx/lib" >"$SB/pfx.log" 2>&1
RC=$? OUT=$(cat "$SB/pfx.log") ERR=""
expect "_paths.py written for libdir $SB/pfx/lib" test "$RC" = 0
OUT=$(env -i PATH=/usr/bin:/bin "${SAN_ENV[@]}" PYTHONPATH="$SB/pfx/py" "$PY" -c '
import os
os.environ.pop("LD_PRELOAD", None)  # a sanitizer runtime is for this python3 only
import ruas, ruas._lib as l
print(l.lib._name)
c = ruas.Config.new(name="pfx")
c.add_project(name="p", work_dir="/", command=["/bin/echo", "pfx-ok"])
k = c.spawn("p", stdout=ruas.PIPE)
print(k.communicate(timeout=30)[0].decode().strip(), k.returncode)' 2>&1)
RC=$? ERR=""
expect "the package of prefix $SB/pfx loads its own libruas.so.0" has "$OUT" "$SB/pfx/lib/libruas.so.0"
expect "... and spawns through it" has "$OUT" "pfx-ok 0"

tap_finish
