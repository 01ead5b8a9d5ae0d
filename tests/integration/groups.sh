#!/bin/bash
# SPDX-License-Identifier: ISC
# Integration tests for the groups a target must not be in (issue 11 part 3):
# real users and groups, real sudo, ruas check, ruas-setup check and the
# script that ruas-setup useradd prints; and for the variables that
# env_allowlist refuses (part 5). Inside the private-namespace sandbox (see
# sandbox.sh); needs root.
. "${abs_top_srcdir:?run this through make check}/tests/integration/sandbox.sh" || exit 99
sandbox_need_root "tests/integration/groups.sh"
sandbox_enter "$0" "$@"
SANDBOX_ID_BASE=27000
sandbox_setup
sandbox_guard
# A clean host says nothing: not even that /proc shows command lines.
sandbox_proc_hidepid
set -u
EXTRA_ENV=()
SETUP="$SB/dest$RUAS_SBINDIR/ruas-setup"
export LD_LIBRARY_PATH="$LIBDIR"

. "$abs_top_srcdir/tests/integration/tap.sh"
conf() { # NAME: config from stdin, helper preset
	local f="$SB/conf/$1.conf"
	mkdir -p "$SB/conf"
	{ printf 'helper = %s;\n' "$(cfgstr "$HELPER")"; cat; } >"$f"
	chmod 644 "$f"
	CONF=$f
}
# A work_dir of its own: /tmp of the sandbox holds the checkout when it lives
# under /tmp, maybe in a 0700 directory, which the scan would rightly report.
mkdir -p "$SB/gw"
chmod 755 "$SB/gw"
check_target() { # USER: ruas check of one project that runs as USER
	conf "$1" <<EOC
projects = ( { name = "p"; run_as_user = "$1"; work_dir = "$SB/gw"; command = ["true"]; } );
EOC
	run_sup check -c "$CONF"
}
setup() { # ARGS...: ruas-setup as root; sets RC, OUT, ERR
	"$SETUP" "$@" >"$SB/out" 2>"$SB/err" </dev/null
	RC=$?
	OUT=$(cat "$SB/out")
	ERR=$(cat "$SB/err")
}

# ------------------------------------------------------------------ users
sandbox_guard
for g in kmem disk adm; do
	getent group "$g" >/dev/null || groupadd -r "$g"
done
sandbox_user sup
for u in gok groot gzero gkmem gdisk gadm; do sandbox_user "$u"; done
usermod -g root groot        # primary group gid 0
usermod -aG root gzero       # gid 0 as a supplementary group
usermod -aG kmem gkmem
usermod -aG disk gdisk
usermod -aG adm gadm
rules=()
# As ruas-setup provisions them: each may list its own rules (check 2 is then silent).
for u in gok groot gzero gkmem gdisk gadm; do rules+=("sup ALL=($u) NOPASSWD: ALL" "Defaults:$u listpw=never"); done
sandbox_sudoers ruas-sup "${rules[@]}"

# ------------------------------------------------------------------ ruas check
check_target gok
expect "a target without risky groups passes" test "$RC" = 0
expect "... with no groups finding" hasnt "$ERR" "is a member of"

check_target groot
expect "primary group root (gid 0): exit 1" test "$RC" = 1
expect "... an error naming gid 0" has "$ERR" 'ERROR: project "p": target user "groot" is a member of root (gid 0), which give root without a password.'
expect "... saying it is the primary group, and why" has "$ERR" "  root (gid 0), its primary group: gid 0 is root's own group"
expect "... and the fix, usermod -g" has "$ERR" '  usermod -g groot groot '

check_target gzero
expect "supplementary gid 0: exit 1" test "$RC" = 1
expect "... an error naming gid 0" has "$ERR" 'target user "gzero" is a member of root (gid 0), which give root without a password.'
expect "... and the fix, gpasswd -d" has "$ERR" '  gpasswd -d gzero root'

check_target gkmem
expect "group kmem: exit 1" test "$RC" = 1
expect "... an error naming kmem and why" has "$ERR" 'ERROR: project "p": target user "gkmem" is a member of kmem, which give root without a password.
  kmem: its members read kernel memory'
expect "... and the fix" has "$ERR" '  gpasswd -d gkmem kmem'
expect "... no warning for it" hasnt "$ERR" "WARNING"

check_target gdisk
expect "group disk: exit 1" test "$RC" = 1
expect "... an error naming disk" has "$ERR" 'target user "gdisk" is a member of disk, which give root without a password.
  disk: its members read and write the raw disks'

check_target gadm
expect "group adm: a warning, exit 0" test "$RC" = 0
expect "... with the contract text" has "$ERR" 'WARNING: project "p": target user "gadm" is a member of adm, which give root or its equivalent (some without a password).'
expect "... why" has "$ERR" "  adm: its members read the system logs"
expect "... and the fix" has "$ERR" 'Remove it from them, for example: gpasswd -d gadm GROUP'
expect "... no error" hasnt "$ERR" "ERROR"

