# SPDX-License-Identifier: ISC
# ansible_hosts.sh - two throwaway hosts for tests/integration/ansible.sh, and ansible-playbook
# run against them from one inventory.
#
# Host "one" is the sandbox itself (sandbox.sh). Host "two" is a second private
# mount namespace made from it, kept alive by a sleeping process, with its own
# copies of /etc, /home, /srv, /tmp, /var/log, /var/mail and /run/sudo; Ansible
# reaches it with connection local and a python interpreter that enters it
# (nsenter). Each host gets an overlay over the prefix, so that installs never
# reach the real one; host two has ruas installed before the role runs.

# uid ranges of the suite: host one 44000-44999, host two 45000-45999.
login_defs_range() {
	sed -i -E '/^[[:space:]]*(UID|GID)_(MIN|MAX)[[:space:]]/d' "$1/login.defs"
	printf 'UID_MIN %s\nUID_MAX %s\nGID_MIN %s\nGID_MAX %s\n' "$2" $(($2 + 999)) "$2" $(($2 + 999)) \
		>>"$1/login.defs"
}

# prefix_overlay NAME: this namespace's own writable layer over $PREFIX.
prefix_overlay() {
	local o="$SB/ovl-$1"
	mkdir -p "$o" "$PREFIX"
	mount -t tmpfs -o mode=0700 tmpfs "$o"
	mkdir "$o/up" "$o/work"
	mount -t overlay overlay -o "lowerdir=$PREFIX,upperdir=$o/up,workdir=$o/work" "$PREFIX"
}

