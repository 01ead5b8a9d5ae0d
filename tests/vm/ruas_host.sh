# SPDX-License-Identifier: ISC
# ruas_host.sh - sourced by the guest scripts that run ruas in the VM
# (limits_guest.sh, bench/vm_guest.sh): a host like the sandboxes', with
# a supervisor "sup" that may sudo to the target "t1", the pam backend's
# service file, and sup's systemd service as Delegate= leaves it
# (ruas-setup(8) DELEGATE). Needs dest, sysconfdir, sup_uid and t1_uid;
# sets C (the cgroup v2 mount) and D (sup's service's cgroup).
C=/sys/fs/cgroup
# The guest's /etc is a throwaway overlay.
printf 'Defaults !syslog\n' >/etc/sudoers.d/zz-nolog
chmod 0440 /etc/sudoers.d/zz-nolog
find /etc/sudoers.d -maxdepth 1 -type f ! -name zz-nolog ! -name README -delete
useradd -u "$sup_uid" -U -m -s /bin/bash sup || exit 1
useradd -u "$t1_uid" -U -m -s /bin/bash t1 || exit 1
printf 'sup ALL=(t1) NOPASSWD: ALL\n' >/etc/sudoers.d/ruas-sup
chmod 0440 /etc/sudoers.d/ruas-sup
install -m 644 "$dest$sysconfdir/pam.d/ruas" /etc/pam.d/ruas
mkdir -m 0755 /etc/ruas-vm
# The work_dir of every project: the target's, nothing of root's in it.
mkdir -m 0755 /srv/work && chown t1: /srv/work

# sup's service as systemd's Delegate=yes leaves it (ruas-setup delegate):
# the service's cgroup and its files are sup's, its controllers available
# but none handed down. sup moves itself into the leaf "supervisor" as it
# starts (what DelegateSubgroup=supervisor does on systemd 254 and later),
# and its runs go beside that leaf: cgroup_parent is the service's cgroup.
D=$C/sup.service
mkdir "$D" || exit 1
chown sup: "$D" "$D/cgroup.procs" "$D/cgroup.subtree_control" "$D/cgroup.threads"

sup_env() { setpriv --reuid sup --regid sup --init-groups env -i PATH=/usr/bin:/bin \
	HOME=/home/sup USER=sup LOGNAME=sup LANG=C.UTF-8 LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$@"; }
# sup's service starts in its cgroup, as systemd starts it (as root), and
# moves itself into its leaf, as ruas-setup(8) DELEGATE says to; prints
# the cgroup it is in then.
sup_service_start() {
	(echo $BASHPID >"$D/cgroup.procs" &&
		sup_env bash -c 'mkdir "$1/supervisor" && echo 0 >"$1/supervisor/cgroup.procs" &&
			cat /proc/self/cgroup' _ "$D")
}
# as_sup CMD...: as a process of that supervisor, in its leaf.
as_sup() {
	(echo $BASHPID >"$D/supervisor/cgroup.procs" && sup_env "$@")
}
