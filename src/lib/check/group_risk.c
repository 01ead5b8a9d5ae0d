/* SPDX-License-Identifier: ISC */
/*
 * group_risk.c - the groups a target user must not be in, as data.
 *
 * One table for `ruas check` (account.c, through preflight.c) and for the
 * script that `ruas-setup useradd` prints (tools/ruas-setup/useradd.c, through
 * ruas_group_risk_at), so the two can never disagree. docs/security.md
 * lists the same entries; tests/unit/test_groups.c checks that it does.
 * Fatal: membership gives root without a password, by design of what the
 * group controls. Warning: it reads what belongs to other people, or gives
 * root only with a password (passwordless sudo is the escalation check's).
 */
#include "ruas.h"

#include <string.h>

struct group_rule {
	const char *name;
	ruas_severity severity;
	const char *why;
};

static const char gid0_why[] =
	"gid 0 is root's own group: its members read and write whatever is open "
	"to root's group, and programs that trust gid 0 treat them as root";

static const struct group_rule rules[] = {
	{"disk", RUAS_SEVERITY_FATAL,
	 "its members read and write the raw disks (/dev/sd*, /dev/nvme*...), and "
	 "so every file, /etc/shadow and /etc/sudoers included"},
	{"kmem", RUAS_SEVERITY_FATAL,
	 "its members read kernel memory (/dev/kmem, /dev/mem, /dev/port where "
	 "present), with every process's secrets in it"},
	{"docker", RUAS_SEVERITY_FATAL,
	 "its members control the Docker daemon, which runs as root: "
	 "docker run -v /:/host gives a root shell on the host"},
	{"lxd", RUAS_SEVERITY_FATAL,
	 "its members control the LXD daemon, which runs as root: a privileged "
	 "container with the host's / mounted gives root"},
	{"incus", RUAS_SEVERITY_FATAL,
	 "its members reach the Incus daemon, which runs as root, and only its "
	 "restricted per-user projects stand between them and root"},
	{"incus-admin", RUAS_SEVERITY_FATAL,
	 "its members control the Incus daemon, which runs as root: a privileged "
	 "container with the host's / mounted gives root"},
	{"libvirt", RUAS_SEVERITY_FATAL,
	 "its members control libvirt's system daemon, which runs as root: a "
	 "virtual machine or storage pool on the host's disks gives root"},
	{"shadow", RUAS_SEVERITY_WARNING,
	 "its members read /etc/shadow, every account's password hash"},
	{"adm", RUAS_SEVERITY_WARNING,
	 "its members read the system logs in /var/log, with other users' "
	 "commands, addresses and at times secrets"},
	{"systemd-journal", RUAS_SEVERITY_WARNING,
	 "its members read the whole system journal, every service's and user's "
	 "log"},
	{"tty", RUAS_SEVERITY_WARNING,
	 "its members write to other users' terminals"},
	{"video", RUAS_SEVERITY_WARNING,
	 "its members read the frame buffer and the cameras: other people's "
	 "screens"},
	{"input", RUAS_SEVERITY_WARNING,
	 "its members read every keyboard and mouse (/dev/input): other people's "
	 "keystrokes, passwords included"},
	{"sudo", RUAS_SEVERITY_WARNING,
	 "its members run any command as root with sudo, given a password"},
	{"wheel", RUAS_SEVERITY_WARNING,
	 "its members run any command as root with sudo or su, given a password"},
	{"admin", RUAS_SEVERITY_WARNING,
	 "its members run any command as root with sudo, given a password"},
};

ruas_severity ruas_group_risk(const char *name, unsigned long gid, const char **why)
{
	const char *w = NULL;
	ruas_severity sev = RUAS_SEVERITY_NONE;
	if (gid == 0) {
		w = gid0_why;
		sev = RUAS_SEVERITY_FATAL;
	} else {
		for (size_t i = 0; name && i < sizeof rules / sizeof *rules; i++)
			if (strcmp(name, rules[i].name) == 0) {
				w = rules[i].why;
				sev = rules[i].severity;
				break;
			}
	}
	if (why)
		*why = w;
	return sev;
}

int ruas_group_risk_at(size_t index, const char **name, ruas_severity *severity,
		       const char **why)
{
	if (index >= sizeof rules / sizeof *rules)
		return RUAS_ERR_NOTFOUND;
	if (name)
		*name = rules[index].name;
	if (severity)
		*severity = rules[index].severity;
	if (why)
		*why = rules[index].why;
	return 0;
}