# Host two's namespace, entered from host one's before anything is installed.
host_two_body() {
	set -e
	cp -a /etc "$SB/etc2"
	mount --bind "$SB/etc2" /etc
	login_defs_range /etc 45000
	mkdir -p "$SB/home2"
	mount --bind "$SB/home2" /home
	for d in /srv /var/log /var/mail; do mount -t tmpfs -o mode=0755 tmpfs "$d"; done
	mount -t tmpfs -o mode=1777 tmpfs /tmp
	# As sandbox_setup does: a tree under /tmp (make distcheck's) is bound back in.
	for d in "$abs_top_srcdir" "$abs_top_builddir"; do
		case "$d" in /tmp/*) mkdir -p "$d" && mount --bind "$SB/hosttmp/${d#/tmp/}" "$d" ;; esac
	done
	mount -t tmpfs -o mode=0711 tmpfs /run/sudo
	prefix_overlay two
	# A host where ruas was installed before the role runs (ruas_install: none).
	"${MAKE:-make}" -s -C "$abs_top_builddir" install >"$SB/install-two.log" 2>&1
	ldconfig
	echo ready >"$SB/two.ready"
	exec sleep 100000
}

hosts_setup() {
	sandbox_guard
	login_defs_range /etc 44000
	mount -t tmpfs -o mode=0755 tmpfs /srv
	export SB PREFIX abs_top_srcdir abs_top_builddir MAKE
	export -f host_two_body login_defs_range prefix_overlay
	unshare --mount --propagation private bash -c host_two_body &
	TWO=$!
	local i
	for i in $(seq 600); do
		[ -e "$SB/two.ready" ] && break
		kill -0 "$TWO" 2>/dev/null || break
		sleep 0.1
	done
	if [ ! -e "$SB/two.ready" ]; then
		cat "$SB/install-two.log" >&2 2>/dev/null
		echo "Bail out! host two's namespace did not come up" >&2
		exit 99
	fi
	TWO_NS=/proc/$TWO/ns/mnt
	if [ "$(readlink "$TWO_NS")" = "$(readlink /proc/self/ns/mnt)" ] ||
	   [ "$(readlink "$TWO_NS")" = "$(readlink /proc/1/ns/mnt)" ]; then
		echo "Bail out! host two is not a namespace of its own" >&2
		exit 99
	fi
	prefix_overlay one
	printf '#!/bin/sh\nexec nsenter --mount=%s -- /usr/bin/python3 "$@"\n' "$TWO_NS" >"$SB/two-python"
	chmod 755 "$SB/two-python"
}

hosts_teardown() {
	kill "$TWO" 2>/dev/null
	wait "$TWO" 2>/dev/null
}

# in_two CMD...: runs CMD on host two.
in_two() { nsenter --mount="$TWO_NS" -- "$@"; }
# host_as ENTER USER CMD...: as USER, as a service manager starts it, on the host that
# ENTER (nothing, or in_two) reaches, with the ruas installed there; sets RC, OUT, ERR.
host_as() {
	local enter=$1 u=$2
	shift 2
	$enter env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="/home/$u" USER="$u" LOGNAME="$u" \
		LANG=C.UTF-8 setpriv --reuid="$u" --regid="$u" --init-groups -- "$@" \
		>"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}
one_as() { host_as "" "$@"; }
two_as() { host_as in_two "$@"; }

# What check mode must not change: every file's type, mode, owner, size, time
# and content, and the ACLs, of /etc, /home, /srv and what was written under
# the prefix (its overlay's upper layer, $1).
snapshot() {
	find /etc /home /srv "$1" -printf '%p %y %m %u %g %s %T@ %l\n' 2>&1 | LC_ALL=C sort
	find /etc /home /srv "$1" -type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum
	getfacl -R -p -s /home /srv 2>/dev/null
}
snapshot_two() { in_two bash -c "$(declare -f snapshot); snapshot \"\$1\"" _ "$SB/ovl-two/up"; }
snapshot_file() { stat -c '%i %a %U %G' "$1" 2>&1; sha256sum <"$1" 2>&1; }

ansible_setup() {
	local a="$SB/ansible"
	mkdir -p "$a/home" "$a/local" "$a/remote"
	cat >"$a/ansible.cfg" <<EOF
[defaults]
roles_path = $ROLES
gathering = explicit
retry_files_enabled = False
local_tmp = $a/local
remote_tmp = $a/remote
forks = 2
nocolor = True
interpreter_python = /usr/bin/python3
[connection]
pipelining = True
EOF
	cat >"$a/site.yml" <<'EOF'
---
- name: Provision ruas hosts
  hosts: all
  gather_facts: false
  roles:
    - ruas
  post_tasks:
    - name: Use the check's report in a later task
      ansible.builtin.debug:
        msg: "ruas_check_report of {{ inventory_hostname }}: ok={{ ruas_check_report.ok }}
          projects={{ ruas_check_report.projects | length }}"
      when: ruas_check_report is defined
EOF
}

# The controller's environment: nothing of Ansible's under the real HOME.
ansible_env() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ANSIBLE_CONFIG="$SB/ansible/ansible.cfg" ANSIBLE_HOME="$SB/ansible/home" \
		HOME="$SB/ansible/home" LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 ANSIBLE_NOCOLOR=1 "$@"
}

# inventory FILE ONE_VARS TWO_VARS: both hosts, each with its YAML variables.
inventory() {
	{
		printf 'all:\n  hosts:\n    one:\n      ansible_connection: local\n'
		printf '      ansible_python_interpreter: /usr/bin/python3\n'
		sed 's/^/      /' <<<"$2"
		printf '    two:\n      ansible_connection: local\n'
		printf '      ansible_python_interpreter: %s\n' "$SB/two-python"
		sed 's/^/      /' <<<"$3"
	} >"$1"
}

# playbook ARGS...: ansible-playbook site.yml ARGS; sets RC, and OUT and PLAY to its output.
playbook() {
	(cd "$SB/ansible" && ansible_env ansible-playbook site.yml "$@") >"$SB/play.out" 2>&1
	RC=$?
	OUT=$(cat "$SB/play.out")
	PLAY=$OUT ERR=""
	echo "# ansible-playbook $*: exit $RC ($(date +%T))"
}

# recap HOST FIELD: the number in the last run's PLAY RECAP, such as changed or failed.
recap() {
	sed -n "s/^$1 *:.* $2=\([0-9]*\).*/\1/p" <<<"$PLAY" | tail -1
}
