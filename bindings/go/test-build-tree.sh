#!/bin/sh
# SPDX-License-Identifier: ISC
# test-build-tree.sh TOP_SRCDIR TOP_BUILDDIR - gofmt, go vet and go test of
# the Go binding (and go vet of examples/go) against the uninstalled
# library of a build tree (make check-go). pkg-config finds it through a
# ruas.pc written here; no network (GOPROXY=off), no third-party module,
# nothing written to $HOME (GOCACHE and GOPATH under the build tree unless
# set). Needs no root: the tests that need users and sudo are in
# tests/integration/go.sh.
set -eu
if [ $# -ne 2 ]; then
	echo "usage: $0 TOP_SRCDIR TOP_BUILDDIR" >&2
	exit 2
fi
# As root, in a private mount namespace with a /run of its own: a root
# supervisor's check keeps its walk of the host's trees in /run/ruas, which
# is the host's (tests/host_private.sh).
if [ "$(id -u)" = 0 ] && [ "${RUAS_HOST_PRIVATE:-}" != 1 ]; then
	RUAS_HOST_PRIVATE=1 exec unshare --mount --propagation private \
		sh -c 'mount -t tmpfs -o mode=0755 tmpfs /run || exit 99; exec sh "$@"' _ "$0" "$@"
fi
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
if ! command -v go >/dev/null; then
	echo "ERROR: go is not installed (Debian: apt-get install golang-go)" >&2
	exit 1
fi
if [ ! -e "$build/.libs/libruas.so" ]; then
	echo "ERROR: $build/.libs/libruas.so is missing: run make first" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ruas-go.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/pkgconfig"
cat >"$tmp/pkgconfig/ruas.pc" <<EOPC
Name: ruas
Description: libruas of the build tree $build
Version: 0.0.0-uninstalled
Libs: -L$build/.libs -Wl,-rpath,$build/.libs -lruas
Cflags: -I$src/include
EOPC
PKG_CONFIG_PATH="$tmp/pkgconfig"
GOCACHE=${GOCACHE:-$build/.go-cache}
GOPATH=${GOPATH:-$build/.go-cache/path}
GOPROXY=off
GOFLAGS=${GOFLAGS:-}
GO111MODULE=on
CGO_ENABLED=1
LD_LIBRARY_PATH="$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# A sanitizer build (RUAS_BUILD_CFLAGS and RUAS_BUILD_LDFLAGS, the build's
# CFLAGS and LDFLAGS LIBS): its flags for every cgo compile and link, its
# objects for the final link alone (cgo would link them once per package).
cgo_ld="" ext_ld=""
for w in ${RUAS_BUILD_LDFLAGS:-}; do
	case $w in
	-*) cgo_ld="$cgo_ld $w" ;;
	*) ext_ld="$ext_ld $w" ;;
	esac
done
CGO_CFLAGS="-g -O2 ${RUAS_BUILD_CFLAGS:-}"
CGO_LDFLAGS="$cgo_ld"
export PKG_CONFIG_PATH GOCACHE GOPATH GOPROXY GOFLAGS GO111MODULE CGO_ENABLED LD_LIBRARY_PATH
export CGO_CFLAGS CGO_LDFLAGS
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR || true

bad=$(gofmt -l "$src/bindings/go" "$src/examples/go")
if [ -n "$bad" ]; then
	echo "ERROR: not gofmt'd: $bad" >&2
	exit 1
fi
# A source tree may be read-only (distcheck): build from a copy.
cp -R "$src/bindings" "$src/examples" "$tmp/"
chmod -R u+w "$tmp/bindings" "$tmp/examples"
cd "$tmp/bindings/go"
go vet ./...
# shellcheck disable=SC2086
go test -count=1 -ldflags="-extldflags '$ext_ld'" ${RUAS_GO_TEST_FLAGS:-} ./...
cd "$tmp/examples/go"
go vet ./...
go build -ldflags="-extldflags '$ext_ld'" -o "$tmp/bridge" ./bridge
echo "check-go: bindings/go vetted and tested, examples/go vetted and built"