run_sup check -c "$SB/conf/gkmem.conf" --json
expect "--json: kmem is an error with check groups" perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); my $p = $j->{projects}[0]; exit((!$j->{ok} && @{$p->{errors}} == 1 && $p->{errors}[0]{check} eq "groups" && $p->{errors}[0]{message} =~ /member of kmem/) ? 0 : 1)' <"$SB/out"

# ------------------------------------------------------------------ ruas-setup check
setup check --target gkmem --helper "$HELPER"
expect "ruas-setup check: kmem, exit 1" test "$RC" = 1
expect "... the library's error" has "$ERR" 'ERROR: target user "gkmem" is a member of kmem, which give root without a password.'
setup check --target groot --helper "$HELPER"
expect "ruas-setup check: primary gid 0, exit 1" test "$RC" = 1
setup check --target gadm --helper "$HELPER"
expect "ruas-setup check: adm, exit 0 with a warning" test "$RC" = 0
expect "... the warning" has "$ERR" 'WARNING: target user "gadm" is a member of adm'

# ------------------------------------------------------------------ useradd script
script() { # USER: the useradd script for USER, run; sets RC, ERR
	"$SETUP" useradd --target "$1" >"$SB/useradd-$1.sh"
	sh "$SB/useradd-$1.sh" >"$SB/out" 2>"$SB/err"
	RC=$? OUT=$(cat "$SB/out") ERR=$(cat "$SB/err")
}
script gkmem
expect "useradd: an existing user in kmem is refused" test "$RC" = 1
expect "... with the message" has "$ERR" "user gkmem is in group kmem, which gives root; remove it (gpasswd -d gkmem kmem) and run this again"
expect "... and why" has "$ERR" "its members read kernel memory"
script gdisk
expect "useradd: an existing user in disk is refused" test "$RC" = 1
expect "... with the message" has "$ERR" "user gdisk is in group disk, which gives root"
script groot
expect "useradd: an existing user with primary gid 0 is refused" test "$RC" = 1
expect "... with the message" has "$ERR" "user groot has gid 0 (root) as its primary group, which gives root; give it a group of its own"
script gzero
expect "useradd: an existing user in gid 0 is refused" test "$RC" = 1
expect "... with the message" has "$ERR" "user gzero is in group root, which gives root; remove it (gpasswd -d gzero root) and run this again"
script gadm
# The script has always refused sudo, wheel, admin and shadow; now every group of the table.
expect "useradd: an existing user in adm is refused too (a dedicated target needs none)" test "$RC" = 1
expect "... saying so" has "$ERR" "user gadm is in group adm, which a dedicated target does not need; remove it (gpasswd -d gadm adm) and run this again"
expect "... and why" has "$ERR" "its members read the system logs"
script gok
expect "useradd: an existing plain user is kept" test "$RC" = 0
expect "... without a group warning" hasnt "$ERR" "in group"

# gid 0 under another name, named with shell syntax: refused by number.
# groupmod refuses such a name; the group file takes it.
sandbox_guard
cp -a /etc/group "$SB/group.orig"
sed -i 's/^root:/r$(touch pwned):/' /etc/group
expect "the hostile name is in place" test "$(getent group 0 | cut -d: -f1)" = 'r$(touch pwned)'
script gzero
expect "useradd: gid 0 under a hostile name is refused" test "$RC" = 1
expect "... naming it verbatim" has "$ERR" 'user gzero is in group r$(touch pwned), which gives root'
expect "... and nothing it names ran" test ! -e pwned -a ! -e "$SB/pwned"
check_target gzero
expect "ruas check: gid 0 under a hostile name is fatal" test "$RC" = 1
expect "... the fix quoted for the shell" has "$ERR" "  gpasswd -d gzero 'r\$(touch pwned)'"
cp -a "$SB/group.orig" /etc/group

# ------------------------------------------------------------------ env_allowlist
# Names that make the target's tools run code: refused at load (exit 2),
# naming the variable and why; nothing runs.
for v in GIT_SSH_COMMAND GIT_CONFIG_GLOBAL GIT_CONFIG_COUNT PAGER EDITOR LESSOPEN \
	XDG_CONFIG_HOME PYTHONWARNINGS OPENSSL_CONF npm_config_script_shell \
	KUBECONFIG DOCKER_HOST CONTAINER_HOST DOCKER_CONFIG AWS_CONFIG_FILE SSH_AUTH_SOCK \
	DBUS_SESSION_BUS_ADDRESS; do
	conf "env-$v" <<EOC
