# SPDX-License-Identifier: ISC
# sandbox.sh - a throwaway host inside a private mount namespace.
#
# Sourced by the integration tests and the demo. sandbox_enter re-executes
# the calling script under `unshare --mount --propagation private`, where
# throwaway copies of /etc, /home, /tmp, /var/log, /var/mail, /run/sudo and /run/ruas are
# mounted, so that useradd and sudoers rules never touch the host.
# It also installs the build (make install DESTDIR) into the sandbox.

for _v in abs_top_srcdir abs_top_builddir RUAS_BINDIR RUAS_LIBDIR RUAS_PKGLIBEXECDIR RUAS_SYSCONFDIR; do
	if [ -z "${!_v:-}" ]; then
		echo "ERROR: $_v is not set; run this through 'make check' or 'make demo'" >&2
		exit 99
	fi
done

sandbox_need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: $1 needs root: it creates users and sudoers rules inside a" >&2
		echo "SKIP: private mount namespace (unshare --mount). Run it as root." >&2
		exit 77
	fi
	if ! command -v unshare >/dev/null || ! command -v setpriv >/dev/null ||
	   ! command -v useradd >/dev/null || ! [ -x /usr/bin/sudo ]; then
		echo "SKIP: $1 needs unshare, setpriv, useradd and sudo installed" >&2
		exit 77
	fi
}

# sandbox_enter "$0" "$@": returns only inside the namespace.
sandbox_enter() {
	if [ "${RUAS_IN_SANDBOX:-}" = 1 ]; then
		return 0
	fi
	# Outside /tmp: the namespace gets a private /tmp of its own.
	SB=$(mktemp -d /var/tmp/ruas-sandbox.XXXXXX) || exit 99
	chmod 755 "$SB"
	export SB RUAS_IN_SANDBOX=1
	if ! "${MAKE:-make}" -s -C "$abs_top_builddir" install DESTDIR="$SB/dest" >"$SB/install.log" 2>&1; then
		cat "$SB/install.log" >&2
		echo "ERROR: make install into the sandbox failed" >&2
		exit 99
	fi
	local script=$1
	shift
	unshare --mount --propagation private bash "$script" "$@"
	local rc=$?
	rm -rf "$SB"
	exit $rc
}

# Aborts unless this process is in a private mount namespace with /etc
# and /home replaced: nothing below may ever reach the host's files.
sandbox_guard() {
	if [ "${RUAS_IN_SANDBOX:-}" != 1 ] ||
	   [ "$(readlink /proc/self/ns/mnt)" = "$(readlink /proc/1/ns/mnt)" ] ||
	   ! mountpoint -q /etc || ! mountpoint -q /home || ! mountpoint -q /run; then
		echo "ERROR: refusing to touch users or sudoers outside the sandbox" >&2
		exit 99
	fi
}

