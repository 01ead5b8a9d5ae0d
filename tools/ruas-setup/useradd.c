/* SPDX-License-Identifier: ISC */
/*
 * useradd.c - ruas-setup useradd: an idempotent POSIX sh script that
 * creates a target user the way ruas needs it. Every value is inside single
 * quotes, so a path with spaces, quotes, '$' or newlines stays data.
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_print.h"
#include "ruas.h"
#include "escape.h"
#include "args.h"

/*
 * 'value', with each ' written as '\'' (POSIX: nothing is special inside '...').
 * Not quote_shell() of quote.h on purpose: that one leaves a safe word bare
 * and writes control bytes in bash's $'...' form, which not every /bin/sh
 * reads; this script is POSIX sh, so every value is in single quotes, a
 * newline included.
 */
static void sq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* What to do about an existing user whose uid is not the one pinned (--uid). */
#define UID_FIX "change it with usermod -u $pin_uid $user while none of its processes " \
		"runs (files outside its home keep uid $uid: find / -xdev -uid $uid -exec " \
		"chown -h $pin_uid {} +), or pin uid $uid"

/*
 * Up to the judgement of each group of an existing user. gid 0 is refused by
 * number, whatever its name; the named groups are a case statement generated
 * from the library's table (group_arms), the one that ruas check applies.
 */
static const char script_head[] =
	"say() { printf 'ruas-setup useradd: %s\\n' \"$*\" >&2; }\n"
	"# A number or nothing: under set -eu a failed id inside [ ] or for would\n"
	"# not stop the script, and the checks would pass on nothing.\n"
	"ids() {\n"
	"\tif ! out=$(id \"$1\" \"$user\"); then\n"
	"\t\tsay \"cannot read the ids of user $user (id $1 failed); refusing: fix the user and group databases and run this again\"\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tcase \"$out\" in\n"
	"\t'' | *[!0-9\\ ]*)\n"
	"\t\tsay \"id $1 $user gave '$out', not numbers; refusing\"\n"
	"\t\texit 1 ;;\n"
	"\tesac\n"
	"\tprintf '%s\\n' \"$out\"\n"
	"}\n"
	"# Refuses a gid of the user that is the gid of group $1 under another\n"
	"# name (an alias placed before it in /etc/group): the names are not enough.\n"
	"gid_of_risky() {\n"
	"\ttg=$(getent group \"$1\" | cut -d: -f3)\n"
	"\t[ -n \"$tg\" ] || return 0\n"
	"\tfor gid in $gids; do\n"
	"\t\t[ \"$gid\" = \"$tg\" ] || continue\n"
	"\t\tg=$(getent group \"$gid\" | cut -d: -f1)\n"
	"\t\tif [ \"$2\" = root ]; then\n"
	"\t\t\tsay \"user $user is in group $g (gid $gid, that of $1), which gives root; remove it (gpasswd -d $user $g) and run this again\"\n"
	"\t\telse\n"
	"\t\t\tsay \"user $user is in group $g (gid $gid, that of $1), which a dedicated target does not need; remove it (gpasswd -d $user $g) and run this again\"\n"
	"\t\tfi\n"
	"\t\tsay \"$3\"\n"
	"\t\texit 1\n"
	"\tdone\n"
	"}\n"
	"\n"
	"if [ \"$(id -u)\" -ne 0 ]; then\n"
	"\tsay \"run this script as root\"\n"
	"\texit 1\n"
	"fi\n"
	"if id -u \"$user\" >/dev/null 2>&1; then\n"
	"\tuid=$(ids -u)\n"
	"\tif [ \"$uid\" -eq 0 ]; then\n"
	"\t\tsay \"user $user exists with uid 0 (it is root); refusing\"\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tif [ -n \"$pin_uid\" ] && [ \"$uid\" != \"$pin_uid\" ]; then\n"
	"\t\tsay \"user $user exists with uid $uid, not the pinned uid $pin_uid; refusing: " UID_FIX "\"\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tg0=$(ids -g)\n"
	"\tif [ \"$g0\" -eq 0 ]; then\n"
	"\t\tsay \"user $user has gid 0 ($(getent group 0 | cut -d: -f1)) as its primary group, which gives root; give it a group of its own (usermod -g $user $user, after groupadd $user if there is none) and run this again\"\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tgids=$(ids -G)\n"
	"\t# Numbers, which never split; the names may hold anything.\n"
	"\tfor gid in $gids; do\n"
	"\t\tg=$(getent group \"$gid\" | cut -d: -f1)\n"
	"\t\tif [ \"$gid\" -eq 0 ]; then\n"
	"\t\t\tsay \"user $user is in group $g, which gives root; remove it (gpasswd -d $user $g) and run this again\"\n"
	"\t\t\texit 1\n"
	"\t\tfi\n"
	"\t\tcase \"$g\" in\n";

static const char script_loop_end[] =
	"\t\tesac\n"
	"\tdone\n";

