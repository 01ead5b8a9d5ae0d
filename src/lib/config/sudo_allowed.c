/* SPDX-License-Identifier: ISC */
/*
 * sudo_allowed.c - see sudo_allowed.h.
 *
 * target_sudo_allowed turns a fatal finding into a warning, so it must not
 * be able to name anything that is a shell by another name. The tables are
 * data: docs/security.md lists them, and they may grow.
 */
#include "config/sudo_allowed.h"

#include <string.h>

struct refused {
	const char *name;
	int prefix; /* also names that start with it: python3.11, perl5.36 */
	const char *why;
};

static const char shell[] = "is a shell, which runs any command";
static const char interp[] = "is an interpreter, which runs any code it is given";
static const char editor[] = "is an editor or pager, which can write any file or start a shell";
static const char runner[] = "runs other commands (as env does)";
static const char writer[] = "writes files, accounts or packages that root trusts";

static const struct refused refused[] = {
	{"sh", 0, shell}, {"bash", 0, shell}, {"dash", 0, shell}, {"ash", 0, shell},
	{"zsh", 0, shell}, {"ksh", 1, shell}, {"mksh", 0, shell}, {"csh", 0, shell},
	{"tcsh", 0, shell}, {"fish", 0, shell}, {"rbash", 0, shell}, {"yash", 0, shell},
	{"busybox", 0, shell}, {"login", 0, shell},
	{"python", 1, interp}, {"perl", 1, interp}, {"ruby", 1, interp}, {"irb", 0, interp},
	{"node", 1, interp}, {"php", 1, interp}, {"lua", 1, interp}, {"tclsh", 1, interp},
	{"wish", 1, interp}, {"expect", 0, interp}, {"awk", 0, interp}, {"gawk", 0, interp},
	{"mawk", 0, interp}, {"nawk", 0, interp}, {"java", 0, interp}, {"jshell", 0, interp},
	{"Rscript", 0, interp}, {"R", 0, interp}, {"guile", 1, interp}, {"gdb", 0, interp},
	{"sed", 0, interp}, {"make", 0, interp}, {"vi", 0, editor}, {"vim", 1, editor},
	{"nvim", 0, editor}, {"view", 0, editor}, {"rvim", 0, editor}, {"ed", 0, editor},
	{"ex", 0, editor}, {"nano", 0, editor}, {"pico", 0, editor}, {"emacs", 1, editor},
	{"joe", 0, editor}, {"mcedit", 0, editor}, {"editor", 0, editor},
	/* sensible-editor, -pager, -browser (a prefix: lintian reads the full names as a dependency) */
	{"sensible-", 1, editor}, {"sudoedit", 0, editor}, {"less", 0, editor},
	{"more", 0, editor}, {"most", 0, editor}, {"pager", 0, editor},
	{"man", 0, editor},
	{"env", 0, runner}, {"sudo", 0, runner}, {"su", 0, runner}, {"doas", 0, runner},
	{"pkexec", 0, runner}, {"runuser", 0, runner}, {"setpriv", 0, runner},
	{"nohup", 0, runner}, {"nice", 0, runner}, {"xargs", 0, runner}, {"find", 0, runner},
	{"script", 0, runner}, {"tmux", 0, runner}, {"screen", 0, runner},
	{"chroot", 0, runner}, {"unshare", 0, runner}, {"nsenter", 0, runner},
	{"timeout", 0, runner}, {"time", 0, runner}, {"stdbuf", 0, runner},
	{"taskset", 0, runner}, {"ionice", 0, runner}, {"strace", 0, runner},
	{"ltrace", 0, runner}, {"flock", 0, runner}, {"watch", 0, runner},
	{"systemd-run", 0, runner}, {"run-parts", 0, runner}, {"start-stop-daemon", 0, runner},
	{"setsid", 0, runner}, {"chrt", 0, runner}, {"prlimit", 0, runner},
	{"capsh", 0, runner}, {"bwrap", 0, runner}, {"perf", 0, runner},
	{"docker", 0, runner}, {"podman", 0, runner}, {"crontab", 0, runner},
	{"journalctl", 0, editor}, {"git", 0, runner}, {"ssh", 0, runner},
	{"apt", 0, writer}, {"apt-get", 0, writer}, {"dpkg", 0, writer}, {"pip", 1, writer},
	{"npm", 0, writer}, {"cp", 0, writer}, {"mv", 0, writer}, {"tee", 0, writer},
	{"dd", 0, writer}, {"install", 0, writer}, {"tar", 0, writer}, {"rsync", 0, writer},
	{"chmod", 0, writer}, {"chown", 0, writer}, {"chgrp", 0, writer}, {"ln", 0, writer},
	{"mount", 0, writer}, {"umount", 0, writer}, {"visudo", 0, editor},
	{"passwd", 0, writer}, {"chpasswd", 0, writer}, {"useradd", 0, writer},
	{"usermod", 0, writer}, {"gpasswd", 0, writer}, {"setfacl", 0, writer},
	{NULL, 0, NULL},
};

static const char *program_problem(const char *path, size_t len)
{
	const char *base = path;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	size_t n = len - (size_t)(base - path);
	if (n == 0)
		return "names a directory, which allows every command in it";
	for (const struct refused *r = refused; r->name; r++) {
		size_t rn = strlen(r->name);
		if (n >= rn && strncmp(base, r->name, rn) == 0 && (n == rn || r->prefix))
			return r->why;
	}
	return NULL;
}

/* Past a digest ("sha256:HEX /path"), where the program's path starts. */
static const char *program_of(const char *cmd)
{
	if (strncmp(cmd, "sha", 3) == 0 && strchr(cmd, ':') && strchr(cmd, ' ') &&
	    strchr(cmd, ':') < strchr(cmd, ' '))
		return strchr(cmd, ' ') + 1;
	return cmd;
}

char *sudo_allowed_program(const char *cmd)
{
	const char *path = program_of(cmd);
	return strndup(path, strcspn(path, " "));
}

const char *sudo_allowed_problem(const char *cmd)
{
	if (!*cmd)
		return "is empty";
	for (const char *c = cmd; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "contains a control character";
	if (strpbrk(cmd, "*?[]"))
		return "contains a wildcard, which matches more than one command";
	if (cmd[0] == '!')
		return "is a negation, which grants nothing";
	/* A digest ("sha256:HEX /path") pins the binary; the path follows it. */
	const char *path = program_of(cmd);
	size_t plen = strcspn(path, " ");
	for (const char *w = cmd; *w;) {
		size_t n = strcspn(w, " ");
		if (n == 3 && strncmp(w, "ALL", 3) == 0)
			return "names ALL, which is every command";
		w += n;
		while (*w == ' ')
			w++;
	}
	if (path[0] != '/')
		return "must be an absolute command path as sudo -l prints it";
	const char *why = program_problem(path, plen);
	/* sudo lets a command listed without arguments run with any arguments. */
	if (!why && !path[plen])
		why = "has no arguments, and sudo then allows any arguments (give them, or \"\" for none)";
	return why;
}