# Inside the namespace: mount the throwaway copies.
sandbox_setup() {
	if [ "${RUAS_IN_SANDBOX:-}" != 1 ] || [ -z "${SB:-}" ] ||
	   [ "$(readlink /proc/self/ns/mnt)" = "$(readlink /proc/1/ns/mnt)" ]; then
		echo "ERROR: sandbox_setup outside a private mount namespace" >&2
		exit 99
	fi
	set -e
	cp -a /etc "$SB/etc"
	mount --bind "$SB/etc" /etc
	mkdir -p "$SB/home" "$SB/varlog" "$SB/varmail"
	mount --bind "$SB/home" /home
	mount -t tmpfs tmpfs /var/log
	mount -t tmpfs tmpfs /var/mail
	# A private /tmp, so that what agents leave there stays in the sandbox;
	# a checkout that lives under /tmp is bound back in.
	mkdir -p "$SB/hosttmp"
	mount --bind /tmp "$SB/hosttmp"
	mount -t tmpfs -o mode=1777 tmpfs /tmp
	local d
	for d in "$abs_top_srcdir" "$abs_top_builddir"; do
		case "$d" in
		/tmp/*)
			mkdir -p "$d"
			mount --bind "$SB/hosttmp/${d#/tmp/}" "$d"
			;;
		esac
	done
	# A /run of its own: sudo's timestamps (/run/sudo), a root supervisor's
	# walk of the host's trees (/run/ruas, src/lib/host/cache.h) and
	# whatever a test makes there never reach the host's, and no mount
	# point is left behind on it.
	mount -t tmpfs -o mode=0755 tmpfs /run
	mkdir -m 0711 /run/sudo
	mkdir -m 0700 /run/ruas
	# Keep the host's logs out of it; everything else of sudo stays stock.
	printf 'Defaults !syslog\n' >/etc/sudoers.d/zz-sandbox-nolog
	chmod 0440 /etc/sudoers.d/zz-sandbox-nolog
	# Drop sudoers fragments of the host (none should matter, but be exact).
	find /etc/sudoers.d -maxdepth 1 -type f ! -name zz-sandbox-nolog ! -name README -delete
	sandbox_guard
	RUAS="$SB/dest$RUAS_BINDIR/ruas"
	HELPER="$SB/dest$RUAS_PKGLIBEXECDIR/ruas-exec"
	SESSION="$SB/dest$RUAS_PKGLIBEXECDIR/ruas-session"
	LIBDIR="$SB/dest$RUAS_LIBDIR"
	export RUAS HELPER SESSION LIBDIR
	EXTRA_ENV=()
	set +e
}

# Suites run in parallel and share the pid namespace: each takes its own
# uid and gid range (SANDBOX_ID_BASE, set before sandbox_setup), so that
# "pkill -u t1" in one suite can never reach another suite's t1.
sandbox_ids() {
	local b=${SANDBOX_ID_BASE:-20000}
	printf '%s\n' -K "UID_MIN=$b" -K "UID_MAX=$((b + 999))" -K "GID_MIN=$b" -K "GID_MAX=$((b + 999))"
}

# sandbox_user NAME [useradd options...]
sandbox_user() {
	sandbox_guard
	local name=$1
	shift
	local ids
	mapfile -t ids < <(sandbox_ids)
	useradd "${ids[@]}" -m -s /bin/bash "$@" "$name"
}

# sandbox_group NAME
sandbox_group() {
	sandbox_guard
	local b=${SANDBOX_ID_BASE:-20000}
	groupadd -K "GID_MIN=$b" -K "GID_MAX=$((b + 999))" "$1"
}

# sandbox_sudoers FILE LINE...: a fragment, checked by visudo before it lands.
sandbox_sudoers() {
	sandbox_guard
	local f=$1
	shift
	printf '%s\n' "$@" >"/etc/sudoers.d/.tmp-$f"
	chmod 0440 "/etc/sudoers.d/.tmp-$f"
	visudo -cqf "/etc/sudoers.d/.tmp-$f" || { echo "bad sudoers: $*" >&2; return 1; }
	mv "/etc/sudoers.d/.tmp-$f" "/etc/sudoers.d/$f"
}

# returns_within SECONDS PID: the background job PID of this shell ends in
# time (it is polled, not slept on); RC its status. 1 when it has not.
returns_within() {
	for _ in $(seq $(($1 * 10))); do
		if ! kill -0 "$2" 2>/dev/null; then
			wait "$2" 2>/dev/null
			RC=$?
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# sandbox_devlog: a /dev/log of the namespace's own, with a receiver on it
# (syslog_listener.py) writing what it gets to $CAP; LISTENER its pid, once
# it has said READY (or 5 s have passed: the caller checks the socket).
# The host may have no /dev/log, and /dev is the host's: a tmpfs of the
# namespace's own goes over it, with every node and mount of the real one
# bound back.
sandbox_devlog() {
	sandbox_guard
	mkdir -p "$SB/devhost"
	mount --rbind /dev "$SB/devhost"
	mount -t tmpfs -o mode=755 tmpfs /dev
	local e n
	for e in "$SB/devhost"/* "$SB/devhost"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		n=/dev/${e##*/}
		if [ -L "$e" ]; then
			cp -a "$e" "$n"
		elif [ -d "$e" ]; then
			mkdir -p "$n" && mount --rbind "$e" "$n"
		else
			touch "$n" && mount --bind "$e" "$n"
		fi
	done
	# A bound /dev/ptmx would open the host's devpts through a path it cannot
	# find from here: a devpts of the namespace's own, as containers have.
	umount -l /dev/pts
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5 devpts /dev/pts
	umount /dev/ptmx
	rm -f /dev/ptmx
	ln -s pts/ptmx /dev/ptmx
	CAP=$SB/syslog.cap
	: >"$CAP"
	python3 "$abs_top_srcdir/tests/integration/syslog_listener.py" /dev/log "$CAP" >"$SB/listener.out" &
	LISTENER=$!
	for _ in $(seq 100); do grep -q READY "$SB/listener.out" 2>/dev/null && break; sleep 0.05; done
}