static const char script_tail[] =
	"\thome=$(getent passwd \"$user\" | cut -d: -f6)\n"
	"\tcurrent_shell=$(getent passwd \"$user\" | cut -d: -f7)\n"
	"\tcase \"$current_shell\" in\n"
	"\t*/nologin | */false | '')\n"
	"\t\tsay \"warning: $user has login shell '$current_shell'; sudo -i needs a real one: usermod -s /bin/bash $user\" ;;\n"
	"\tesac\n"
	"\tsay \"user $user exists; keeping it\"\n"
	"elif [ -n \"$pin_uid\" ]; then\n"
	"\tif other=$(getent passwd \"$pin_uid\"); then\n"
	"\t\tsay \"uid $pin_uid is already user ${other%%:*}'s; refusing: pin a uid that no user has\"\n"
	"\t\texit 1\n"
	"\tfi\n"
	"\tuseradd --create-home --home-dir \"$home\" --user-group --uid \"$pin_uid\" --shell \"$shell\" \"$user\"\n"
	"\tsay \"created user $user (uid $pin_uid)\"\n"
	"else\n"
	"\tuseradd --create-home --home-dir \"$home\" --user-group --shell \"$shell\" \"$user\"\n"
	"\tsay \"created user $user\"\n"
	"fi\n"
	"# Locked once: a locked password is left alone (no rewrite of /etc/shadow, no log).\n"
	"case $(passwd --status \"$user\" | cut -d' ' -f2) in\n"
	"L) ;;\n"
	"*) passwd --lock \"$user\" >/dev/null ;;\n"
	"esac\n"
	"# By descriptor, never following a symlink the user put in its place.\n"
	"\"$ruas_setup\" home --target \"$user\" --home \"$home\"\n";

/*
 * One case arm per group of ruas_group_risk_at(). A dedicated target needs
 * none of them, and the script has always refused sudo, wheel, admin and
 * shadow: it refuses every group of the table, with ruas check's why.
 */
static void group_arms(FILE *f)
{
	const char *name, *why;
	ruas_severity sev;
	for (size_t i = 0; ruas_group_risk_at(i, &name, &sev, &why) == 0; i++) {
		fputs("\t\t", f);
		sq(f, name);
		if (sev == RUAS_SEVERITY_FATAL)
			fputs(")\n\t\t\tsay \"user $user is in group $g, which gives root; "
			      "remove it (gpasswd -d $user $g) and run this again\"\n",
			      f);
		else
			fputs(")\n\t\t\tsay \"user $user is in group $g, which a dedicated "
			      "target does not need; remove it (gpasswd -d $user $g) and run "
			      "this again\"\n",
			      f);
		fputs("\t\t\tsay ", f);
		sq(f, why);
		fputs("\n\t\t\texit 1 ;;\n", f);
	}
}

/* The same table by gid: a group of another name with a listed group's gid. */
static void gid_checks(FILE *f)
{
	const char *name, *why;
	ruas_severity sev;
	for (size_t i = 0; ruas_group_risk_at(i, &name, &sev, &why) == 0; i++) {
		fputs("\tgid_of_risky ", f);
		sq(f, name);
		fputs(sev == RUAS_SEVERITY_FATAL ? " root " : " needless ", f);
		sq(f, why);
		fputc('\n', f);
	}
}

static const char work_dir_body[] =
	"\n"
	"if [ ! -d \"$work_dir\" ]; then\n"
	"\tsay \"work_dir $work_dir is not a directory\"\n"
	"\texit 1\n"
	"fi\n"
	"# Read, write and search now, and by default for what is created later.\n"
	"# By descriptor: the user's own symlinks and renames in the tree cannot\n"
	"# redirect it (setfacl -R and find resolve names the user can swap).\n"
	"\"$ruas_setup\" acl --target \"$user\" --work-dir \"$work_dir\"\n"
	"gid=$(id -g \"$user\")\n"
	"d=$work_dir\n"
	"while [ \"$d\" != / ]; do\n"
	"\td=$(dirname -- \"$d\"; echo x)\n"
	"\td=${d%??}\n"
	"\tif ! setpriv --reuid \"$user\" --regid \"$gid\" --init-groups test -x \"$d\"; then\n"
	"\t\tsay \"user $user cannot traverse $d, so it cannot reach work_dir; grant it with: setfacl -m u:$user:x <that directory>\"\n"
	"\tfi\n"
	"done\n";

/*
 * --uid N: a decimal uid, not 0 (root) nor (uid_t)-1, and no other user's
 * now. NULL with *uid set, or why not (in msg).
 */
