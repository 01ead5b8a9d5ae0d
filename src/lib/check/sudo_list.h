/* SPDX-License-Identifier: ISC */
/*
 * sudo_list.h - reading what `sudo -l` prints, to tell which of a target's
 * rules run something as somebody else without a password.
 *
 * The short format of sudo 1.9 (plugins/sudoers, display_privs): sections
 * headed "Matching Defaults entries for U on H:", "Runas and
 * Command-specific defaults for U:" and "User U may run the following
 * commands on H:", each a block of indented lines ending at a blank line.
 * A privilege line is "    (RUNAS) [OPTION=value ...] [TAG: ...]CMD, ..."; a
 * line sudo wrapped at the terminal's width continues, indented deeper. sudo
 * prints every tag in force at the start of each privilege line, and again
 * where it changes within the line. Anything else is not understood, and the
 * caller must fail closed on that.
 */
#ifndef RUAS_SUDO_LIST_H
#define RUAS_SUDO_LIST_H

#include <stddef.h>

struct sudo_cmd {
	char *text;   /* as printed, tags and options removed: "/usr/bin/id -u", "ALL" */
	int nopasswd; /* NOPASSWD: in force for it */
	int setenv;   /* SETENV: in force: the caller may set any variable for it */
	int negated;  /* "!CMD": a denial, which grants nothing */
};

struct sudo_rule {
	char *line;    /* the privilege as sudo -l prints it, wrapped lines joined */
	char *runas;   /* between the parentheses: "root", "ALL : ALL", "t1 : grp" */
	int self_only; /* runs only as the listed user itself, with no other group */
	int risky_options; /* CHROOT=, or a wildcard CWD=: the caller moves what runs */
	struct sudo_cmd *cmds;
	size_t ncmds;
};

struct sudo_listing {
	int not_allowed;        /* "User U is not allowed to run sudo" and the like */
	int authenticate_off;   /* a Defaults entry for U says !authenticate */
	char *authenticate_line; /* that entry, as printed */
	int setenv_default;      /* Defaults setenv for U: every command takes variables */
	int targetpw;            /* Defaults targetpw for U: a rule asks the runas user's password */
	/*
	 * Defaults>RUNAS and Defaults!CMND entries that set or clear targetpw,
	 * in the listing's order: the binding as printed ("victim, #0"; NULL
	 * for a command's) and the value.
	 */
	struct bound_targetpw {
		char *runas;
		int on;
	} *bound_tp;
	size_t nbound_tp;
	char *secure_path;       /* Defaults secure_path, unescaped ("A:B"), or NULL */
	struct sudo_rule *rules;
	size_t nrules;
};

/*
 * Parses the listing of user's rules (carriage returns of a pty are
 * dropped). 0, or -1 with *why set to a static reason and *l freed: a line
 * it does not understand, or no memory.
 */
int sudo_listing_parse(const char *text, const char *user, struct sudo_listing *l,
		       const char **why);
void sudo_listing_free(struct sudo_listing *l);

/* Does text say that a password is needed for the listing itself? */
int sudo_says_password_required(const char *text);

#endif