# sandbox_proc_hidepid [GROUP]: a /proc of this namespace's own with
# hidepid=invisible over the host's, so that a clean host's check has
# nothing to say (ruas check warns while every user can read every agent's
# command line); GROUP's members still see every process (proc(5) gid=),
# for a supervisor whose check must see the targets'. The host's /proc is
# untouched.
sandbox_proc_hidepid() {
	sandbox_guard
	local opts=hidepid=invisible
	[ $# -gt 0 ] && opts="$opts,gid=$(getent group "$1" | cut -d: -f3)"
	mount -t proc -o "$opts" proc /proc
}

# as_user_bg USER CMD...: as_user in the background; BGPID is the command's own pid.
as_user_bg() {
	local u=$1
	shift
	local home
	home=$(getent passwd "$u" | cut -d: -f6)
	(exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" USER="$u" LOGNAME="$u" \
		LANG=C.UTF-8 LD_LIBRARY_PATH="$LIBDIR" "${EXTRA_ENV[@]}" \
		setpriv --reuid="$u" --regid="$u" --init-groups -- "$@") &
	BGPID=$!
}

# as_user USER CMD...: run as USER with its groups and a clean environment,
# as a supervisor service would be started.
as_user() {
	local u=$1
	shift
	local home
	home=$(getent passwd "$u" | cut -d: -f6)
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" USER="$u" LOGNAME="$u" \
		LANG=C.UTF-8 LD_LIBRARY_PATH="$LIBDIR" "${EXTRA_ENV[@]}" \
		setpriv --reuid="$u" --regid="$u" --init-groups -- "$@"
}

# run_as USER ARGS...: runs ruas ($RUAS) as USER; sets RC, OUT, ERR.
run_as() {
	local u=$1
	shift
	as_user "$u" "$RUAS" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
run_sup() { run_as sup "$@"; }

# consumer_flags: pkg-config's flags for the staged install ($SB/dest) in
# CONSUMER_FLAGS; sets RC, OUT and ERR for an expect.
consumer_flags() {
	CONSUMER_FLAGS=$(PKG_CONFIG_PATH="$SB/dest$RUAS_LIBDIR/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$SB/dest" \
		pkg-config --cflags --libs ruas 2>&1)
	RC=$? OUT=$CONSUMER_FLAGS ERR=""
}
# consumer_build NAME SOURCES...: $SB/bin/NAME, an outside program built with
# nothing but CONSUMER_FLAGS and the build's own flags (as tests/pkgconfig.sh:
# a sanitizer build's program must link the same runtime), readable by the
# sandbox's users; sets RC, OUT and ERR for an expect.
consumer_build() {
	local name=$1
	shift
	mkdir -p "$SB/bin"
	# shellcheck disable=SC2086
	ERR=$(cc -std=c11 -Wall -Wextra -Werror -pthread ${RUAS_BUILD_CFLAGS:-} "$@" $CONSUMER_FLAGS \
		${RUAS_BUILD_LDFLAGS:-} -o "$SB/bin/$name" 2>&1)
	RC=$? OUT=""
	chmod -R a+rX "$SB/bin"
}

# go_setup: the environment of a cgo build against the staged install ($SB/dest),
# with a cache of its own, no network and no third-party module; gobuild NAME
# DIR SUBCOMMAND ARGS...: go SUBCOMMAND -o $SB/bin/NAME ARGS in DIR, setting RC,
# OUT and ERR for an expect.
go_setup() {
	export GOCACHE="$SB/gocache" GOPATH="$SB/gopath" GOPROXY=off GOFLAGS="" GO111MODULE=on CGO_ENABLED=1
	export PKG_CONFIG_PATH="$SB/dest$RUAS_LIBDIR/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$SB/dest"
	# A sanitizer build's library needs its runtime in the program too (as
	# consumer_build): its flags for every cgo link, its objects (LIBS) for the
	# final one alone, where cgo would link them once per cgo package.
	GO_CGO_LD=() GO_EXT_LD=()
	local w
	for w in ${RUAS_BUILD_LDFLAGS:-}; do
		case $w in
		-*) GO_CGO_LD+=("$w") ;;
		*) GO_EXT_LD+=("$w") ;;
		esac
	done
	export CGO_CFLAGS="-g -O2 ${RUAS_BUILD_CFLAGS:-}" CGO_LDFLAGS="${GO_CGO_LD[*]}"
	mkdir -p "$SB/bin"
}
gobuild() {
	local name=$1 dir=$2 sub=$3
	shift 3
	ERR=$(cd "$dir" && go "$sub" -o "$SB/bin/$name" -ldflags="-extldflags '${GO_EXT_LD[*]}'" "$@" 2>&1)
	RC=$? OUT=""
}

# py_sanitizer_env: in PY_SAN_ENV, what python3 (not built with a sanitizer)
# needs to load a sanitizer build's library: its runtime first, and Python's
# own allocations at exit left out of the leak check.
py_sanitizer_env() {
	PY_SAN_ENV=()
	case " ${RUAS_BUILD_CFLAGS:-} " in
	*-fsanitize=*address*)
		PY_SAN_ENV=(LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0)
		;;
	esac
}

# A libconfig string literal for any bytes.
cfgstr() {
	printf '%s' "$1" | perl -0777 -pe 's/([\\"])/\\$1/g; s/\n/\\n/g; s/\t/\\t/g; s/([\x00-\x1f\x7f])/sprintf("\\x%02x",ord $1)/ge; $_ = "\"$_\""'
}