static const char *uid_problem(const char *s, const char *user, uid_t *uid, char *msg,
			       size_t len)
{
	if (strcmp(s, "0") == 0)
		return "is root's uid; a target is never root";
	if (s[0] < '1' || s[0] > '9' || strspn(s, "0123456789") != strlen(s))
		return "is not a uid (a decimal number from 1, without a sign or a leading 0)";
	errno = 0;
	unsigned long long v = strtoull(s, NULL, 10);
	/* (uid_t)-1 is no uid: chown and setreuid read it as "unchanged". */
	if (errno == ERANGE || v > UINT32_MAX - 1ULL)
		return "is out of range for a uid";
	*uid = (uid_t)v;
	struct passwd pw;
	struct passwd *res = NULL;
	char mem[4096], shown[256];
	if (getpwuid_r(*uid, &pw, mem, sizeof mem, &res) != 0)
		return "cannot be checked: the user database cannot be read";
	if (res && strcmp(pw.pw_name, user) != 0) {
		snprintf(msg, len, "is already the uid of user \"%s\"; pin a uid that no user has",
			 escape_name(pw.pw_name, shown, sizeof shown));
		return msg;
	}
	if (getpwnam_r(user, &pw, mem, sizeof mem, &res) != 0)
		return "cannot be checked: the user database cannot be read";
	if (res && pw.pw_uid != *uid) {
		unsigned long have = (unsigned long)pw.pw_uid;
		escape_name(user, shown, sizeof shown);
		snprintf(msg, len, "is not the uid of the existing user, %lu; change it with "
			 "usermod -u %s %s while none of its processes runs (files outside its home "
			 "keep uid %lu: find / -xdev -uid %lu -exec chown -h %s {} +), or pin uid %lu",
			 have, s, shown, have, have, s, have);
		return msg;
	}
	return NULL;
}

static const char *path_problem(const char *p)
{
	return p[0] == '/' ? NULL : "must be an absolute path";
}

/*
 * A login shell sudo -i can start: listed in /etc/shells (as chsh wants)
 * and an executable file. NULL, or why not.
 */
static const char *shell_problem(const char *shell)
{
	const char *why = path_problem(shell);
	if (why)
		return why;
	FILE *f = fopen("/etc/shells", "re");
	if (!f)
		return "cannot be checked: /etc/shells cannot be read";
	char line[4096];
	int listed = 0;
	while (!listed && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		listed = line[0] != '#' && strcmp(line, shell) == 0;
	}
	fclose(f);
	if (!listed)
		return "is not listed in /etc/shells (add it there, or name a shell that is)";
	struct stat st;
	if (stat(shell, &st) < 0 || !S_ISREG(st.st_mode) || access(shell, X_OK) < 0)
		return "is not an executable file";
	return NULL;
}

int setup_useradd(const struct setup_args *a)
{
	const char *user = a->targets[0];
	const char *why = ruas_user_name_problem(user);
	if (why) {
		char shown[256];
		return setup_fail(SETUP_USAGE, "target \"%s\" %s; nothing printed",
				  escape_name(user, shown, sizeof shown), why);
	}
	if (strcmp(user, "root") == 0)
		return setup_fail(SETUP_USAGE, "target \"root\" is root; nothing printed");
	const char *shell = a->shell ? a->shell : "/bin/bash";
	if ((why = shell_problem(shell))) {
		char shown[256];
		return setup_fail(SETUP_USAGE, "--shell \"%s\" %s; nothing printed",
				  escape_name(shell, shown, sizeof shown), why);
	}
	uid_t uid = 0;
	char uidmsg[512];
	if (a->uid && (why = uid_problem(a->uid, user, &uid, uidmsg, sizeof uidmsg))) {
		char shown[256];
		return setup_fail(SETUP_USAGE, "--uid %s for target \"%s\" %s; nothing printed",
				  a->uid, escape_name(user, shown, sizeof shown), why);
	}
	if (a->home && (why = path_problem(a->home)))
		return setup_fail(SETUP_USAGE, "--home %s; nothing printed", why);
	if (a->work_dir && (why = path_problem(a->work_dir)))
		return setup_fail(SETUP_USAGE, "--work-dir %s; nothing printed", why);

	/* The script runs this very binary for the home and the ACLs (it may
	 * live under a DESTDIR). */
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0 || (size_t)n >= sizeof self - 1)
		return setup_fail(SETUP_FAILED, "cannot find this program's own path "
				  "(/proc/self/exe); nothing printed");
	self[n] = '\0';

	FILE *f = stdout;
	fprintf(f, "#!/bin/sh\n"
		   "# Generated by ruas-setup %s: creates the ruas target user %s.\n"
		   "# Idempotent: a second run keeps the user and changes nothing that is right.\n"
		   "set -eu\n",
		RUAS_VERSION, user);
	fputs("user=", f);
	sq(f, user);
	fputs("\nshell=", f);
	sq(f, shell);
	fputs("\nhome=", f);
	if (a->home) {
		sq(f, a->home);
	} else {
		fputs("/home/", f);
		sq(f, user);
	}
	fputc('\n', f);
	if (a->work_dir) {
		fputs("work_dir=", f);
		sq(f, a->work_dir);
		fputc('\n', f);
	}
	fputs("pin_uid=", f);
	if (a->uid)
		fprintf(f, "%lu", (unsigned long)uid);
	fputc('\n', f);
	fputs("ruas_setup=", f);
	sq(f, self);
	fputc('\n', f);
	fputs(script_head, f);
	group_arms(f);
	fputs(script_loop_end, f);
	gid_checks(f);
	fputs(script_tail, f);
	if (a->work_dir)
		fputs(work_dir_body, f);
	if (!output_ok(f))
		return setup_fail(SETUP_FAILED, "cannot write to stdout");
	return SETUP_OK;
}
