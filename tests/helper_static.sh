#!/bin/bash
# SPDX-License-Identifier: ISC
# ruas-exec reads no user database, and is linked as configure chose
# (static-pie where the toolchain can: configure.ac, --disable-static-helper).
# A static program must not load NSS modules (glibc would dlopen the host's
# libnss_*.so into a second copy of libc), so no object of the helper may
# call getpw*, getgr* and the like; the library sends the passwd entry in the
# payload and names owners itself. Both guards are attacked: an object that
# calls getpwuid_r is flagged by the same scan, and (static) fails the link.
. "${abs_top_srcdir:?run this through make check}/tests/integration/tap.sh"
for tool in nm readelf cc; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (binutils, gcc)" >&2
		exit 77
	fi
done
work=$(mktemp -d /var/tmp/ruas-helper-static.XXXXXX)
trap 'rm -rf "$work"' EXIT
b=$abs_top_builddir
NSS='^(getpw|getgr(gid|nam|ent|ouplist)|[sg]et(pw|gr|sp)ent|getspnam|initgroups|gethostby|getaddrinfo|getnameinfo|getservby|getprotoby|getnetby|dlopen|iconv_open)'
# nss_calls FILE...: the NSS (and dlopen) functions the objects call, one a line.
nss_calls() { nm -u "$@" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | grep -E "$NSS" | sort -u; }

objs=("$b"/src/helper/exec/ruas_exec-*.o)
RC=0 OUT="${#objs[@]} objects" ERR=""
expect "the helper's objects are there to scan" test "${#objs[@]}" -ge 10
OUT=$(nss_calls "${objs[@]}" "$b"/.libs/libruas-proto.a) ERR=""
expect "no object of ruas-exec (nor libruas-proto) calls the user database or dlopen" test -z "$OUT"

# The attack on the scan: an object that looks a user up is flagged by it.
printf '#include <pwd.h>\n#include <unistd.h>\nconst char *who(void);\nconst char *who(void) { struct passwd *p = getpwuid(getuid()); return p ? p->pw_name : 0; }\n' >"$work/planted.c"
ERR=$(cc -c -o "$work/planted.o" "$work/planted.c" 2>&1)
OUT=$(nss_calls "$work/planted.o")
expect "... a planted getpwuid call is what the scan finds" test "$OUT" = getpwuid

interp=$(readelf -l "$b/ruas-exec" 2>&1 | grep -c 'Requesting program interpreter')
needed=$(readelf -d "$b/ruas-exec" 2>&1 | grep -c '(NEEDED)')
OUT="interpreter: $interp, needed libraries: $needed, HELPER_LDFLAGS: ${RUAS_HELPER_LDFLAGS:-}" ERR=""
case " ${RUAS_HELPER_LDFLAGS:-} " in
*" -static"*)
	expect "ruas-exec is static, as configure chose: no interpreter, no shared library" \
		test "$interp" = 0 -a "$needed" = 0
	# The attack on the link: a helper that calls getpwuid_r does not link.
	printf '#include <pwd.h>\n#include <unistd.h>\nint main(void) { struct passwd pw, *r; char m[1024]; return getpwuid_r(getuid(), &pw, m, sizeof m, &r); }\n' >"$work/nss.c"
	# shellcheck disable=SC2086
	ERR=$(cc -fPIE -o "$work/nss" "$work/nss.c" $RUAS_HELPER_LDFLAGS 2>&1)
	RC=$? OUT=""
	expect "... and a helper that calls getpwuid_r would not link (--fatal-warnings)" test "$RC" != 0
	expect "... for the reason glibc gives" has "$ERR" "statically linked applications"
	;;
*)
	# A sanitizer build (or --disable-static-helper): dynamic, as configured.
	expect "ruas-exec is dynamic, as configure chose (${RUAS_HELPER_LDFLAGS:-no static flag})" \
		test "$interp" = 1
	;;
esac
tap_finish
