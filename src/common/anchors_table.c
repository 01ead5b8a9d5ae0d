/* SPDX-License-Identifier: ISC */
/*
 * anchors_table.c - the trust anchors, as data (see anchors.h). Keep
 * docs/security.md's table in step: tests/unit/test_anchors.c checks that
 * every path and id here appears there.
 */
#include "anchors.h"

#include <string.h>

#define WHY_SUDOERS "sudo's rules: whoever writes them chooses who runs what as root"
#define WHY_USERS "the user and group database: a line with uid or gid 0 is root"
#define WHY_SHADOW "the password hashes: a known hash for root is a root login"
#define WHY_PAM "PAM's configuration: it decides who logs in and whether su and sudo " \
		"ask for a password"
#define WHY_LD "the dynamic loader's configuration: every program root runs loads " \
	       "what it names"
#define WHY_LOGIN "read by root's login shells (su -, sudo -i) and by every login"
#define WHY_CRON "cron runs what it holds, as root or as any user"
#define WHY_SYSTEMD "systemd starts the units defined there, as root"
#define WHY_INIT "init scripts, run as root at boot"
#define WHY_PATH "a directory in root's PATH or sudo's secure_path: a program put " \
		 "there runs as root when root types its name"
#define WHY_DISK "a raw disk: whoever reads it reads every file (/etc/shadow too), " \
		 "whoever writes it rewrites them"
#define WHY_MEM "the machine's memory or I/O ports: reading or writing it is root"
#define WHY_LIBS "the shared libraries and the dynamic loader that every program " \
		 "root runs loads"
#define WHY_CONSOLE "the system console: whoever reads it sees what is typed there, " \
		    "whoever writes it types into root's console session"
#define FIX_GROUP_ROOT "membership in the group that owns it is root by design"