projects = ( { name = "p"; run_as_user = "gok"; work_dir = "$SB/gw"; command = ["true"];
               env_allowlist = ["LANG", "$v"]; } );
EOC
	run_sup check -c "$CONF"
	expect "env_allowlist $v: refused at load, exit 2" test "$RC" = 2
	expect "... naming it and why" has "$ERR" "project \"p\": key \"env_allowlist\": \"$v\" "
done
expect "... GIT_SSH_COMMAND's reason" has "$(run_sup check -c "$SB/conf/env-GIT_SSH_COMMAND.conf"; echo "$ERR")" '"GIT_SSH_COMMAND" makes the target'"'"'s tools run a program it names (git runs it in place of ssh)'
expect "... KUBECONFIG's reason" has "$(run_sup check -c "$SB/conf/env-KUBECONFIG.conf"; echo "$ERR")" \
	'"KUBECONFIG" makes the target'"'"'s tools read code or configuration from elsewhere (kubectl and client-go read the files it lists, whose exec credential plugins are programs they run)'
expect "... DOCKER_HOST's reason" has "$(run_sup check -c "$SB/conf/env-DOCKER_HOST.conf"; echo "$ERR")" \
	'"DOCKER_HOST" points the target'"'"'s tools at a socket or service that is not the target'"'"'s own (docker talks to the daemon it names, and a daemon that runs as root is root to whoever reaches it)'
# ------------------------------------------------------------------ trusted trees
# (issue 25) A work_dir in, or above, a tree that root trusts is fatal, as
# written with its "..", and as it resolves through a symlink.
ln -sfn /usr/local "$SB/ulocal"
conf trusted <<EOC
projects = (
  { name = "dotdot"; run_as_user = "gok"; work_dir = "/srv/w1/../../etc"; command = ["true"]; },
  { name = "inside"; run_as_user = "gok"; work_dir = "/usr/local/src"; command = ["true"]; },
  { name = "above"; run_as_user = "gok"; work_dir = "/var"; command = ["true"]; },
  { name = "linked"; run_as_user = "gok"; work_dir = "$SB/ulocal"; command = ["true"]; },
  { name = "fine"; run_as_user = "gok"; work_dir = "$SB/gw"; command = ["true"]; }
);
EOC
run_sup check -c "$CONF"
expect "trusted trees: ruas check is fatal, exit 1" test "$RC" = 1
expect "... /srv/w1/../../etc is /etc" has "$ERR" 'ERROR: project "dotdot" work_dir "/srv/w1/../../etc" (that is "/etc") is /etc, which root and the system trust'
expect "... /usr/local/src lies inside /usr" has "$ERR" 'ERROR: project "inside" work_dir "/usr/local/src" lies inside /usr,'
expect "... /var lies above /var/lib/dpkg" has "$ERR" 'ERROR: project "above" work_dir "/var" lies above /var/lib/dpkg,'
expect "... a symlink to /usr/local, as it resolves" has "$ERR" "ERROR: project \"linked\" work_dir \"$SB/ulocal\" (that is \"/usr/local\") lies inside /usr,"
expect "... with the fix" has "$ERR" "Use a directory of the project's own, such as /srv/ruas/dotdot."
expect "... and not for a work_dir of its own" hasnt "$ERR" 'project "fine" work_dir'
rm -f "$SB/ulocal"

conf env-near <<EOC
projects = ( { name = "p"; run_as_user = "gok"; work_dir = "$SB/gw"; command = ["true"];
               env_allowlist = ["GIT_AUTHOR_NAME", "PYTHONUNBUFFERED", "JAVA_HOME", "AWS_REGION", "DOCKER_BUILDKIT"]; } );
EOC
run_sup check -c "$CONF"
expect "env_allowlist near misses (GIT_AUTHOR_NAME, PYTHONUNBUFFERED, JAVA_HOME, AWS_REGION, DOCKER_BUILDKIT) load" test "$RC" = 0

# ------------------------------------------------------------------ aliased gids
# A group of another name with disk's gid, placed before disk in /etc/group:
# getent group <gid> then names it, and a check by name alone lets it pass.
sandbox_user galias
cp -a /etc/group "$SB/group.orig2"
dg=$(getent group disk | cut -d: -f3)
sed -i "1i mydisk:x:$dg:galias" /etc/group
expect "the alias is what the gid resolves to" test "$(getent group "$dg" | cut -d: -f1)" = mydisk
script galias
expect "useradd: a user in an alias of disk's gid is refused" test "$RC" = 1
expect "... naming the alias and the group it aliases" has "$ERR" "user galias is in group mydisk (gid $dg, that of disk), which gives root"
cp -a "$SB/group.orig2" /etc/group
script galias
expect "useradd: without the alias the same user passes" test "$RC" = 0

tap_finish