const struct anchor_def anchor_table[] = {
	{"/etc/sudoers", ANCHOR_FILE, 0, 0, "sudoers", WHY_SUDOERS, NULL},
	{"/etc/sudoers.d", ANCHOR_TREE, 1, 0, "sudoers", WHY_SUDOERS, NULL},
	{"/etc/sudo.conf", ANCHOR_FILE, 0, 0, "sudo-conf",
	 "names the plugins that sudo loads as root", NULL},
	{"/usr/libexec/sudo", ANCHOR_TREE, 1, 0, "sudo-plugins",
	 "sudo's plugins and helpers, loaded or run by sudo as root", NULL},
	{"/usr/lib/sudo", ANCHOR_TREE, 1, 0, "sudo-plugins", NULL, NULL},
	{NULL, ANCHOR_FILE, 0, 0, "sudo", "sudo itself, set-user-ID root", NULL},
	{"/etc/passwd", ANCHOR_FILE, 0, 0, "users", WHY_USERS, NULL},
	{"/etc/group", ANCHOR_FILE, 0, 0, "users", WHY_USERS, NULL},
	{"/etc/shadow", ANCHOR_FILE, 0, 0, "shadow", WHY_SHADOW, NULL},
	{"/etc/gshadow", ANCHOR_FILE, 0, 0, "shadow", WHY_SHADOW, NULL},
	{"/etc/nsswitch.conf", ANCHOR_FILE, 0, 0, "nss",
	 "names the modules that every program, root's too, loads to look up users",
	 NULL},
	{"/etc/pam.d", ANCHOR_TREE, 1, 0, "pam", WHY_PAM, NULL},
	{"/etc/security", ANCHOR_TREE, 2, 0, "pam", WHY_PAM, NULL},
	{"/usr/lib/*/security", ANCHOR_TREE, 1, 0, "pam-modules",
	 "the PAM modules that root's logins, su and sudo load", NULL},
	{"/etc/ld.so.preload", ANCHOR_FILE, 0, 0, "ld", WHY_LD, NULL},
	{"/etc/ld.so.conf", ANCHOR_FILE, 0, 0, "ld", WHY_LD, NULL},
	{"/etc/ld.so.conf.d", ANCHOR_TREE, 1, 0, "ld", WHY_LD, NULL},
	{"/etc/ld.so.cache", ANCHOR_FILE, 0, 0, "ld", WHY_LD, NULL},
	/* A glob also matches /lib/... through a merged-/usr symlink: walked once. */
	{"/lib64", ANCHOR_TREE, 1, 0, "libs", WHY_LIBS, NULL},
	{"/usr/lib64", ANCHOR_TREE, 1, 0, "libs", WHY_LIBS, NULL},
	{"/usr/lib/*-linux-gnu", ANCHOR_TREE, 1, 0, "libs", WHY_LIBS, NULL},
	{"/lib/*-linux-gnu", ANCHOR_TREE, 1, 0, "libs", WHY_LIBS, NULL},
	{"/etc/environment", ANCHOR_FILE, 0, 0, "login", WHY_LOGIN, NULL},
	{"/etc/profile", ANCHOR_FILE, 0, 0, "login", WHY_LOGIN, NULL},
	{"/etc/profile.d", ANCHOR_TREE, 1, 0, "login", WHY_LOGIN, NULL},
	{"/etc/bash.bashrc", ANCHOR_FILE, 0, 0, "login", WHY_LOGIN, NULL},
	{"/etc/login.defs", ANCHOR_FILE, 0, 0, "login-defs",
	 "sets root's PATH (ENV_SUPATH) and how accounts are made", NULL},
	{"/etc/crontab", ANCHOR_FILE, 0, 0, "cron", WHY_CRON, NULL},
	{"/etc/anacrontab", ANCHOR_FILE, 0, 0, "cron", WHY_CRON, NULL},
	{"/etc/cron.d", ANCHOR_TREE, 1, 0, "cron", WHY_CRON, NULL},
	{"/etc/cron.hourly", ANCHOR_TREE, 1, 0, "cron", WHY_CRON, NULL},
	{"/etc/cron.daily", ANCHOR_TREE, 1, 0, "cron", WHY_CRON, NULL},
	{"/etc/cron.weekly", ANCHOR_TREE, 1, 0, "cron", WHY_CRON, NULL},
	{"/etc/cron.monthly", ANCHOR_TREE, 1, 0, "cron", WHY_CRON, NULL},
	{"/var/spool/cron", ANCHOR_TREE, 2, ANCHOR_SKIP_SELF, "cron", WHY_CRON, NULL},
	{"/etc/systemd/system", ANCHOR_TREE, 2, 0, "systemd", WHY_SYSTEMD, NULL},
	{"/usr/lib/systemd/system", ANCHOR_TREE, 1, 0, "systemd", WHY_SYSTEMD, NULL},
	{"/run/systemd/system", ANCHOR_TREE, 2, 0, "systemd", WHY_SYSTEMD, NULL},
	{"/etc/systemd/system-generators", ANCHOR_TREE, 1, 0, "systemd", WHY_SYSTEMD, NULL},
	{"/etc/systemd/*.conf", ANCHOR_FILE, 0, 0, "systemd", WHY_SYSTEMD, NULL},
	{"/etc/systemd/*.conf.d", ANCHOR_TREE, 1, 0, "systemd", WHY_SYSTEMD, NULL},
	{"/etc/init.d", ANCHOR_TREE, 1, 0, "init", WHY_INIT, NULL},
	{"/etc/rc.local", ANCHOR_FILE, 0, 0, "init", WHY_INIT, NULL},
	{"/etc/rc?.d", ANCHOR_TREE, 1, 0, "init", WHY_INIT, NULL},
	{"/etc/default", ANCHOR_TREE, 1, 0, "defaults",
	 "settings that init scripts, cron jobs and package scripts source as root "
	 "shell code", NULL},
	{"/etc/modprobe.d", ANCHOR_TREE, 1, 0, "modprobe",
	 "modprobe's configuration: an install line is a command the kernel's "
	 "module loader runs as root", NULL},
	{"/etc/udev/rules.d", ANCHOR_TREE, 1, 0, "udev",
	 "udev's rules: a RUN key is a command udevd runs as root", NULL},
	{"/etc/sysctl.conf", ANCHOR_FILE, 0, 0, "sysctl",
	 "kernel settings applied as root at boot (core_pattern runs a program "
	 "as root)", NULL},
	{"/etc/sysctl.d", ANCHOR_TREE, 1, 0, "sysctl", NULL, NULL},
	{"/etc/update-motd.d", ANCHOR_TREE, 1, 0, "motd",
	 "scripts that pam_motd runs as root at every login", NULL},
	{"/etc/apt/apt.conf.d", ANCHOR_TREE, 1, 0, "apt",
	 "apt's configuration and sources: hooks run as root, packages installed "
	 "as root", NULL},
	{"/etc/apt/sources.list", ANCHOR_FILE, 0, 0, "apt", NULL, NULL},
	{"/etc/apt/sources.list.d", ANCHOR_TREE, 1, 0, "apt", NULL, NULL},
	{"/etc/logrotate.d", ANCHOR_TREE, 1, 0, "logrotate",
	 "logrotate's configuration: its scripts run as root", NULL},
	{"/etc/polkit-1/rules.d", ANCHOR_TREE, 1, 0, "polkit",
	 "polkit's rules: they decide who may act as root without a password", NULL},
	{"/etc/gitconfig", ANCHOR_FILE, 0, 0, "gitconfig",
	 "git's system configuration: core.fsmonitor and hooks run as whoever "
	 "runs git, root too", NULL},
	{"/etc/ssh/sshd_config", ANCHOR_FILE, 0, 0, "sshd",
	 "sshd's configuration: it decides who logs in, as root too", NULL},
	{"/etc/ssh/sshd_config.d", ANCHOR_TREE, 1, 0, "sshd", NULL, NULL},
	{"/root", ANCHOR_TREE, 1, 0, "root-home",
	 "root's home: its shell startup files and ~/.ssh", NULL},
	/* Root's default PATH; the helper adds login.defs' and sudo's secure_path. */
	{"/usr/local/sbin", ANCHOR_TREE, 1, 0, "root-path", WHY_PATH, NULL},
	{"/usr/local/bin", ANCHOR_TREE, 1, 0, "root-path", WHY_PATH, NULL},
	{"/usr/sbin", ANCHOR_TREE, 1, 0, "root-path", WHY_PATH, NULL},
	{"/usr/bin", ANCHOR_TREE, 1, 0, "root-path", WHY_PATH, NULL},
	{"/sbin", ANCHOR_TREE, 1, 0, "root-path", WHY_PATH, NULL},
	{"/bin", ANCHOR_TREE, 1, 0, "root-path", WHY_PATH, NULL},
	/* Filled at run time (anchors_known() and src/helper/exec/anchor_probe.c). */
	{NULL, ANCHOR_FILE, 0, 0, "helper",
	 "a ruas helper: it runs as the target and, in the pam backend, as root", NULL},
	{NULL, ANCHOR_FILE, 0, 0, "supervisor-program",
	 "the supervisor's own program", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "secure-path", WHY_PATH, NULL},
	{NULL, ANCHOR_FILE, 0, 0, "sudo-allowed",
	 "a program that target_sudo_allowed lets the target run as another user "
	 "without a password: whoever writes it runs anything as that user", NULL},
	{NULL, ANCHOR_FILE, 0, ANCHOR_SUPERVISOR, "config",
	 "the ruas configuration: it names the users, commands and sudo that the "
	 "supervisor runs", NULL},
	{NULL, ANCHOR_DIR, 0, ANCHOR_SUPERVISOR | ANCHOR_STICKY_OK, "config-dir",
	 "the directory of the ruas configuration: whoever writes it can put "
	 "another configuration in place", NULL},
	{NULL, ANCHOR_DIR, 0, ANCHOR_SUPERVISOR, "supervisor-home",
	 "the supervisor's home: whoever writes it plants a .bashrc or "
	 "~/.ssh/authorized_keys", NULL},
	{NULL, ANCHOR_TREE, 1, ANCHOR_SUPERVISOR, "supervisor-dot",
	 "the supervisor's startup files and settings (shell, ssh, git, tools), run "
	 "or trusted when it logs in", NULL},
	{NULL, ANCHOR_DIR, 0, ANCHOR_SUPERVISOR | ANCHOR_CAPPED, "supervisor-dot-more",
	 "the supervisor's home has more dot entries than ruas sends to the helper "
	 "(128): the rest were not judged", "move or remove the dot entries the "
	 "supervisor does not need"},
	/*
	 * The trees the library walks whole (src/lib/host/trees.h): what the
	 * table above does not name still gets a why, by its tree.
	 */
	{NULL, ANCHOR_DIR, 0, 0, "tree-etc",
	 "the host's configuration, which root's programs and services read and much "
	 "of which names code they run (fstab's mounts, logrotate's scripts, tmpfiles, "
	 "apt's hooks, Python's and Perl's settings)", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "tree-usr",
	 "the programs, libraries and modules that root runs, loads or imports "
	 "(/usr/local too)", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "tree-boot",
	 "the kernel, its initramfs and the boot loader's configuration", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "tree-opt",
	 "software installed for the whole host, run by root and its services", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "tree-dpkg",
	 "the package database: its maintainer scripts run as root at every install, "
	 "upgrade and removal", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "tree-cron",
	 "cron's and at's spools: cron runs each crontab as the user it is named "
	 "after, root's as root", NULL},
	{NULL, ANCHOR_DIR, 0, 0, "tree-ld",
	 "a directory that ld.so.conf names: every program root runs may load a "
	 "library from there", NULL},
	/* Daemons that run as root and do what whoever connects asks. */
	{"/run/docker.sock", ANCHOR_SOCKET, 0, 0, "docker",
	 "the Docker daemon's socket: whoever connects runs containers as root",
	 FIX_GROUP_ROOT},
	{"/var/run/docker.sock", ANCHOR_SOCKET, 0, 0, "docker", NULL, NULL},
	{"/run/containerd/containerd.sock", ANCHOR_SOCKET, 0, 0, "containerd",
	 "containerd's socket: whoever connects runs containers as root", NULL},
	{"/run/podman/podman.sock", ANCHOR_SOCKET, 0, 0, "podman",
	 "rootful Podman's socket: whoever connects runs containers as root", NULL},
	{"/var/lib/lxd/unix.socket", ANCHOR_SOCKET, 0, 0, "lxd",
	 "the LXD or Incus daemon's socket: whoever connects runs privileged "
	 "containers", FIX_GROUP_ROOT},
	{"/var/snap/lxd/common/lxd/unix.socket", ANCHOR_SOCKET, 0, 0, "lxd", NULL, NULL},
	{"/var/lib/incus/unix.socket", ANCHOR_SOCKET, 0, 0, "lxd", NULL, NULL},
	{"/run/incus/unix.socket", ANCHOR_SOCKET, 0, 0, "lxd", NULL, NULL},
	{"/run/libvirt/libvirt-sock", ANCHOR_SOCKET, 0, 0, "libvirt",
	 "libvirtd's read-write socket: whoever connects runs VMs with host devices "
	 "and files", FIX_GROUP_ROOT},
	{"/var/run/libvirt/libvirt-sock", ANCHOR_SOCKET, 0, 0, "libvirt", NULL, NULL},
	/* Raw disks and memory: readable is as bad as writable. */
	{"/dev/sd*", ANCHOR_DEVICE, 0, 0, "disk", WHY_DISK, FIX_GROUP_ROOT},
	{"/dev/vd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/xvd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/hd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/nvme*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/mmcblk*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/dm-*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/md*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/loop*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/sg*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/zram*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/nbd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/sr*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/ram*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/mtd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/pmem*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/rbd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/bcache*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/drbd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/ubd*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/bsg/*", ANCHOR_DEVICE, 0, 0, "disk", NULL, NULL},
	{"/dev/mem", ANCHOR_DEVICE, 0, 0, "memory", WHY_MEM, NULL},
	{"/dev/kmem", ANCHOR_DEVICE, 0, 0, "memory", NULL, NULL},
	{"/dev/port", ANCHOR_DEVICE, 0, 0, "memory", NULL, NULL},
	{"/dev/cpu/*/msr", ANCHOR_DEVICE, 0, 0, "memory", NULL, NULL},
	{"/dev/console", ANCHOR_DEVICE, 0, 0, "console", WHY_CONSOLE, NULL},
	{"/dev/tty0", ANCHOR_DEVICE, 0, 0, "console", NULL, NULL},
	{"/dev/vcs*", ANCHOR_DEVICE, 0, 0, "console", NULL, NULL},
	{"/dev/uinput", ANCHOR_DEVICE, 0, 0, "uinput",
	 "makes virtual keyboards and mice: whoever writes it types into root's "
	 "sessions", NULL},
};

const size_t anchor_table_len = sizeof anchor_table / sizeof *anchor_table;

const struct anchor_def *anchor_by_id(const char *id)
{
	for (size_t i = 0; i < anchor_table_len; i++)
		if (strcmp(anchor_table[i].id, id) == 0)
			return &anchor_table[i];
	return NULL;
}
